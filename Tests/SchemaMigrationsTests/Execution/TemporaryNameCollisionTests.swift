import Foundation
import Testing

@testable import SchemaMigrations

/// A rebuild creates its new table under `_sm_new_<table>`, a name only this library makes; a
/// database that already has something of that name (made by hand, in any case of letters) keeps
/// it, and the rebuild takes the next free name instead of failing halfway.
@Suite struct TemporaryNameCollisionTests {
    typealias A = PlanBuilder

    static let objects = [
        #"CREATE INDEX "_sm_new_Item" ON Item (code)"#,
        #"CREATE TABLE "_SM_NEW_ITEM" (x)"#,
        #"CREATE VIEW "_sm_new_item" AS SELECT count(*) AS n FROM Item"#,
        #"CREATE TRIGGER "_sm_new_Item" AFTER INSERT ON Item BEGIN SELECT 1; END"#,
        #"CREATE INDEX "_sm_new_Item" ON Item (code); CREATE TABLE "_sm_new_Item_2" (x)"#,
    ]

    @Test(arguments: objects)
    func aRebuildTakesTheNextFreeNameForItsNewTable(object: String) throws {
        let db = TemporaryDatabase()
        try db.execute(
            """
            CREATE TABLE Item (id INTEGER PRIMARY KEY, email TEXT UNIQUE, name TEXT NOT NULL DEFAULT '', code TEXT);
            INSERT INTO Item VALUES (1, 'ada@example.com', 'Ada', 'a1'), (2, NULL, 'Alan', NULL);
            \(object);
            """)
        let schema =
            "SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE name LIKE '\\_sm\\_new\\_%' ESCAPE '\\' ORDER BY name"
        let before = try db.rows(schema)
        let v1 = FreedPagesOrderTests.v1
        _ = try A.migrator([v1]).baseline(databaseAt: db.url, version: v1.version)
        let migrator = try A.migrator([FreedPagesOrderTests.v1, FreedPagesOrderTests.v2])

        let report = try migrator.plan(databaseAt: db.url)
        #expect(report.refusals.isEmpty)
        let rebuild = try #require(report.stages.first?.steps.first { $0.step.op == .rebuildTable })
        let free = object.contains("_sm_new_Item_2") ? "_sm_new_Item_3" : "_sm_new_Item_2"
        #expect(rebuild.sql.first?.hasPrefix(#"CREATE TABLE "\#(free)" ("#) == true)
        #expect(rebuild.sql.contains(#"ALTER TABLE "\#(free)" RENAME TO "Item""#))

        try migrator.migrate(databaseAt: db.url)
        #expect(try db.recordedVersion() == "2.0.0")
        #expect(try db.rows(schema) == before)
        #expect(
            try db.rows("SELECT id, email, name, code FROM Item ORDER BY id") == [
                ["1", "'ada@example.com'", "'Ada'", "'a1'"], ["2", "NULL", "'Alan'", "NULL"],
            ])
        #expect(try db.scalar("PRAGMA integrity_check")?.stringValue == "ok")
    }
}
