import Foundation
import Testing

@testable import SchemaMigrations

/// A connection handed to `migrate(connection:)` whose journal cannot roll back is refused before
/// anything runs: a failing custom stage would otherwise leave a half-written (even corrupt) file.
@Suite struct JournalModeTests {
    typealias A = PlanBuilder

    static let v1 = A.schema(1, [PersonFixture.person])
    static let v2 = A.schema(
        2, [PersonFixture.person { $0.attributes.append(A.attribute("nickname", .string, optional: true)) }])

    struct Failed: Error {}

    /// A custom stage that writes a lot, then throws.
    static func failingMigrator() throws -> Migrator {
        try A.migrator(
            [v1, v2], kind: .custom,
            willMigrate: { context in
                try context.execute(
                    "WITH RECURSIVE n(i) AS (SELECT 10 UNION ALL SELECT i + 1 FROM n WHERE i < 5000) INSERT INTO Person (id, name, email) SELECT i, printf('p%d', i), hex(randomblob(200)) FROM n"
                )
                throw Failed()
            })
    }

    @Test(arguments: ["OFF", "MEMORY"])
    func aConnectionWhoseJournalCannotRollBackIsRefused(mode: String) throws {
        let db = TemporaryDatabase()
        try A.migrator([Self.v1]).migrate(databaseAt: db.url)
        try db.execute(PersonFixture.rows)
        let before = try db.bytes()
        let app = try db.connect()
        try app.execute("PRAGMA cache_size = 2; PRAGMA journal_mode = \(mode)")
        let error = try #require(throws: MigrationError.self) {
            try Self.failingMigrator().migrate(connection: app.handle)
        }
        #expect(error.code == .unsafeConnection)
        #expect(error.message.contains("journal_mode is \(mode)"))
        #expect(error.remedy?.contains("PRAGMA journal_mode = DELETE") == true)
        #expect(try db.bytes() == before)
        #expect(try app.scalar("PRAGMA integrity_check")?.stringValue == "ok")

        // With a journal that can roll back, the same failure leaves the file as it was.
        try app.execute("PRAGMA journal_mode = DELETE")
        #expect(throws: MigrationError.self) { try Self.failingMigrator().migrate(connection: app.handle) }
        #expect(try db.bytes() == before)
        try A.migrator([Self.v1, Self.v2]).migrate(connection: app.handle)
        #expect(try db.recordedVersion() == "2.0.0")
    }

    @Test func anInMemoryDatabaseIsMigrated() throws {
        let app = try SQLiteConnection(path: ":memory:")
        try A.migrator([Self.v1, Self.v2]).migrate(connection: app.handle)
        #expect(try app.rows("SELECT name FROM pragma_table_info('Person') WHERE name = 'nickname'").count == 1)
    }
}
