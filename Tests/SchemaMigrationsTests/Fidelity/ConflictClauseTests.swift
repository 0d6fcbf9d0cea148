import Foundation
import Testing

@testable import SchemaMigrations

/// A table the app made with `ON CONFLICT REPLACE` or `IGNORE` on a constraint the rebuild keeps:
/// the copy must never resolve a conflict by dropping a row.
@Suite struct ConflictClauseTests {
    @Test(arguments: [false, true])
    func aRebuildThatMakesTwoRowsCollideFailsRatherThanReplaceOne(online: Bool) throws {
        let database = TemporaryDatabase()
        try database.execute(
            """
            CREATE TABLE user (id INTEGER PRIMARY KEY, email TEXT UNIQUE ON CONFLICT REPLACE, name TEXT NOT NULL ON CONFLICT IGNORE);
            INSERT INTO user (email, name) VALUES ('A@x', 'first'), ('a@x', 'second');
            """)
        let v1 = try SchemaIntrospection(databaseAt: database.url).schema
        var v2 = v1
        v2.version = Schema.Version(2, 0, 0)
        let position = try #require(v2.entities[0].attributes.firstIndex { $0.name == "email" })
        v2.entities[0].attributes[position].collation = "NOCASE"
        let before = try database.bytes()
        var options = MigrationOptions()
        if online { options.online = OnlineRebuildOptions() }
        let error = try #require(throws: MigrationError.self) {
            try PlanBuilder.migrator([v1, v2], options: options).migrate(databaseAt: database.url)
        }
        #expect(error.sqliteError?.message.contains("UNIQUE constraint failed") == true, "\(error)")
        #expect(try database.rows("SELECT name FROM user ORDER BY id") == [["'first'"], ["'second'"]])
        if !online { #expect(try database.bytes() == before) }
    }
}
