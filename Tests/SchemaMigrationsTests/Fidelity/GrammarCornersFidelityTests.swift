import Foundation
import Testing

@testable import SchemaMigrations

/// Given a table this package created, which the app then rewrote by hand in SQLite's rarer but
/// legal spellings (every quoting style, comments, a constraint name with nothing after it, table
/// constraints without commas, ON CONFLICT on a table CHECK, STRICT, WITHOUT ROWID), when a stage
/// rebuilds it, then SQLite describes every column but the changed one exactly as before.
@Suite struct GrammarCornersFidelityTests {
    typealias F = FidelityFixture
    typealias A = PlanBuilder

    @Test(arguments: [
        "CREATE TABLE \"item\" ( -- the items\n \"id\" INTEGER PRIMARY KEY, [name] TEXT NOT NULL DEFAULT '' /* c */ COLLATE NOCASE, `price` REAL NOT NULL DEFAULT 0.0 CONSTRAINT p CHECK ((price) >= 0), 'note' TEXT, deleted INTEGER NOT NULL DEFAULT 0)",
        "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL DEFAULT '', price REAL NOT NULL DEFAULT 0.0, note TEXT CONSTRAINT dangling, deleted INTEGER NOT NULL DEFAULT 0 CONSTRAINT d2, CHECK (price >= 0) CHECK (price < 1000) ON CONFLICT FAIL CONSTRAINT last)",
        "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL DEFAULT '', price REAL NOT NULL DEFAULT 0.0, note TEXT, deleted INTEGER NOT NULL DEFAULT 0) STRICT",
        "create table item (id integer primary key, name text not null default '', price real not null default 0.0 check (price >= 0), note text, deleted integer not null default 0) without rowid",
    ])
    func aHandRewrittenTableKeepsEveryClauseThroughARebuild(_ table: String) throws {
        let db = TemporaryDatabase()
        let v1 = A.schema(1, [F.item])
        let v2 = A.schema(2, [F.rebuilt()])
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute(F.rows)
        let columns = "id, name, price, note, deleted"
        try db.execute(
            "BEGIN; ALTER TABLE item RENAME TO item_old; \(table); INSERT INTO item (\(columns)) SELECT \(columns) FROM item_old; DROP TABLE item_old; COMMIT;"
        )
        let before = try DefinitionRoundTrip.facts("item", db.connect())

        let result = try A.migrator([v1, v2]).migrate(databaseAt: db.url)

        #expect(result.stages[0].steps.map(\.op) == [.rebuildTable])
        try F.expectRowsIntact(db)
        let after = try DefinitionRoundTrip.facts("item", db.connect())
        #expect(after.columns.filter { $0[0] != "note" } == before.columns.filter { $0[0] != "note" })
        #expect(after.columns.first { $0[0] == "note" }?[2...3] == ["1", "''"])
        #expect(
            after.foreignKeys == before.foreignKeys && after.indexes == before.indexes && after.flags == before.flags)
        // The CHECKs still reject.
        #expect(
            F.rejects(db, "INSERT INTO item (id, name, price) VALUES (10, 'x', -1)")
                == table.uppercased().contains("CHECK"))
        #expect(try db.rows("PRAGMA integrity_check") == [["'ok'"]])
    }
}
