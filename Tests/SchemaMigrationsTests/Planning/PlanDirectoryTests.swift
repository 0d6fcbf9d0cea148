import Foundation
import SampleTripsPlan
import Testing

@testable import SchemaMigrations

/// JSON plan directories: written from a Swift plan, read back into a migrator, and every way a
/// directory can be wrong refused with the file named.
@Suite struct PlanDirectoryTests {
    typealias A = PlanBuilder

    static let v1 = A.schema(
        1, [Schema.Entity(name: "Note", attributes: [A.attribute("text", .string, default: "''")])])
    static let v2 = A.schema(
        2,
        [
            Schema.Entity(
                name: "Note",
                attributes: [
                    A.attribute("text", .string, default: "''"),
                    A.attribute("pinned", .bool, default: "0"),
                ])
        ])

    /// Runs `body` with a directory written from two versions and a lightweight stage, and a
    /// scratch database beside it; both are removed afterwards.
    static func withWrittenDirectory(_ body: (TemporaryDatabase, URL) throws -> Void) throws {
        let scratch = TemporaryDatabase()
        let directory = scratch.directory.appendingPathComponent("plan")
        try PlanDirectory(
            name: "notes", schemas: [v1, v2], stages: [.init(from: v1.version, to: v2.version, kind: .lightweight)]
        ).write(to: directory)
        try withExtendedLifetime(scratch) { try body(scratch, directory) }
    }

    static func error(reading directory: URL) throws -> MigrationError {
        try #require(throws: MigrationError.self) { try Migrator(planDirectory: directory) }
    }

    @Test func aWrittenDirectoryMigratesADatabaseLikeTheSwiftPlan() throws {
        try Self.withWrittenDirectory { scratch, directory in
            let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
            #expect(files == ["plan.json", "schema-1.0.0.json", "schema-2.0.0.json"])
            let plan =
                try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("plan.json")))
                as? [String: Any]
            #expect(plan?["name"] as? String == "notes")
            #expect(plan?["versions"] as? [String] == ["1.0.0", "2.0.0"])
            #expect(
                plan?["stages"] as? [[String: String]] == [["from": "1.0.0", "to": "2.0.0", "kind": "lightweight"]])

            try A.migrator([Self.v1], name: "notes").migrate(databaseAt: scratch.url)
            try scratch.execute("INSERT INTO Note (text) VALUES ('hello')")
            let result = try Migrator(planDirectory: directory).migrate(databaseAt: scratch.url)
            #expect(result.fromVersion == Self.v1.version && result.toVersion == Self.v2.version)
            #expect(try scratch.rows("SELECT text, pinned FROM Note") == [["'hello'", "0"]])
            #expect(try scratch.recordedVersion(plan: "notes") == "2.0.0")
        }
    }

    @Test func stagesMayBeLeftOutAndAreThenLightweight() throws {
        try Self.withWrittenDirectory { _, directory in
            try Data(#"{"name": "notes", "versions": ["1.0.0", "2.0.0"]}"#.utf8).write(
                to: directory.appendingPathComponent("plan.json"))
            #expect(
                try Migrator(planDirectory: directory).schemas().map(\.version) == [Self.v1.version, Self.v2.version])
        }
    }

    @Test func aCustomStageIsRefusedWithTheWayToRunIt() throws {
        // The snapshot of the whole SampleTrips plan lists its first stage, which is custom.
        let scratch = TemporaryDatabase()
        try PlanDirectory(plan: TripsMigrationPlan.self).write(to: scratch.directory)
        let error = try Self.error(reading: scratch.directory)
        #expect(error.code == .invalidPlan)
        #expect(
            error.message
                == "the stage 1.0.0 → 2.0.0 of the plan 'SampleTrips' is custom: its willMigrate and didMigrate are Swift code, which a JSON plan directory cannot hold"
        )
        #expect(error.remedy?.contains("MigrateCommand.main(plan: YourMigrationPlan.self)") == true)
    }

    @Test func aMissingOrMalformedPlanFileIsNamed() throws {
        try Self.withWrittenDirectory { _, directory in
            let planFile = directory.appendingPathComponent("plan.json")
            try Data(#"{"name": "notes", "versions": ["one"]}"#.utf8).write(to: planFile)
            var error = try Self.error(reading: directory)
            #expect(error.code == .invalidPlan)
            #expect(
                error.message.hasPrefix("'\(planFile.path)' is not a valid plan: 'one' is not a version like 1.0.0"))

            try Data(
                #"{"name": "notes", "versions": ["1.0.0"], "stages": [{"from": "1.0.0", "to": "2.0.0", "kind": "heavy"}]}"#
                    .utf8
            ).write(to: planFile)
            error = try Self.error(reading: directory)
            #expect(error.message.hasPrefix("'\(planFile.path)' is not a valid plan: "))
            #expect(error.message.hasSuffix("at stages.[0].kind"))

            try FileManager.default.removeItem(at: planFile)
            error = try Self.error(reading: directory)
            #expect(error.message == "'\(planFile.path)' is missing")

            error = try Self.error(reading: directory.appendingPathComponent("nowhere"))
            #expect(
                error.message
                    == "the plan directory '\(directory.appendingPathComponent("nowhere").path)' does not exist")
        }
    }

    @Test func aMissingSnapshotIsNamed() throws {
        try Self.withWrittenDirectory { _, directory in
            let snapshot = directory.appendingPathComponent("schema-2.0.0.json")
            try FileManager.default.removeItem(at: snapshot)
            let error = try Self.error(reading: directory)
            #expect(error.code == .invalidPlan)
            #expect(error.message == "'\(snapshot.path)' is missing: plan.json lists version 2.0.0")
        }
    }

    @Test func anEditedSnapshotIsRefusedByItsHash() throws {
        try Self.withWrittenDirectory { _, directory in
            let snapshot = directory.appendingPathComponent("schema-2.0.0.json")
            let edited = try String(contentsOf: snapshot, encoding: .utf8).replacingOccurrences(
                of: "\"pinned\"", with: "\"starred\"")
            try Data(edited.utf8).write(to: snapshot)
            let error = try Self.error(reading: directory)
            #expect(error.code == .invalidSchema)
            #expect(error.message.hasPrefix("'\(snapshot.path)': the snapshot of version 2.0.0 records hash "))
        }
    }

    @Test func aSnapshotHoldingAnotherVersionIsRefused() throws {
        try Self.withWrittenDirectory { _, directory in
            let first = directory.appendingPathComponent("schema-1.0.0.json")
            try FileManager.default.removeItem(at: first)
            try FileManager.default.copyItem(at: directory.appendingPathComponent("schema-2.0.0.json"), to: first)
            let error = try Self.error(reading: directory)
            #expect(error.message == "'\(first.path)' holds version 2.0.0, but its name and plan.json say 1.0.0")
        }
    }

    @Test func anInconsistentPlanIsRefusedNamingItsFile() throws {
        try Self.withWrittenDirectory { _, directory in
            try Data(#"{"name": "notes", "versions": ["2.0.0", "1.0.0"]}"#.utf8).write(
                to: directory.appendingPathComponent("plan.json"))
            let error = try Self.error(reading: directory)
            #expect(
                error.message
                    == "'\(directory.appendingPathComponent("plan.json").path)': the plan 'notes' lists version 1.0.0 after 2.0.0"
            )
        }
    }

    @Test func restrictingKeepsARangeOfVersionsAndTheirStages() throws {
        let full = try PlanDirectory(plan: TripsMigrationPlan.self)
        #expect(full.stages.map(\.kind) == [.custom, .lightweight])
        let tail = try full.restricted(from: Schema.Version(2, 0, 0))
        #expect(tail.schemas.map(\.version.description) == ["2.0.0", "3.0.0"])
        #expect(tail.stages == [.init(from: Schema.Version(2, 0, 0), to: Schema.Version(3, 0, 0), kind: .lightweight)])
        #expect(try full.restricted(through: Schema.Version(1, 0, 0)).stages.isEmpty)
        let error = try #require(throws: MigrationError.self) { try full.restricted(from: Schema.Version(2, 5, 0)) }
        #expect(error.message == "version 2.5.0 is not declared by the plan 'SampleTrips'")
    }

    @Test func aPlanWithRelationshipsIsSnapshotAsDeclaredAndMigratesLikeTheSwiftPlan() throws {
        let scratch = TemporaryDatabase()
        try PlanDirectory(plan: GraphPlan.self).write(to: scratch.directory)
        let snapshot = try String(
            contentsOf: scratch.directory.appendingPathComponent("schema-1.0.0.json"), encoding: .utf8)
        #expect(snapshot.contains("\"bucketList\""))
        #expect(!snapshot.contains("trip_id"), "the stored layout's foreign-key columns are not frozen")

        let fromFiles = try RelationshipTests.populatedGraphV1()
        let fromSwift = try RelationshipTests.populatedGraphV1()
        try Migrator(planDirectory: scratch.directory).migrate(databaseAt: fromFiles.url)
        try Migrator(plan: GraphPlan.self).migrate(databaseAt: fromSwift.url)
        let everything = "SELECT type, name, sql FROM sqlite_schema ORDER BY name"
        #expect(try fromFiles.rows(everything) == fromSwift.rows(everything))
        #expect(
            try fromFiles.rows("SELECT title, trip_id FROM BucketListItem ORDER BY id")
                == fromSwift.rows("SELECT title, trip_id FROM BucketListItem ORDER BY id"))
        #expect(
            try fromFiles.rows("SELECT version, hash FROM _schema_migrations")
                == fromSwift.rows("SELECT version, hash FROM _schema_migrations"))
    }
}
