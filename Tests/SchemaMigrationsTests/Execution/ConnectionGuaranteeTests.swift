import CSQLite
import Foundation
import Testing

@testable import SchemaMigrations

/// What the application's SQL environment does to the migration's own connections (its
/// `prepareConnection` hook, its extensions) cannot break the migration's guarantees: a setting
/// the migration relies on is refused before any write, or set aside for the migration and
/// restored, on a file the library opens as on a lent connection; the dry run says the same.
@Suite struct ConnectionGuaranteeTests {
    typealias A = PlanBuilder

    static func options(_ hook: @escaping @Sendable (OpaquePointer) throws -> Void) -> MigrationOptions {
        MigrationOptions(sqlEnvironment: SQLEnvironment(prepareConnection: hook))
    }

    @Test(arguments: ["OFF", "MEMORY"])
    func aHookThatTurnsTheJournalOffIsRefusedBeforeAnyWriteAndByTheDryRun(mode: String) throws {
        let db = TemporaryDatabase()
        try A.migrator([JournalModeTests.v1]).migrate(databaseAt: db.url)
        try db.execute(PersonFixture.rows)
        let before = try db.bytes()
        let options = Self.options { handle in
            sqlite3_exec(handle, "PRAGMA cache_size = 2; PRAGMA journal_mode = \(mode)", nil, nil, nil)
        }
        let migrator = try A.migrator(
            [JournalModeTests.v1, JournalModeTests.v2], kind: .custom,
            willMigrate: { context in
                try context.execute(
                    "WITH RECURSIVE n(i) AS (SELECT 10 UNION ALL SELECT i + 1 FROM n WHERE i < 5000) INSERT INTO Person (id, name, email) SELECT i, printf('p%d', i), hex(randomblob(200)) FROM n"
                )
                throw JournalModeTests.Failed()
            }, options: options)
        let error = try #require(throws: MigrationError.self) { try migrator.migrate(databaseAt: db.url) }
        #expect(error.code == .unsafeConnection)
        #expect(
            error.message
                == "the connection's journal_mode is \(mode): a failed migration could not be rolled back and might corrupt the file; nothing was done"
        )
        #expect(error.remedy?.hasPrefix("take journal_mode = \(mode) out of the SQL environment") == true)
        #expect(try db.bytes() == before)
        let report = try migrator.plan(databaseAt: db.url)
        #expect(report.refusals.map(\.message) == [error.message])
        #expect(try db.bytes() == before)
    }

    /// Defensive mode forbids the `writable_schema` edits an online cut-over makes: the online
    /// change turns it off on its own connection for its phases, and on again after.
    @Test func anOnlineChangeRunsOnAConnectionInDefensiveModeAndLeavesItSo() throws {
        let db = TemporaryDatabase()
        try OnlineRebuildTests.makeV1(db.url, rows: 2_000)
        var options = Self.options { handle in
            var value: Int32 = 0
            _ = schemamigrations_db_config_int(handle, SQLITE_DBCONFIG_DEFENSIVE, 1, &value)
        }
        options.online = OnlineRebuildOptions(chunkTargetMilliseconds: 1)
        let events = EventLog()
        options.progress = { events.append($0) }
        try A.migrator([OnlineRebuildTests.v1, OnlineRebuildTests.v2], options: options).migrate(databaseAt: db.url)
        #expect(events.activities.contains(.cuttingOver))
        #expect(try db.recordedVersion() == "2.0.0")
        #expect(try db.rows("SELECT count(*) FROM Person") == [["2000"]])
        #expect(try db.rows("SELECT name FROM sqlite_schema WHERE name LIKE '_sm_%'").isEmpty)

        // A lent connection in defensive mode is migrated too, and given back in defensive mode.
        let other = TemporaryDatabase()
        try OnlineRebuildTests.makeV1(other.url, rows: 500)
        let app = try other.connect()
        var value: Int32 = 0
        _ = schemamigrations_db_config_int(app.handle, SQLITE_DBCONFIG_DEFENSIVE, 1, &value)
        var lent = MigrationOptions()
        lent.online = OnlineRebuildOptions(chunkTargetMilliseconds: 1)
        try A.migrator([OnlineRebuildTests.v1, OnlineRebuildTests.v2], options: lent).migrate(connection: app.handle)
        #expect(try other.recordedVersion() == "2.0.0")
        #expect(app.isDefensive)
    }
}
