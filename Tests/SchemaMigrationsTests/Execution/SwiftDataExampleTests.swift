import Foundation
import Testing

@testable import SchemaMigrations

/// The migration from SwiftData's documentation, end to end on a populated database.
@Suite struct SwiftDataExampleTests {
    /// A V1 database with four trips, two of them named "Paris".
    static func populatedV1() throws -> TemporaryDatabase {
        let db = TemporaryDatabase()
        try Migrator(plan: TripsPlan.self, options: MigrationOptions(targetVersion: Schema.Version(1, 0, 0))).migrate(
            databaseAt: db.url)
        try db.execute(
            """
            INSERT INTO Trip (id, name, destination, start_date, end_date) VALUES
              (1, 'Paris', 'France', 100.5, 200.25),
              (2, 'Rome', 'Italy', 300, 400),
              (3, 'Paris', 'Texas', 500, 600),
              (4, 'Kyoto', 'Japan', 700, 800);
            """)
        return db
    }

    @Test func v1DatabaseReachesV3WithEveryRowUnderItsNewNames() throws {
        let db = try Self.populatedV1()
        let result = try Migrator(plan: TripsPlan.self).migrate(databaseAt: db.url)

        #expect(result.outcome == .migrated)
        #expect(result.fromVersion == Schema.Version(1, 0, 0))
        #expect(result.toVersion == Schema.Version(3, 0, 0))
        #expect(try db.recordedVersion() == "3.0.0")
        #expect(
            try db.rows("SELECT id, name, destination, startDate, endDate, notes FROM Trip ORDER BY id") == [
                ["1", "'Paris'", "'France'", "100.5", "200.25", "NULL"],
                ["2", "'Rome'", "'Italy'", "300.0", "400.0", "NULL"],
                ["4", "'Kyoto'", "'Japan'", "700.0", "800.0", "NULL"],
            ])
        #expect(
            try db.columns("Trip") == [
                "id": "INTEGER", "name": "TEXT NOT NULL DEFAULT ''", "destination": "TEXT NOT NULL DEFAULT ''",
                "startDate": "REAL NOT NULL DEFAULT 0.0", "endDate": "REAL NOT NULL DEFAULT 0.0", "notes": "TEXT",
            ])
        #expect(try db.indexes("Trip") == ["UNIQUE (name)"])
        // The unique constraint holds afterwards.
        #expect(throws: SQLiteError.self) { try db.execute("INSERT INTO Trip (name) VALUES ('Rome')") }
    }

    @Test func theStagesAreCheapAlterStepsNotRebuilds() throws {
        let db = try Self.populatedV1()
        let result = try Migrator(plan: TripsPlan.self).migrate(databaseAt: db.url)
        #expect(
            result.stages.map { $0.steps.map(\.op) } == [
                [.createIndex],
                [.renameColumn, .renameColumn, .addColumn],
            ])
        #expect(result.stages.flatMap(\.steps).allSatisfy { !$0.rewritesRows })
    }

    @Test func aLightweightStageRefusesDuplicatesNamingThemAndWritesNothing() throws {
        let db = try Self.populatedV1()
        let before = try db.bytes()
        let error = try #require(throws: MigrationError.self) {
            try Migrator(plan: TripsLightweightPlan.self).migrate(databaseAt: db.url)
        }
        #expect(error.code == .dataViolation)
        #expect(error.entity == "Trip")
        #expect(error.property == "name")
        #expect(error.message == "cannot make (name) unique on 'Trip': 1 value is shared by more than one row")
        #expect(error.details == ["'Paris' is shared by 2 rows"])
        #expect(try db.bytes() == before)
        #expect(try db.recordedVersion() == "1.0.0")
    }

    @Test func aDatabaseAtV2RunsOnlyTheV2ToV3Stage() throws {
        let db = try Self.populatedV1()
        try Migrator(plan: TripsPlan.self, options: MigrationOptions(targetVersion: Schema.Version(2, 0, 0))).migrate(
            databaseAt: db.url)
        #expect(try db.recordedVersion() == "2.0.0")
        let result = try Migrator(plan: TripsPlan.self).migrate(databaseAt: db.url)
        #expect(result.stages.map(\.from) == [Schema.Version(2, 0, 0)])
        #expect(try db.recordedVersion() == "3.0.0")
        let history = try Migrator.history(databaseAt: db.url, plan: "default")
        #expect(history.map(\.kind) == ["create", "custom", "lightweight"])
        #expect(history.map(\.to.description) == ["1.0.0", "2.0.0", "3.0.0"])
    }

    @Test func anEmptyFileGetsTheLatestSchemaDirectly() throws {
        let db = TemporaryDatabase()
        let result = try Migrator(plan: TripsPlan.self).migrate(databaseAt: db.url)
        #expect(result.outcome == .created)
        #expect(result.stages.flatMap(\.steps).map(\.op) == [.createTable])
        #expect(try db.recordedVersion() == "3.0.0")
        #expect(try db.columns("Trip").keys.sorted() == ["destination", "endDate", "id", "name", "notes", "startDate"])
    }

    @Test func aCurrentDatabaseIsLeftUntouched() throws {
        let db = try Self.populatedV1()
        try Migrator(plan: TripsPlan.self).migrate(databaseAt: db.url)
        let bytes = try db.bytes()
        let modified = try db.modificationDate()
        Thread.sleep(forTimeInterval: 0.05)
        let result = try Migrator(plan: TripsPlan.self).migrate(databaseAt: db.url)
        #expect(result.outcome == .upToDate)
        #expect(try db.bytes() == bytes)
        #expect(try db.modificationDate() == modified)
    }

    @Test func currentVersionReadsTheMetadata() throws {
        let db = try Self.populatedV1()
        let migrator = Migrator(plan: TripsPlan.self)
        #expect(try migrator.currentVersion(databaseAt: db.url) == Schema.Version(1, 0, 0))
        try migrator.migrate(databaseAt: db.url)
        #expect(try migrator.currentVersion(databaseAt: db.url) == Schema.Version(3, 0, 0))
        #expect(try migrator.currentVersion(databaseAt: TemporaryDatabase().url) == nil)
    }
}
