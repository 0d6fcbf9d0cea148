import Foundation
import Testing

@testable import SchemaMigrations

/// Custom code cannot end, commit or step out of the migration's transaction, nor change the
/// pragmas its atomicity depends on: the statement is refused before it runs, the stage fails with
/// a clear error, and the file is as it was, through a connection of the package's own and
/// through a borrowed one (where no authorizer of ours is installed).
@Suite struct TransactionControlTests {
    typealias A = PlanBuilder

    enum Connection: String, CaseIterable { case owned, borrowed }

    /// `Person` at V1 with three rows; V2 adds a column through a custom stage running `code`.
    static func expectRefusal(
        _ connection: Connection, message: String, _ code: @escaping @Sendable (MigrationContext) throws -> Void
    ) throws {
        let db = TemporaryDatabase()
        let v1 = A.schema(1, [PersonFixture.person])
        let v2 = A.schema(
            2, [PersonFixture.person { $0.attributes.append(A.attribute("nickname", .string, optional: true)) }])
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute(PersonFixture.rows)
        let before = try db.bytes()
        let migrator = try A.migrator([v1, v2], kind: .custom, willMigrate: code)
        let error = try #require(throws: MigrationError.self) {
            switch connection {
            case .owned: try migrator.migrate(databaseAt: db.url)
            case .borrowed:
                let app = try db.connect()
                try migrator.migrate(connection: app.handle)
            }
        }
        #expect(error.code == .customStageFailed)
        #expect(error.message.contains(message), "\(error)")
        #expect(error.remedy?.contains("SAVEPOINT with a name of your own") == true)
        #expect(try db.bytes() == before)
        #expect(try db.rows("SELECT count(*) FROM Person") == [["3"]])
        #expect(try db.recordedVersion() == "1.0.0")
    }

    struct Case: CustomStringConvertible, Sendable {
        var sql: String
        var message: String
        var description: String { sql }
    }

    static let refused: [Case] = [
        Case(sql: "COMMIT", message: "may not run COMMIT"),
        Case(sql: "END TRANSACTION", message: "may not run COMMIT"),
        Case(sql: "ROLLBACK", message: "may not run ROLLBACK"),
        Case(sql: "BEGIN", message: "may not run BEGIN"),
        Case(sql: "/* done */ -- really\n commit", message: "may not run COMMIT"),
        Case(sql: "RELEASE schema_migrations_stage", message: "may not run RELEASE on the migration's savepoint"),
        Case(
            sql: "ROLLBACK TRANSACTION TO SAVEPOINT \"schema_migrations_stage\"",
            message: "may not run ROLLBACK TO on the migration's savepoint"),
        Case(sql: "PRAGMA journal_mode = OFF", message: "may not set PRAGMA journal_mode"),
        Case(sql: "PRAGMA main.foreign_keys=ON", message: "may not set PRAGMA foreign_keys"),
        Case(sql: "PRAGMA \"writable_schema\"(1)", message: "may not set PRAGMA writable_schema"),
        Case(sql: "pragma LEGACY_ALTER_TABLE = 1", message: "may not set PRAGMA legacy_alter_table"),
    ]

    @Test(arguments: Connection.allCases, refused)
    func aStatementThatWouldEndOrLoosenTheTransactionIsRefused(connection: Connection, refusal: Case) throws {
        try Self.expectRefusal(connection, message: refusal.message) { context in
            try context.execute("DELETE FROM Person WHERE id = 1")
            try context.execute(refusal.sql)
        }
    }

    struct Undone: Error {}

    /// The reproduction: a COMMIT followed by a throw kept the DELETE.
    @Test(arguments: Connection.allCases)
    func aCommitCaughtByTheCodeStillFailsTheStage(connection: Connection) throws {
        try Self.expectRefusal(connection, message: "may not run COMMIT") { context in
            try context.execute("DELETE FROM Person")
            try? context.execute("COMMIT")
            throw Undone()
        }
    }

    @Test(arguments: Connection.allCases)
    func theCodesOwnSavepointsAndReadingPragmasAreAllowed(connection: Connection) throws {
        let db = TemporaryDatabase()
        let v1 = A.schema(1, [PersonFixture.person])
        let v2 = A.schema(
            2, [PersonFixture.person { $0.attributes.append(A.attribute("nickname", .string, optional: true)) }])
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute(PersonFixture.rows)
        let migrator = try A.migrator(
            [v1, v2], kind: .custom,
            willMigrate: { context in
                try context.execute(
                    "SAVEPOINT mine; DELETE FROM Person WHERE id = 1; ROLLBACK TO mine; DELETE FROM Person WHERE id = 2; RELEASE mine"
                )
                #expect(try context.scalar("PRAGMA foreign_keys")?.int64Value == 0)
                _ = try context.scalar("PRAGMA journal_mode")
            })
        switch connection {
        case .owned: try migrator.migrate(databaseAt: db.url)
        case .borrowed:
            let app = try db.connect()
            try migrator.migrate(connection: app.handle)
        }
        #expect(try db.rows("SELECT id FROM Person ORDER BY id") == [["1"], ["3"]])
        #expect(try db.recordedVersion() == "2.0.0")
    }

    @Test func statementKindsAreReadFromTheirFirstWords() {
        typealias L = CustomCodeLimits
        #expect(L.kind(of: "  -- note\n/* x */ Rollback  to  sp1") == .savepoint(operation: "ROLLBACK", name: "sp1"))
        #expect(L.kind(of: "PRAGMA [main].\"journal_mode\"") == .pragma(name: "journal_mode", setsValue: false))
        #expect(L.kind(of: "PRAGMA journal_mode /* c */ = wal") == .pragma(name: "journal_mode", setsValue: true))
        #expect(L.kind(of: "SELECT 'COMMIT'") == .other)
        #expect(L.kind(of: "EXPLAIN COMMIT") == .other)
        #expect(L.kind(of: "") == .other)
        #expect(L.kind(of: "release savepoint 'sp 2'") == .savepoint(operation: "RELEASE", name: "sp 2"))
        #expect(L.kind(of: "END TRANSACTION") == .transaction("COMMIT"))
        #expect(L.kind(of: "PRAGMA foreign_keys(0)") == .pragma(name: "foreign_keys", setsValue: true))
        #expect(L.kind(of: "PRAGMA foreign_keys == 0") == .pragma(name: "foreign_keys", setsValue: true))
        // Only the first words are read: what SQLite would refuse further on does not hide them.
        #expect(L.kind(of: "COMMIT; SELECT 'unterminated") == .transaction("COMMIT"))
    }
}
