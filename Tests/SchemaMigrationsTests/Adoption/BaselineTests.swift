import Foundation
import Testing

@testable import SchemaMigrations

/// `baseline`: an unversioned database recorded at a version, with the differences it accepts;
/// refused, the file unchanged, when what the version declares is missing or typed otherwise.
@Suite struct BaselineTests {
    @Test func aDatabaseCloseToV1IsRecordedAtV1AndMigratesOn() throws {
        let db = TemporaryDatabase()
        // An extra column, a nullable destination, no defaults: adoption refuses it, baseline accepts it.
        try db.execute(
            """
            CREATE TABLE Trip (id INTEGER PRIMARY KEY, name TEXT NOT NULL, destination TEXT, start_date REAL NOT NULL, end_date REAL NOT NULL, legacy TEXT);
            INSERT INTO Trip VALUES (1, 'Paris', 'France', 1, 2, 'a'), (2, 'Rome', NULL, 3, 4, NULL);
            """)
        let migrator = Migrator(plan: TripsPlan.self)
        #expect(throws: MigrationError.self) { try migrator.status(databaseAt: db.url) }

        let result = try migrator.baseline(databaseAt: db.url, version: Schema.Version(1, 0, 0))
        #expect(
            result.acceptedDifferences == [
                "column Trip.destination is nullable, declared non-optional", "column Trip.legacy is not declared",
            ])
        #expect(try db.recordedVersion() == "1.0.0")
        #expect(try Migrator.history(databaseAt: db.url, plan: "default").map(\.kind) == ["baseline"])
        // verify tolerates what was accepted; a new difference is still drift.
        #expect(try migrator.verify(databaseAt: db.url).currentVersion == Schema.Version(1, 0, 0))
        let migrated = try migrator.migrate(databaseAt: db.url)
        #expect(migrated.fromVersion == Schema.Version(1, 0, 0) && migrated.toVersion == Schema.Version(3, 0, 0))
        #expect(
            try db.rows("SELECT id, name, destination, startDate, legacy FROM Trip ORDER BY id") == [
                ["1", "'Paris'", "'France'", "1.0", "'a'"], ["2", "'Rome'", "NULL", "3.0", "NULL"],
            ])
        try db.execute("ALTER TABLE Trip ADD COLUMN extra INTEGER")
        let drift = try #require(throws: MigrationError.self) { try migrator.verify(databaseAt: db.url) }
        #expect(drift.code == .drift && drift.details == ["column Trip.extra is not declared"])
    }

    @Test func aMissingColumnOrADisagreeingTypeIsRefusedAndTheFileUnchanged() throws {
        let db = TemporaryDatabase()
        try db.execute(
            """
            CREATE TABLE Trip (id INTEGER PRIMARY KEY, name TEXT NOT NULL, destination BLOB NOT NULL, start_date REAL NOT NULL);
            INSERT INTO Trip VALUES (1, 'Paris', X'00', 1);
            """)
        let before = try db.bytes()
        let error = try #require(throws: MigrationError.self) {
            try Migrator(plan: TripsPlan.self).baseline(databaseAt: db.url, version: Schema.Version(1, 0, 0))
        }
        #expect(error.code == .unknownVersion)
        #expect(
            error.details == [
                "column Trip.destination is BLOB in the file, declared TEXT (String)",
                "column Trip.end_date is declared but missing from the file",
            ])
        #expect(error.remedy?.contains("migrate snapshot --database PATH --output DIR") == true)
        #expect(try db.bytes() == before)
    }

    @Test func aRecordedDatabaseIsNotBaselinedAgain() throws {
        let db = TemporaryDatabase()
        try Migrator(plan: TripsPlan.self).migrate(databaseAt: db.url)
        let before = try db.bytes()
        let error = try #require(throws: MigrationError.self) {
            try Migrator(plan: TripsPlan.self).baseline(databaseAt: db.url, version: Schema.Version(1, 0, 0))
        }
        #expect(error.code == .unsupportedChange)
        #expect(
            error.message
                == "the database already records version 3.0.0 of the plan 'default'; a baseline is for a database with no version recorded"
        )
        #expect(try db.bytes() == before)
    }
}

/// What a baseline accepted survives a rebuild of its table, and a plan cannot claim another tool's table.
@Suite struct BaselineRebuildTests {
    static func schema(_ version: Int, nameDefault: String?) -> Schema {
        Schema(
            version: Schema.Version(version, 0, 0),
            entities: [
                Schema.Entity(
                    name: "Trip",
                    attributes: [Schema.Attribute(name: "name", valueType: .string, defaultValue: nameDefault)])
            ])
    }

    @Test func anAcceptedExtraColumnKeepsItsValuesThroughARebuild() throws {
        let db = TemporaryDatabase()
        try db.execute(
            """
            CREATE TABLE Trip (id INTEGER PRIMARY KEY, name TEXT NOT NULL, legacy TEXT);
            INSERT INTO Trip VALUES (1, 'Paris', 'kept'), (2, 'Rome', NULL);
            """)
        let directory = db.directory.appendingPathComponent("plan")
        try PlanDirectory(
            name: "Trips", schemas: [Self.schema(1, nameDefault: nil), Self.schema(2, nameDefault: "''")], stages: []
        ).write(to: directory)
        let migrator = try Migrator(planDirectory: directory)
        #expect(
            try migrator.baseline(databaseAt: db.url, version: Schema.Version(1, 0, 0)).acceptedDifferences == [
                "column Trip.legacy is not declared"
            ])
        let result = try migrator.migrate(databaseAt: db.url)
        #expect(result.stages.flatMap(\.allSteps).map(\.op.rawValue) == ["rebuildTable"])
        #expect(
            try db.rows("SELECT id, name, legacy FROM Trip ORDER BY id") == [
                ["1", "'Paris'", "'kept'"], ["2", "'Rome'", "NULL"],
            ])
        #expect(try db.columns("Trip")["name"] == "TEXT NOT NULL DEFAULT ''")
        #expect(try migrator.verify(databaseAt: db.url).isUpToDate)
    }

    @Test func aMissingDeclaredIndexIsRefusedSinceALaterVersionCouldNotDropIt() throws {
        let db = TemporaryDatabase()
        try db.execute(
            "CREATE TABLE Trip (id INTEGER PRIMARY KEY, name TEXT NOT NULL); INSERT INTO Trip VALUES (1, 'Paris');")
        var v1 = Self.schema(1, nameDefault: nil)
        v1.entities[0].indexes = [Schema.Index(["name"])]
        let directory = db.directory.appendingPathComponent("plan")
        try PlanDirectory(name: "Trips", schemas: [v1, Self.schema(2, nameDefault: nil)], stages: []).write(
            to: directory)
        let before = try db.bytes()
        let error = try #require(throws: MigrationError.self) {
            try Migrator(planDirectory: directory).baseline(databaseAt: db.url, version: Schema.Version(1, 0, 0))
        }
        #expect(error.details == ["index on Trip(name) is declared but missing from the file: create it first"])
        #expect(try db.bytes() == before)
        try db.execute("CREATE INDEX trip_name ON Trip(name)")
        try Migrator(planDirectory: directory).baseline(databaseAt: db.url, version: Schema.Version(1, 0, 0))
        #expect(try Migrator(planDirectory: directory).migrate(databaseAt: db.url).toVersion == Schema.Version(2, 0, 0))
        #expect(try db.indexes("Trip").isEmpty)
    }

    @Test func aPlanCannotDeclareAnotherToolsBookkeepingTable() throws {
        let schema = Schema(
            version: Schema.Version(1, 0, 0),
            entities: [
                Schema.Entity(
                    name: "grdb_migrations", attributes: [Schema.Attribute(name: "identifier", valueType: .string)])
            ])
        let error = try #require(throws: MigrationError.self) { try schema.validate() }
        #expect(error.code == .invalidSchema)
        #expect(
            error.message
                == "'grdb_migrations' is another migration tool's bookkeeping table, which SchemaMigrations leaves alone"
        )
    }
}
