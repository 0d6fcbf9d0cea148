import Foundation
import Testing

@testable import SchemaMigrations

// MIGRATIONS.md, "Expand and contract", shows these declarations as they are here, between the
// two markers (the test below compares them): they compile because this file does.
// BEGIN expand-contract
enum ShopSchemaV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static let models: [any PersistentModel.Type] = [Invoice.self]

    final class Invoice: PersistentModel {
        var customer = ""
        var notes: String? = nil
        init() {}
    }
}

/// Release 2, the expansion: only additions, so release 1's instances keep working beside it.
enum ShopSchemaV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static let models: [any PersistentModel.Type] = [Invoice.self]

    final class Invoice: PersistentModel {
        var customer = ""
        var notes: String? = nil  // kept: release 1 reads and writes it
        var remark: String? = nil  // its new name, filled from notes by the stage
        var priority = 0  // a required column arrives with a default: release 1's inserts get it
        init() {}
    }
}

/// Release 3: its code reads and writes `remark` only; `notes` stays for release 2's instances.
enum ShopSchemaV3: VersionedSchema {
    static let versionIdentifier = Schema.Version(3, 0, 0)
    static let models: [any PersistentModel.Type] = [Invoice.self]

    final class Invoice: PersistentModel {
        var customer = ""
        @Attribute(.retired) var notes: String? = nil  // no longer used by this release's code
        var remark: String? = nil
        var priority = 0
        init() {}
    }
}

/// Release 4, the contraction: release 3 no longer uses `notes`, so dropping it breaks nothing.
enum ShopSchemaV4: VersionedSchema {
    static let versionIdentifier = Schema.Version(4, 0, 0)
    static let models: [any PersistentModel.Type] = [Invoice.self]

    final class Invoice: PersistentModel {
        var customer = ""
        var remark: String? = nil
        var priority = 0
        init() {}
    }
}

enum ShopMigrationPlan: SchemaMigrationPlan {
    static let schemas: [any VersionedSchema.Type] = [
        ShopSchemaV1.self, ShopSchemaV2.self, ShopSchemaV3.self, ShopSchemaV4.self,
    ]
    static let stages: [MigrationStage] = [
        .custom(
            fromVersion: ShopSchemaV1.self, toVersion: ShopSchemaV2.self, willMigrate: nil,
            didMigrate: { context in
                try context.execute("UPDATE Invoice SET remark = notes WHERE remark IS NULL")
            })
    ]
}
// END expand-contract

/// The expand/contract example of MIGRATIONS.md: the page shows these declarations; every
/// stage keeps the release before it working, the contraction included, because the release
/// before it retired the property it drops.
@Suite struct ExpandContractTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    @Test func migrationsMdShowsTheseDeclarations() throws {
        let source = try String(contentsOfFile: #filePath, encoding: .utf8)
        let start = try #require(source.range(of: "// BEGIN expand-contract\n"))
        let end = try #require(source.range(of: "// END expand-contract"))
        let declared = String(source[start.upperBound..<end.lowerBound])
        let page = try String(contentsOf: Self.root.appendingPathComponent("MIGRATIONS.md"), encoding: .utf8)
        let section = try #require(page.range(of: "### Expand and contract"))
        let fence = try #require(page.range(of: "```swift\n", range: section.upperBound..<page.endIndex))
        let close = try #require(page.range(of: "```\n", range: fence.upperBound..<page.endIndex))
        #expect(String(page[fence.upperBound..<close.lowerBound]) == declared)
    }

    @Test func everyReleaseKeepsTheOneBeforeItWorking() throws {
        let lint = try Migrator(plan: ShopMigrationPlan.self).lint()
        #expect(lint.stages.map(\.compatibility.classification) == [.compatible, .compatible, .compatible])
        #expect(lint.stages[0].compatibility.codeIsNotClassified)
        // Retiring is a version of its own (its hash changes), with nothing to write.
        let schemas = try Migrator(plan: ShopMigrationPlan.self).schemas()
        #expect(schemas[1].versionHash != schemas[2].versionHash)
        #expect(lint.stages[1].steps.isEmpty)
        // Without the marker, the same drop breaks the release before it.
        let unmarked = try PlanBuilder.migrator([schemas[1], schemas[3]]).lint()
        #expect(
            unmarked.stages[0].compatibility.reasons.map(\.message) == [
                "drops column Invoice.notes: the previous version reads and writes it"
            ])

        let db = TemporaryDatabase()
        try Migrator(plan: ShopMigrationPlan.self, options: MigrationOptions(targetVersion: Schema.Version(1, 0, 0)))
            .migrate(databaseAt: db.url)
        try db.execute("INSERT INTO Invoice (customer, notes) VALUES ('Ada', 'urgent')")
        var options = MigrationOptions(targetVersion: Schema.Version(2, 0, 0))
        options.requireCompatible = true
        try Migrator(plan: ShopMigrationPlan.self, options: options).migrate(databaseAt: db.url)
        // Release 1's own insert still runs beside release 2.
        try db.execute("INSERT INTO Invoice (customer, notes) VALUES ('Alan', NULL)")
        options.targetVersion = Schema.Version(3, 0, 0)
        try Migrator(plan: ShopMigrationPlan.self, options: options).migrate(databaseAt: db.url)
        // Release 2's insert (both columns) runs beside release 3; release 3's leaves notes out.
        try db.execute("INSERT INTO Invoice (customer, notes, remark) VALUES ('Grace', 'later', 'later')")
        try db.execute("INSERT INTO Invoice (customer, remark) VALUES ('Edsger', 'soon')")
        options.targetVersion = nil
        try Migrator(plan: ShopMigrationPlan.self, options: options).migrate(databaseAt: db.url)
        // Release 3's insert still runs beside release 4.
        try db.execute("INSERT INTO Invoice (customer, remark, priority) VALUES ('Barbara', NULL, 2)")
        #expect(
            try db.rows("SELECT customer, remark, priority FROM Invoice ORDER BY id") == [
                ["'Ada'", "'urgent'", "0"], ["'Alan'", "NULL", "0"], ["'Grace'", "'later'", "0"],
                ["'Edsger'", "'soon'", "0"], ["'Barbara'", "NULL", "2"],
            ])
    }
}
