import CSQLite
import Foundation
import Testing

@testable import SchemaMigrations

/// A rebuild keeps what `ANALYZE` stored about the table (`sqlite_stat1`): the rows of each index
/// kept as it was, over columns copied unchanged, and of the table; an index over a converted
/// column loses its row (none is better than a wrong one). `DROP TABLE` used to delete them all,
/// so SQLite's planner chose without statistics until the app ran `ANALYZE` again.
@Suite struct StatisticsKeptTests {
    typealias A = PlanBuilder

    static let v1 = A.schema(
        1,
        [
            Schema.Entity(
                name: "Item",
                attributes: [
                    A.attribute("name", .string), A.attribute("rank", .integer), A.attribute("note", .string),
                ],
                indexes: [Schema.Index(["name"]), Schema.Index(["rank"])]),
            Schema.Entity(name: "Plain", attributes: [A.attribute("body", .string), A.attribute("size", .integer)]),
        ])
    /// `rank` becomes REAL (its values are converted), `note` gets a default: both tables rebuilt.
    static let v2 = A.schema(
        2,
        [
            Schema.Entity(
                name: "Item",
                attributes: [
                    A.attribute("name", .string), A.attribute("rank", .double),
                    A.attribute("note", .string, default: "''"),
                ],
                indexes: [Schema.Index(["name"]), Schema.Index(["rank"])]),
            Schema.Entity(name: "Plain", attributes: [A.attribute("body", .string), A.attribute("size", .double)]),
        ])

    /// With `secure_delete` on, the old indexes are dropped before the copy (``FreedPages``), and
    /// DROP INDEX deletes an index's statistics too; with it off, DROP TABLE deletes them.
    @Test(arguments: ["ON", "OFF"])
    func aRebuildKeepsTheStatisticsOfWhatItKeepsAsItWas(secureDelete: String) throws {
        let db = TemporaryDatabase()
        try A.migrator([Self.v1]).migrate(databaseAt: db.url)
        try db.execute(
            """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200)
            INSERT INTO Item (name, rank, note) SELECT 'item ' || (i % 50), i % 7, '' FROM n;
            INSERT INTO Plain (body, size) VALUES ('a', 1), ('b', 2), ('c', 3);
            ANALYZE;
            """)
        let statistics = "SELECT tbl, idx, stat FROM sqlite_stat1 WHERE tbl IN ('Item', 'Plain') ORDER BY tbl, idx"
        let before = try db.rows(statistics)
        #expect(
            before == [
                ["'Item'", "'Item_name'", "'200 4'"], ["'Item'", "'Item_rank'", "'200 29'"],
                ["'Plain'", "NULL", "'3'"],
            ])
        let environment = SQLEnvironment(prepareConnection: { handle in
            guard sqlite3_exec(handle, "PRAGMA secure_delete = \(secureDelete)", nil, nil, nil) == SQLITE_OK else {
                throw SQLiteError(extendedCode: sqlite3_extended_errcode(handle), message: "PRAGMA secure_delete")
            }
        })
        let migrator = try A.migrator([Self.v1, Self.v2], options: MigrationOptions(sqlEnvironment: environment))
        let report = try migrator.plan(databaseAt: db.url)
        let shown = report.stages.flatMap { $0.steps.flatMap(\.sql) }
        #expect(
            shown.contains(
                #"UPDATE "sqlite_stat1" SET tbl = '_sm_new_Item', idx = '_sm_new_Item.' || idx WHERE tbl = 'Item' AND (idx IS NULL OR idx IN ('Item_name'))"#
            ), "the dry run shows it: \(shown)")
        try migrator.migrate(databaseAt: db.url)
        let after = try db.rows(statistics)
        #expect(
            after == [["'Item'", "'Item_name'", "'200 4'"], ["'Plain'", "NULL", "'3'"]],
            "Item_rank's row went with the converted column; shown: \(shown)")
        #expect(try db.scalar("PRAGMA integrity_check")?.stringValue == "ok")
    }
}
