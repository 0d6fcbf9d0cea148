import Foundation
import Testing

@testable import SchemaMigrations

/// The foreign key check after a stage, on a connection whose statements run on a server (a dqlite
/// leader): such a connection receives every row a statement returns, so whether a table has a
/// row pointing at a missing parent must be asked so that the answer is one row, not every one of
/// thousands.
@Suite struct ForeignKeyCheckOverServerTests {
    /// A connection that gathers every row of each statement, as the cluster's does, and counts them.
    final class GatheringConnection: SQLQuerying {
        let local: SQLiteConnection
        private(set) var mostRowsReceived = 0
        init(_ local: SQLiteConnection) { self.local = local }
        var path: String { local.path }
        func execute(_ sql: String) throws { try local.execute(sql) }
        func execute(_ sql: String, _ arguments: [SQLiteValue]) throws { try local.execute(sql, arguments) }
        func rows(_ sql: String, _ arguments: [SQLiteValue]) throws -> [[SQLiteValue]] {
            let rows = try local.rows(sql, arguments)
            mostRowsReceived = max(mostRowsReceived, rows.count)
            return rows
        }
    }

    @Test func aTableWithThousandsOfOrphansIsAnsweredWithOneRow() throws {
        let (db, _) = try ForeignKeyToleranceAtScaleTests.populated()
        let server = GatheringConnection(try db.connect())
        #expect(try ForeignKeyGuard.anyViolation(in: ["Owner", "Pet"], db: server))
        #expect(server.mostRowsReceived == 1)
        // The table really has them all, and the fixture's own orphan: the same check, gathered whole.
        #expect(
            try server.rows("PRAGMA foreign_key_check(Pet)", []).count == ForeignKeyToleranceAtScaleTests.oldOrphans + 1
        )
    }

    @Test func tablesWithoutOrphansAreAnsweredWithNoRow() throws {
        let (db, _) = try ForeignKeyToleranceAtScaleTests.populated()
        try db.execute("DELETE FROM Pet WHERE rowid IN (SELECT rowid FROM pragma_foreign_key_check)")
        #expect(try db.rows("SELECT count(*) FROM pragma_foreign_key_check") == [["0"]])
        let server = GatheringConnection(try db.connect())
        #expect(try !ForeignKeyGuard.anyViolation(in: ["Owner", "Pet"], db: server))
        #expect(server.mostRowsReceived == 0)
    }

    @Test func aTableNamedWithQuotesAndAKeywordIsCheckedByItsName() throws {
        let db = TemporaryDatabase()
        try db.execute(
            """
            CREATE TABLE "Or""der" (id INTEGER PRIMARY KEY);
            CREATE TABLE "select" (id INTEGER PRIMARY KEY, o INTEGER REFERENCES "Or""der"(id));
            INSERT INTO "select" VALUES (1, 7), (2, 8);
            """)
        let server = GatheringConnection(try db.connect())
        #expect(try ForeignKeyGuard.anyViolation(in: ["select"], db: server))
        #expect(try !ForeignKeyGuard.anyViolation(in: ["Or\"der"], db: server))
        #expect(server.mostRowsReceived == 1)
    }
}
