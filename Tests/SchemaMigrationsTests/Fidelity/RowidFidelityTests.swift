import Foundation
import Testing

@testable import SchemaMigrations

/// Given a hand-made table whose `id INTEGER PRIMARY KEY DESC` is, by SQLite's old quirk, not an
/// alias of the rowid (<https://www.sqlite.org/lang_createtable.html#rowid>), when a stage rebuilds
/// it, then every row keeps its rowid, as it would for any other table without an alias.
@Suite struct RowidFidelityTests {
    typealias F = FidelityFixture
    typealias A = PlanBuilder

    @Test(arguments: [
        ("INTEGER PRIMARY KEY DESC", ["10", "20", "30"]), ("INTEGER PRIMARY KEY", ["1", "2", "3"]),
        ("\"INTEGER\" PRIMARY KEY", ["1", "2", "3"]),
    ])
    func rowidsSurviveARebuild(_ key: String, _ rowids: [String]) throws {
        let db = TemporaryDatabase()
        try db.execute(
            """
            CREATE TABLE item (id \(key), name TEXT NOT NULL DEFAULT '', price REAL NOT NULL DEFAULT 0.0, note TEXT, deleted INTEGER NOT NULL DEFAULT 0);
            INSERT INTO item (rowid, id, name, price, note, deleted) VALUES (10, 1, 'Swift', 1.5, 'a', 0), (20, 2, 'Rust', 2.5, NULL, 0), (30, 3, 'Go', 0, 'c', 1);
            """)
        #expect(try db.rows("SELECT rowid FROM item ORDER BY id").map { $0[0] } == rowids)

        try A.migrator([A.schema(1, [F.item]), A.schema(2, [F.rebuilt()])]).migrate(databaseAt: db.url)

        try F.expectRowsIntact(db)
        #expect(try db.rows("SELECT rowid FROM item ORDER BY id").map { $0[0] } == rowids)
    }
}
