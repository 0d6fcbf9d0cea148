import Foundation
import Testing

@testable import SchemaMigrations

/// A column that held stored values becoming generated: SQLite computes every value anew, so the
/// values stored by hand are replaced. That is destructive, the dry run counts the rows whose
/// value changes, and `--deny-destructive` refuses it; the reverse keeps every computed value.
@Suite struct GeneratedReplacementTests {
    enum V1: VersionedSchema {
        static let versionIdentifier = Schema.Version(1, 0, 0)
        static let models: [any PersistentModel.Type] = [Invoice.self]
        final class Invoice: PersistentModel {
            var net = 0.0
            var vat = 0.0
            var gross = 0.0
            init() {}
        }
    }

    enum V2: VersionedSchema {
        static let versionIdentifier = Schema.Version(2, 0, 0)
        static let models: [any PersistentModel.Type] = [Invoice.self]
        final class Invoice: PersistentModel {
            var net = 0.0
            var vat = 0.0
            @Attribute(generated: .stored("net + vat")) var gross: Double? = nil
            init() {}
        }
    }

    /// V2 with `net` renamed `amount` in the same stage: the dry run still evaluates the expression.
    enum V2Renamed: VersionedSchema {
        static let versionIdentifier = Schema.Version(2, 0, 0)
        static let models: [any PersistentModel.Type] = [Invoice.self]
        final class Invoice: PersistentModel {
            @Attribute(originalName: "net") var amount = 0.0
            var vat = 0.0
            @Attribute(generated: .virtual("amount + vat")) var gross: Double? = nil
            init() {}
        }
    }

    enum Plan: SchemaMigrationPlan {
        static let schemas: [any VersionedSchema.Type] = [V1.self, V2.self]
    }

    enum RenamingPlan: SchemaMigrationPlan {
        static let schemas: [any VersionedSchema.Type] = [V1.self, V2Renamed.self]
    }

    enum BackPlan: SchemaMigrationPlan {
        static let name = "back"
        static let schemas: [any VersionedSchema.Type] = [V2.self, V3Back.self]
    }

    /// Generated again becomes stored: the computed values stay as they were.
    enum V3Back: VersionedSchema {
        static let versionIdentifier = Schema.Version(3, 0, 0)
        static let models: [any PersistentModel.Type] = [Invoice.self]
        final class Invoice: PersistentModel {
            var net = 0.0
            var vat = 0.0
            var gross: Double? = nil
            init() {}
        }
    }

    /// Two invoices whose gross was typed by hand: one agrees with net + vat, one does not.
    static func database(_ plan: any SchemaMigrationPlan.Type) throws -> TemporaryDatabase {
        let db = TemporaryDatabase()
        try Migrator(plan: plan, options: MigrationOptions(targetVersion: Schema.Version(1, 0, 0))).migrate(
            databaseAt: db.url)
        try db.execute(
            "INSERT INTO Invoice (id, net, vat, gross) VALUES (1, 100, 20, 120), (2, 100, 20, 125), (3, 10, 2, 12)")
        return db
    }

    @Test func theDryRunCallsItDestructiveAndCountsTheRowsWhoseValueChanges() throws {
        let db = try Self.database(Plan.self)
        let report = try Migrator(plan: Plan.self).plan(databaseAt: db.url)
        #expect(report.hasDestructiveSteps)
        let step = try #require(report.stages.first?.steps.first { $0.step.op == .rebuildTable })
        #expect(step.step.destructive)
        #expect(step.impact?.replacedValues == [.init(column: "Invoice.gross", count: 1)])
        #expect(report.warnings.first == "destructive: \(step.step.summary) (1 stored value replaced by computed ones)")
        #expect(
            step.step.summary.contains(
                "gross: not generated to GENERATED ALWAYS AS (net + vat) STORED (its stored values are replaced by computed ones)"
            ))
        let json = try report.json()
        #expect(json.contains(#""replacedValues""#))
        // lint says the same without a database.
        let lint = try Migrator(plan: Plan.self).lint()
        #expect(lint.hasDestructiveSteps)
    }

    @Test func applyingItReplacesTheStoredValuesAsTheDryRunSaid() throws {
        let db = try Self.database(Plan.self)
        try Migrator(plan: Plan.self).migrate(databaseAt: db.url)
        #expect(
            try db.rows("SELECT id, gross FROM Invoice ORDER BY id") == [
                ["1", "120.0"], ["2", "120.0"], ["3", "12.0"],
            ])
    }

    @Test func aRenameInTheSameStageIsSeenByTheMeasurement() throws {
        let db = try Self.database(RenamingPlan.self)
        let report = try Migrator(plan: RenamingPlan.self).plan(databaseAt: db.url)
        let step = try #require(report.stages.first?.steps.first { $0.step.op == .rebuildTable })
        #expect(step.impact?.replacedValues == [.init(column: "Invoice.gross", count: 1)])
    }

    @Test func generatedBackToStoredKeepsTheComputedValuesAndIsNotDestructive() throws {
        let db = TemporaryDatabase()
        try Migrator(plan: BackPlan.self, options: MigrationOptions(targetVersion: Schema.Version(2, 0, 0))).migrate(
            databaseAt: db.url)
        try db.execute("INSERT INTO Invoice (id, net, vat) VALUES (1, 100, 20), (2, 10, 2)")
        let report = try Migrator(plan: BackPlan.self).plan(databaseAt: db.url)
        #expect(!report.hasDestructiveSteps)
        try Migrator(plan: BackPlan.self).migrate(databaseAt: db.url)
        #expect(try db.rows("SELECT id, gross FROM Invoice ORDER BY id") == [["1", "120.0"], ["2", "12.0"]])
        try db.execute("UPDATE Invoice SET net = 0 WHERE id = 1")
        #expect(try db.rows("SELECT gross FROM Invoice WHERE id = 1") == [["120.0"]])
    }
}
