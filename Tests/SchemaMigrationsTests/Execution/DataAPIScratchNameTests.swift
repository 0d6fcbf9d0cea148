import Foundation
import Testing

@testable import SchemaMigrations

/// A large delete keeps the deleted rows' keys in a temporary table named
/// `_schema_migrations_deleting_N`; when the application's connection already holds something of
/// that name, the delete takes the next free name and leaves the application's object alone.
@Suite struct DataAPIScratchNameTests {
    typealias A = PlanBuilder
    typealias Fixture = DataAPILargeDeleteTests

    /// What the application made on its connection before lending it, and how to read it back.
    struct Taken: Sendable, CustomStringConvertible {
        var description: String
        var sql: String
        var check: String
    }

    static let cases: [Taken] = [
        Taken(
            description: "a table of the database itself (no clash: the scratch table is temporary)",
            sql:
                #"CREATE TABLE main."_schema_migrations_deleting_0" (mine); INSERT INTO main."_schema_migrations_deleting_0" VALUES ('kept')"#,
            check: #"SELECT mine FROM main."_schema_migrations_deleting_0""#),
        Taken(
            description: "a temporary table",
            sql:
                #"CREATE TEMP TABLE "_schema_migrations_deleting_0" (mine); INSERT INTO "_schema_migrations_deleting_0" VALUES ('kept'), ('too')"#,
            check: #"SELECT mine FROM temp."_schema_migrations_deleting_0" ORDER BY 1"#),
        Taken(
            description: "a temporary index",
            sql:
                #"CREATE TEMP TABLE mine (x); INSERT INTO mine VALUES ('kept'); CREATE INDEX temp."_schema_migrations_deleting_0" ON mine (x)"#,
            check: #"SELECT name || ' on ' || tbl_name FROM temp.sqlite_schema WHERE type = 'index'"#),
        Taken(
            description: "a temporary view",
            sql: #"CREATE TEMP VIEW "_schema_migrations_deleting_0" AS SELECT 'kept' AS mine"#,
            check: #"SELECT mine FROM temp."_schema_migrations_deleting_0""#),
        Taken(
            description: "an index of the name the cascade's second level takes",
            sql: #"CREATE TEMP TABLE mine (x); CREATE INDEX temp."_schema_migrations_deleting_1" ON mine (x)"#,
            check: #"SELECT name || ' on ' || tbl_name FROM temp.sqlite_schema WHERE type = 'index'"#),
    ]

    @Test(arguments: cases)
    func aDeleteThroughATemporaryTableTakesAFreeName(_ taken: Taken) throws {
        let db = try Fixture.database()
        let expected = try Fixture.afterSQLite("DELETE FROM Trip WHERE id <= 1200", on: db)
        let connection = try db.connect()
        try connection.execute(taken.sql)
        let before = try connection.rows(taken.check)
        let objects = "SELECT type, name FROM temp.sqlite_schema ORDER BY 1, 2"
        let temporary = try connection.rows(objects)
        try A.migrator(
            Fixture.schemas, kind: .custom,
            didMigrate: { context in
                let deleted = try context.delete("Trip", where: "id <= ?", arguments: [.integer(1200)])
                #expect(deleted == 1200)
            }
        ).migrate(using: connection)
        #expect(try Fixture.contents(db.connect()) == expected)
        #expect(try connection.rows(taken.check) == before, "the application's \(taken) is untouched")
        #expect(try connection.rows(objects) == temporary, "no scratch table is left")
    }
}
