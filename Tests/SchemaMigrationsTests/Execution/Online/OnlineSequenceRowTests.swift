import Foundation
import Testing

@testable import SchemaMigrations

/// `sqlite_sequence` is writable: an application may keep a counter row for a table without
/// AUTOINCREMENT. An online rebuild of that table leaves the row under the table's name, as an
/// offline rebuild does, never under the name the old table was set aside as.
@Suite struct OnlineSequenceRowTests {
    typealias A = PlanBuilder

    static let item = Schema.Entity(name: "Item", attributes: [A.attribute("name", .string, default: "''")])
    static let v1 = A.schema(1, [item])
    static let v2 = A.schema(
        2,
        [
            {
                var entity = item
                entity.indexes = [Schema.Index(["name"], name: "Item_name")]
                return entity
            }()
        ])

    static func makeV1(_ url: URL) throws {
        try A.migrator([v1]).migrate(databaseAt: url)
        let db = try SQLiteConnection(path: url.path)
        try db.execute(
            """
            CREATE TABLE counters (id INTEGER PRIMARY KEY AUTOINCREMENT, label TEXT);
            INSERT INTO counters (label) VALUES ('x');
            INSERT INTO sqlite_sequence (name, seq) VALUES ('Item', 500);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300)
            INSERT INTO Item (id, name) SELECT i, 'item ' || i FROM n;
            """)
    }

    @Test(arguments: [true, false])
    func theApplicationsCounterRowKeepsItsTableName(online: Bool) throws {
        let database = TemporaryDatabase()
        try Self.makeV1(database.url)
        var options = MigrationOptions()
        if online { options.online = OnlineRebuildOptions(chunkTargetMilliseconds: 1) }
        let report = try A.migrator([Self.v1, Self.v2], options: options).plan(databaseAt: database.url)
        if online { #expect(report.online?.stages.first?.runsOnline == true) }
        try A.migrator([Self.v1, Self.v2], options: options).migrate(databaseAt: database.url)
        #expect(
            try database.rows("SELECT name, seq FROM sqlite_sequence ORDER BY name")
                == [["'Item'", "500"], ["'counters'", "1"]])
        #expect(try database.rows("PRAGMA integrity_check") == [["'ok'"]])
    }
}
