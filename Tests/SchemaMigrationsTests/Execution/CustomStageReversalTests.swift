import Foundation
import Testing

@testable import SchemaMigrations

/// The trips plan, its custom stage declaring its way back: `reverseWillMigrate` at 2.0.0 before
/// the inferred steps back, `reverseDidMigrate` at 1.0.0 after them.
enum ReversibleTripsPlan: SchemaMigrationPlan {
    static let schemas: [any VersionedSchema.Type] = [TripsV1.self, TripsV2.self, TripsV3.self]
    static let stages: [MigrationStage] = [
        .custom(
            fromVersion: TripsV1.self, toVersion: TripsV2.self,
            willMigrate: { context in
                try context.execute("DELETE FROM Trip WHERE id NOT IN (SELECT min(id) FROM Trip GROUP BY name)")
            },
            didMigrate: nil,
            reverseWillMigrate: { context in
                // Still 2.0.0: the name is unique, and the columns are V2's (V3's renames are undone).
                let unique = try context.scalar(
                    "SELECT count(*) FROM pragma_index_list('Trip') WHERE \"unique\" = 1 AND origin = 'c'")
                let columns = try context.scalar(
                    "SELECT count(*) FROM pragma_table_info('Trip') WHERE name = 'start_date'")
                guard unique?.int64Value == 1, columns?.int64Value == 1 else {
                    throw CustomStageReversalTests.Unexpected()
                }
            },
            reverseDidMigrate: { context in
                // 1.0.0: names may repeat again.
                try context.execute(
                    "INSERT INTO Trip (name, destination, start_date, end_date) VALUES ('Paris', 'again', 0, 0)")
            }),
        .lightweight(fromVersion: TripsV2.self, toVersion: TripsV3.self),
    ]
}

/// The same plan whose way back throws in `reverseDidMigrate`.
enum FailingReverseTripsPlan: SchemaMigrationPlan {
    static let schemas: [any VersionedSchema.Type] = [TripsV1.self, TripsV2.self]
    static let stages: [MigrationStage] = [
        .custom(
            fromVersion: TripsV1.self, toVersion: TripsV2.self, willMigrate: nil, didMigrate: nil,
            reverseWillMigrate: nil, reverseDidMigrate: { _ in throw CustomStageReversalTests.Unexpected() })
    ]
}

@Suite struct CustomStageReversalTests {
    struct Unexpected: Error {}
    typealias A = PlanBuilder

    static func databaseAtV3(_ plan: any SchemaMigrationPlan.Type = ReversibleTripsPlan.self) throws
        -> TemporaryDatabase
    {
        let db = TemporaryDatabase()
        try Migrator(plan: plan, options: MigrationOptions(targetVersion: TripsV1.versionIdentifier)).migrate(
            databaseAt: db.url)
        try db.execute(
            "INSERT INTO Trip (name, destination, start_date, end_date) VALUES ('Paris', 'France', 1, 2), ('Rome', 'Italy', 3, 4)"
        )
        try Migrator(plan: plan).migrate(databaseAt: db.url)
        return db
    }

    @Test func aCustomStageWithReverseCodeIsTakenBackRunningItAroundTheInferredSteps() throws {
        let db = try Self.databaseAtV3()
        let back = Migrator(
            plan: ReversibleTripsPlan.self, options: MigrationOptions(targetVersion: TripsV1.versionIdentifier))
        let report = try back.plan(databaseAt: db.url)
        #expect(report.stages.map(\.header.description) == ["3.0.0 → 2.0.0 (revert)", "2.0.0 → 1.0.0 (revert)"])
        #expect(report.stages[1].header.kind == .custom)
        let result = try back.migrate(databaseAt: db.url)
        #expect(result.toVersion == TripsV1.versionIdentifier)
        #expect(
            try db.rows("SELECT name, destination, start_date FROM Trip ORDER BY id") == [
                ["'Paris'", "'France'", "1.0"], ["'Rome'", "'Italy'", "3.0"], ["'Paris'", "'again'", "0.0"],
            ])
        #expect(try db.recordedVersion() == "1.0.0")
        // Forward again: the custom stage's willMigrate removes the duplicate it let in.
        try Migrator(plan: ReversibleTripsPlan.self).migrate(databaseAt: db.url)
        #expect(try db.rows("SELECT count(*) FROM Trip") == [["2"]])
    }

    @Test func reverseCodeThatThrowsRollsTheWholeWayBack() throws {
        let db = try Self.databaseAtV3(FailingReverseTripsPlan.self)
        let before = try db.bytes()
        let error = try #require(throws: MigrationError.self) {
            try Migrator(
                plan: FailingReverseTripsPlan.self,
                options: MigrationOptions(targetVersion: TripsV1.versionIdentifier)
            ).migrate(databaseAt: db.url)
        }
        #expect(error.code == .customStageFailed)
        #expect(error.cause is Unexpected)
        #expect(try db.bytes() == before)
    }

    @Test func aCustomStageWithoutReverseInTheMiddleRefusesTheRangeBeforeWriting() throws {
        let db = TemporaryDatabase()
        let schemas = (1...4).map { version in
            A.schema(
                version,
                [
                    PersonFixture.person {
                        for extra in 1..<version {
                            $0.attributes.append(A.attribute("extra\(extra)", .string, optional: true))
                        }
                    }
                ])
        }
        var stages = zip(schemas, schemas.dropFirst()).map {
            PlannedStage(from: $0.version, to: $1.version, kind: .lightweight)
        }
        stages[1] = PlannedStage(from: schemas[1].version, to: schemas[2].version, kind: .custom)
        func migrator(to version: Int?) throws -> Migrator {
            Migrator(
                resolvedPlan: try ResolvedPlan(name: "default", schemas: schemas, stages: stages),
                options: MigrationOptions(targetVersion: version.map { Schema.Version($0, 0, 0) }))
        }
        try migrator(to: nil).migrate(databaseAt: db.url)
        let before = try db.bytes()
        for target in [1, 2] {
            let expected =
                "cannot take the database back from 4.0.0 to \(target).0.0: the custom stage 2.0.0 → 3.0.0 declares no way back"
            for attempt in ["migrate", "plan", "status"] {
                let error = try #require(throws: MigrationError.self, "\(attempt)") {
                    switch attempt {
                    case "migrate": try migrator(to: target).migrate(databaseAt: db.url)
                    case "plan": _ = try migrator(to: target).plan(databaseAt: db.url)
                    default: _ = try migrator(to: target).status(databaseAt: db.url)
                    }
                }
                #expect(error.message == expected, "\(attempt)")
                #expect(error.code == .unsupportedChange && error.version == Schema.Version(3, 0, 0))
                #expect(error.remedy?.contains("reverseWillMigrate:reverseDidMigrate:") == true)
            }
        }
        #expect(try db.bytes() == before)
        // Down to the custom stage's newer version it goes: only lightweight stages are taken back.
        try migrator(to: 3).migrate(databaseAt: db.url)
        #expect(try db.recordedVersion() == "3.0.0")
    }

    @Test func aPlanDirectoryWritesAReversibleCustomStageAsCustomAndReadsNoRevert() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "reversible-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let written = try PlanDirectory(plan: ReversibleTripsPlan.self)
        #expect(written.stages.map(\.description) == ["1.0.0 → 2.0.0 (custom)", "2.0.0 → 3.0.0 (lightweight)"])
        try written.write(to: directory)
        let file = try String(contentsOf: directory.appendingPathComponent("plan.json"), encoding: .utf8)
        #expect(file.contains(#""kind": "custom""#) || file.contains(#""kind" : "custom""#), "\(file)")
        #expect(!file.contains("revert"))
        // Read back, the custom stage is refused as any custom stage: its code is Swift.
        #expect(throws: MigrationError.self) { try Migrator(planDirectory: directory) }
        // A stage of kind revert is no kind plan.json knows.
        try file.replacingOccurrences(of: "custom", with: "revert").write(
            to: directory.appendingPathComponent("plan.json"), atomically: true, encoding: .utf8)
        #expect(throws: (any Error).self) { try PlanDirectory(contentsOf: directory) }
    }

    @Test func revertTargetIsTheVersionBeforeTheLastRunWholeOrStageByStage() throws {
        for scope in [MigrationOptions.TransactionScope.wholePlan, .perStage] {
            let db = TemporaryDatabase()
            try Migrator(
                plan: ReversibleTripsPlan.self, options: MigrationOptions(targetVersion: TripsV1.versionIdentifier)
            )
            .migrate(databaseAt: db.url)
            try Migrator(plan: ReversibleTripsPlan.self, options: MigrationOptions(transactionScope: scope)).migrate(
                databaseAt: db.url)
            let migrator = Migrator(plan: ReversibleTripsPlan.self)
            #expect(try migrator.revertTarget(databaseAt: db.url) == TripsV1.versionIdentifier, "\(scope)")
            var back = migrator
            back.options.targetVersion = try migrator.revertTarget(databaseAt: db.url)
            try back.migrate(databaseAt: db.url)
            #expect(
                try migrator.history(databaseAt: db.url).map(\.kind) == [
                    "create", "custom", "lightweight", "revert", "revert",
                ])
            #expect(throws: MigrationError.self) { try migrator.revertTarget(databaseAt: db.url) }
        }
    }
}
