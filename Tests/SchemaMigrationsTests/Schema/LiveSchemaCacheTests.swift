import Foundation
import Testing

@testable import SchemaMigrations

/// A read of the live schema reuses what an earlier read on the connection found only while the
/// schema is the same: whatever changed it in between (the application on another connection, a
/// custom stage's code, a change rolled back and another made) is seen by the next read.
@Suite struct LiveSchemaCacheTests {
    typealias A = PlanBuilder

    static func database() throws -> TemporaryDatabase {
        let db = TemporaryDatabase()
        try db.execute(
            """
            CREATE TABLE Trip (id INTEGER PRIMARY KEY, name TEXT NOT NULL DEFAULT '');
            CREATE INDEX Trip_name ON Trip (name);
            CREATE TABLE Stop (id INTEGER PRIMARY KEY, trip INTEGER REFERENCES Trip(id));
            CREATE VIEW Named AS SELECT name FROM Trip;
            """)
        return db
    }

    @Test("A table another connection adds a column to, or creates, between two reads is in the second")
    func aChangeOnAnotherConnectionIsSeen() throws {
        let db = try Self.database()
        let connection = try db.connect()
        let before = try LiveSchema.read(from: connection)
        #expect(before.table(named: "Trip")?.column(named: "notes") == nil)
        let app = try db.connect()
        try app.execute("ALTER TABLE Trip ADD COLUMN notes TEXT; CREATE TABLE Photo (id INTEGER PRIMARY KEY)")
        let after = try LiveSchema.read(from: connection)
        #expect(after.table(named: "Trip")?.column(named: "notes") != nil)
        #expect(after.table(named: "Photo") != nil)
        #expect(after.schemaCookie == (try app.pragmaInteger("schema_version")))
        #expect(after == (try LiveSchema.read(from: db.connect())), "as a fresh connection reads it")
    }

    @Test("A change rolled back and another made in its place, at the same schema_version, is seen")
    func aChangeMadeAfterARollbackIsSeen() throws {
        let db = try Self.database()
        let connection = try db.connect()
        try connection.execute("BEGIN; SAVEPOINT s; CREATE TABLE Draft (id INTEGER PRIMARY KEY)")
        let drafted = try LiveSchema.read(from: connection)
        try connection.execute("ROLLBACK TO s; CREATE TABLE Final (id INTEGER PRIMARY KEY, done INTEGER)")
        let final = try LiveSchema.read(from: connection)
        // SQLite gives the second change the cookie the first had: the cookie alone cannot tell them apart.
        #expect(drafted.schemaCookie == final.schemaCookie)
        #expect(drafted.table(named: "Draft") != nil)
        #expect(final.table(named: "Draft") == nil)
        #expect(final.table(named: "Final")?.column(named: "done") != nil)
        try connection.execute("COMMIT")
    }

    @Test("An index edited through writable_schema, which leaves schema_version as it was, is read as edited")
    func anEditThroughWritableSchemaIsSeen() throws {
        let db = try Self.database()
        let connection = try db.connect()
        let before = try LiveSchema.read(from: connection)
        #expect(before.table(named: "Trip")?.indexes.map(\.columns) == [["name"]])
        try connection.execute(
            """
            PRAGMA writable_schema = ON;
            UPDATE sqlite_schema SET sql = 'CREATE INDEX Trip_name ON Trip (id, name)' WHERE name = 'Trip_name';
            PRAGMA writable_schema = RESET;
            """)
        let after = try LiveSchema.read(from: connection)
        #expect(after.schemaCookie == before.schemaCookie, "SQLite left the cookie as it was")
        #expect(after.table(named: "Trip")?.indexes.map(\.columns) == [["id", "name"]])
    }

    @Test("application_id and user_version, which change no schema row, are read every time")
    func headerValuesAreReadEveryTime() throws {
        let db = try Self.database()
        let connection = try db.connect()
        _ = try LiveSchema.read(from: connection)
        try connection.execute("PRAGMA application_id = 7; PRAGMA user_version = 3")
        let after = try LiveSchema.read(from: connection)
        #expect(after.applicationID == 7 && after.userVersion == 3)
    }

    @Test("A partial read then a full one, or a full read then a partial one, each read as on a fresh connection")
    func partialAndFullReadsAreEachWhatTheyAsk() throws {
        let db = try Self.database()
        let connection = try db.connect()
        let freshPartial = try LiveSchema.read(from: db.connect(), onlyTables: ["trip"])
        let freshFull = try LiveSchema.read(from: db.connect())
        #expect(freshPartial.tables.map(\.name) == ["Trip"] && freshFull.tables.map(\.name) == ["Trip", "Stop"])

        #expect(try LiveSchema.read(from: connection, onlyTables: ["trip"]) == freshPartial)
        #expect(try LiveSchema.read(from: connection) == freshFull, "a partial read is never served as a full one")
        #expect(try LiveSchema.read(from: connection, onlyTables: ["trip"]) == freshPartial)
        #expect(try LiveSchema.read(from: connection, onlyTables: []).tables.isEmpty)
    }

    /// Records how often the stage's code ran.
    final class Runs: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func next() -> Int {
            lock.lock()
            defer { lock.unlock() }
            count += 1
            return count
        }
    }

    @Test(
        "didMigrate makes another table each time the stage runs: after the rollback, the table it made the second time is checked"
    )
    func aTableDidMigrateMakesIsSeenAfterTheStageRunsAgain() throws {
        // The first run leaves a row pointing at a missing Person: the stage rolls back to its
        // savepoint and runs again, the cookie back where it was. The second run makes Note2 in
        // place of Note1, at the cookie Note1 had; the foreign-key check must see Note2.
        let db = TemporaryDatabase()
        let v1 = A.schema(1, [PersonFixture.person])
        let v2 = A.schema(
            2, [PersonFixture.person { $0.attributes.append(A.attribute("nickname", .string, optional: true)) }])
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute(PersonFixture.rows)
        let before = try db.bytes()
        let runs = Runs()
        let migrator = try A.migrator(
            [v1, v2], kind: .custom,
            didMigrate: { context in
                let note = "Note\(runs.next())"
                try context.execute(
                    "CREATE TABLE \(note) (id INTEGER PRIMARY KEY, person INTEGER REFERENCES Person(id))")
                try context.execute("INSERT INTO \(note) (id, person) VALUES (1, 99)")
            })
        let error = try #require(throws: MigrationError.self) { try migrator.migrate(databaseAt: db.url) }
        #expect(runs.next() == 3, "the stage ran twice")
        #expect(error.code == .dataViolation)
        #expect(
            error.message == "the migration would leave 1 rows pointing at missing parents; everything was rolled back")
        #expect(error.details == ["Note2 row 1 references a missing row of Person"])
        #expect(try db.bytes() == before)
    }
}
