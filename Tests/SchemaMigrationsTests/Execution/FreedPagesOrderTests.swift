import CSQLite
import Foundation
import Testing

@testable import SchemaMigrations

/// With `PRAGMA secure_delete` on (Debian's and Ubuntu's libsqlite3 are built so), a rebuild drops
/// the old table's own indexes before its copy, so the copy writes into their erased pages instead
/// of growing the file; with it off or `FAST`, the procedure's order stands. Either way the dry run
/// shows the statements the migration runs, and the table ends with every index, row and key as
/// the database had them.
@Suite struct FreedPagesOrderTests {
    typealias A = PlanBuilder

    static let v1 = A.schema(
        1,
        [
            Schema.Entity(
                name: "Item",
                attributes: [
                    A.attribute("email", .string, optional: true), A.attribute("name", .string, default: "''"),
                    A.attribute("code", .string, optional: true),
                ])
        ])
    /// `name` becomes optional: a rebuild.
    static let v2 = A.schema(
        2,
        [
            Schema.Entity(
                name: "Item",
                attributes: [
                    A.attribute("email", .string, optional: true), A.attribute("name", .string, optional: true),
                    A.attribute("code", .string, optional: true),
                ])
        ])

    /// Made as the sqlite3 shell makes it: a UNIQUE constraint's index (it goes only with its
    /// table), and indexes under a keyword, under quote and glob characters, on an expression with
    /// a WHERE, and one named like the rebuild's own new table.
    static let indexes = [
        #"CREATE INDEX "order" ON Item (name COLLATE NOCASE)"#,
        #"CREATE INDEX "it's ""odd"" [*?]" ON Item (code DESC, name)"#,
        "CREATE INDEX item_lower ON Item (lower(email)) WHERE email IS NOT NULL",
        #"CREATE INDEX "_sm_new_Item_x" ON Item (code)"#,
    ]

    static func database(rows: Int = 2_000) throws -> TemporaryDatabase {
        let db = TemporaryDatabase()
        try db.execute(
            """
            CREATE TABLE Item (id INTEGER PRIMARY KEY, email TEXT UNIQUE, name TEXT NOT NULL DEFAULT '', code TEXT);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(rows))
            INSERT INTO Item (id, email, name, code) SELECT i, 'person' || i || '@example.com', printf('%040d', i * 7919 % \(rows)), hex(i * 31) FROM n;
            \(indexes.joined(separator: ";\n"));
            """)
        _ = try A.migrator([v1]).baseline(databaseAt: db.url, version: v1.version)
        return db
    }

    /// The migrator, its every connection set to `PRAGMA secure_delete = mode` (`ON`, `OFF`, `FAST`).
    static func migrator(secureDelete mode: String, didMigrate: (@Sendable (MigrationContext) throws -> Void)? = nil)
        throws -> Migrator
    {
        let environment = SQLEnvironment(prepareConnection: { handle in
            guard sqlite3_exec(handle, "PRAGMA secure_delete = \(mode)", nil, nil, nil) == SQLITE_OK else {
                throw SQLiteError(extendedCode: sqlite3_extended_errcode(handle), message: "PRAGMA secure_delete")
            }
        })
        return try A.migrator(
            [v1, v2], kind: didMigrate == nil ? .lightweight : .custom, didMigrate: didMigrate,
            options: MigrationOptions(sqlEnvironment: environment))
    }

    static func indexRows(_ db: TemporaryDatabase) throws -> [[String]] {
        try db.rows("SELECT name, tbl_name, sql FROM sqlite_schema WHERE type = 'index' ORDER BY name")
    }

    static func itemRows(_ db: TemporaryDatabase) throws -> [[String]] {
        try db.rows("SELECT id, email, name, code FROM Item ORDER BY id")
    }

    /// The `DROP INDEX` of each index made by `CREATE INDEX`, in the order the rebuild makes them again.
    static let drops = [
        #"DROP INDEX "_sm_new_Item_x""#, #"DROP INDEX "item_lower""#, #"DROP INDEX "it's ""odd"" [*?]""#,
        #"DROP INDEX "order""#,
    ]

    @Test(
        "The old indexes are dropped before the copy exactly when the connection erases freed pages",
        arguments: [("OFF", false), ("ON", true), ("FAST", false)])
    func theDryRunAndTheMigrationDropTheOldIndexesFirstOnlyUnderSecureDelete(mode: String, dropsFirst: Bool)
        throws
    {
        let db = try Self.database()
        let indexesBefore = try Self.indexRows(db)
        let rowsBefore = try Self.itemRows(db)
        let migrator = try Self.migrator(secureDelete: mode)

        let report = try migrator.plan(databaseAt: db.url)
        let rebuild = try #require(report.stages.first?.steps.first { $0.step.op == .rebuildTable })
        let copy = try #require(rebuild.sql.firstIndex { $0.hasPrefix("INSERT OR ABORT INTO") })
        #expect(rebuild.sql[0].hasPrefix("CREATE TABLE"))
        #expect(Array(rebuild.sql[1..<copy]) == (dropsFirst ? Self.drops : []))
        #expect(!rebuild.sql.contains { $0.contains("sqlite_autoindex") })

        // The migration, on a connection set the same way, runs what the dry run showed.
        let connection = try db.connect()
        try connection.execute("PRAGMA secure_delete = \(mode)")
        let recorder = StatementRecorder()
        connection.startRecording(into: recorder)
        try A.migrator([Self.v1, Self.v2]).migrate(using: connection)
        connection.stopRecording()
        let ran = recorder.entries.compactMap { entry -> String? in
            guard case .statement(let sql, _) = entry else { return nil }
            return sql
        }
        let start = try #require(ran.firstIndex(of: rebuild.sql[0]))
        #expect(Array(ran[start..<start + rebuild.sql.count]) == rebuild.sql)

        #expect(try db.recordedVersion() == "2.0.0")
        #expect(try Self.indexRows(db) == indexesBefore)
        #expect(try Self.itemRows(db) == rowsBefore)
        #expect(try db.scalar("PRAGMA integrity_check")?.stringValue == "ok")
        #expect(throws: SQLiteError.self) {
            try db.execute("INSERT INTO Item (email) VALUES ('person1@example.com')")
        }
        #expect(try migrator.verify(databaseAt: db.url).isUpToDate)
    }

    @Test func underSecureDeleteTheRebuiltTableTakesTheOldIndexesPagesInsteadOfGrowingTheFile() throws {
        var pages: [String: Int64] = [:]
        for mode in ["OFF", "ON"] {
            let db = try Self.database(rows: 5_000)
            let before = try #require(try db.scalar("PRAGMA page_count")?.int64Value)
            try Self.migrator(secureDelete: mode).migrate(databaseAt: db.url)
            pages[mode] = try #require(try db.scalar("PRAGMA page_count")?.int64Value) - before
        }
        // Off, the copy appends the new table after the old one; on, it fills the old indexes' pages first.
        #expect(try #require(pages["ON"]) < (try #require(pages["OFF"])))
    }

    @Test func aStageThatThrowsAfterTheIndexesWereDroppedLeavesTheFileAsItWas() throws {
        let db = try Self.database()
        let before = try db.bytes()
        struct Refused: Error {}
        let error = try #require(throws: MigrationError.self) {
            try Self.migrator(secureDelete: "ON", didMigrate: { _ in throw Refused() }).migrate(databaseAt: db.url)
        }
        #expect(error.code == .customStageFailed)
        #expect(try db.bytes() == before)
        #expect(try db.recordedVersion() == "1.0.0")
    }
}
