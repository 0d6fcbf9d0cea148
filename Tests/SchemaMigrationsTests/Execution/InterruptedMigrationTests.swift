import Foundation
import Testing

@testable import SchemaMigrations

/// After an interrupted write (a hot journal beside the file), the read-only entry points say
/// what happened and what to run, without touching the file or its journal; `migrate` restores
/// the database and migrates.
@Suite struct InterruptedMigrationTests {
    typealias A = PlanBuilder

    /// A V1 database with three people, caught in the middle of a large write: the file and its
    /// journal copied while the transaction is open, as a power cut or SIGKILL would leave them.
    static func interrupted() throws -> TemporaryDatabase {
        let source = try DryRunReportTests.populated()
        let db = TemporaryDatabase()
        let writer = try source.connect()
        try writer.execute(
            """
            PRAGMA cache_size = 2; BEGIN IMMEDIATE;
            DELETE FROM Person WHERE id = 1;
            WITH RECURSIVE n(i) AS (SELECT 10 UNION ALL SELECT i + 1 FROM n WHERE i < 3000) INSERT INTO Person (id, name) SELECT i, hex(randomblob(100)) FROM n;
            """)
        try FileManager.default.copyItem(at: source.url, to: db.url)
        try FileManager.default.copyItem(atPath: source.path + "-journal", toPath: db.path + "-journal")
        try writer.execute("ROLLBACK")
        return db
    }

    @Test(arguments: EntryPointTests.EntryPoint.allCases.filter { $0 != .migrate })
    func theReadOnlyEntryPointsSayAMigrationWasInterrupted(entryPoint: EntryPointTests.EntryPoint) throws {
        let db = try Self.interrupted()
        let before = try db.bytes()
        let journal = try Data(contentsOf: URL(fileURLWithPath: db.path + "-journal"))
        let error = try #require(throws: MigrationError.self) {
            try entryPoint.call(try A.migrator(EntryPointTests.schemas), db.url)
        }
        #expect(error.code == .interruptedMigration)
        #expect(error.message.contains("was interrupted"))
        #expect(error.remedy?.contains("run `migrate apply`") == true)
        #expect(try db.bytes() == before)
        #expect(try Data(contentsOf: URL(fileURLWithPath: db.path + "-journal")) == journal)
    }

    @Test func migrateRestoresTheDatabaseThenMigrates() throws {
        let db = try Self.interrupted()
        try A.migrator(EntryPointTests.schemas).migrate(databaseAt: db.url)
        #expect(
            try db.rows("SELECT id, name FROM Person ORDER BY id") == [
                ["1", "'Ada'"], ["2", "'Alan'"], ["3", "'Grace'"],
            ])
        #expect(try db.recordedVersion() == "2.0.0")
    }
}
