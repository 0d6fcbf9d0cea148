import Foundation
import Testing

@testable import SchemaMigrations

@Suite struct SQLiteConnectionTests {
    @Test func bindsAndReadsEveryStorageClass() throws {
        let db = try SQLiteConnection(path: ":memory:")
        try db.execute("CREATE TABLE t(a, b, c, d, e)")
        let values: [SQLiteValue] = [
            .null, .integer(Int64.min), .real(-0.5), .text("héllo 'quoted'"), .blob([0, 1, 255]),
        ]
        try db.execute("INSERT INTO t VALUES (?, ?, ?, ?, ?)", values)
        #expect(try db.rows("SELECT * FROM t") == [values])
        #expect(try db.rows("SELECT ?", [.blob([])]) == [[.blob([])]])
    }

    @Test func errorsCarryTheExtendedCodeMessageAndSQL() throws {
        let db = try SQLiteConnection(path: ":memory:")
        try db.execute("CREATE TABLE t(x UNIQUE); INSERT INTO t VALUES (1)")
        let error = try #require(throws: SQLiteError.self) { try db.execute("INSERT INTO t VALUES (1)") }
        #expect(error.resultCode.rawValue == 2067)
        #expect(error.resultCode.primary.rawValue == 19)
        #expect(error.resultCode.description == "SQLITE_CONSTRAINT_UNIQUE")
        #expect(
            error.description
                == "SQLite error 2067 (SQLITE_CONSTRAINT_UNIQUE): UNIQUE constraint failed: t.x - while executing `INSERT INTO t VALUES (1)`"
        )
        let syntax = try #require(throws: SQLiteError.self) { try db.execute("SELEC 1") }
        #expect(syntax.sql == "SELEC 1")
        #expect(syntax.message == "near \"SELEC\": syntax error")
    }

    @Test func transactionsCommitOrRollBackAndSavepointsNest() throws {
        let db = try SQLiteConnection(path: ":memory:")
        try db.execute("CREATE TABLE t(x)")
        struct Failure: Error {}
        #expect(throws: Failure.self) {
            try db.transaction {
                try db.execute("INSERT INTO t VALUES (1)")
                throw Failure()
            }
        }
        #expect(try db.scalar("SELECT count(*) FROM t") == .integer(0))
        try db.transaction {
            try db.execute("INSERT INTO t VALUES (1)")
            #expect(throws: Failure.self) {
                try db.savepoint("inner") {
                    try db.execute("INSERT INTO t VALUES (2)")
                    throw Failure()
                }
            }
        }
        #expect(try db.rows("SELECT x FROM t") == [[.integer(1)]])
        #expect(db.isAutocommit)
    }

    @Test func readOnlyConnectionsCannotWrite() throws {
        let file = TemporaryDatabase()
        try file.execute("CREATE TABLE t(x)")
        let db = try SQLiteConnection(path: file.path, mode: .readOnly)
        #expect(db.isReadOnly)
        let error = try #require(throws: SQLiteError.self) { try db.execute("INSERT INTO t VALUES (1)") }
        #expect(error.resultCode.description == "SQLITE_READONLY")
    }

    @Test func openingAMissingFileWithoutCreateFails() throws {
        let file = TemporaryDatabase()
        let error = try #require(throws: SQLiteError.self) { try SQLiteConnection(path: file.path, mode: .readWrite) }
        #expect(error.resultCode.primary.rawValue == 14)  // SQLITE_CANTOPEN
    }

    @Test func backupCopiesTheWholeDatabase() throws {
        let file = TemporaryDatabase()
        try file.execute("CREATE TABLE t(x); INSERT INTO t VALUES (42)")
        let copy = file.directory.appendingPathComponent("copy.sqlite").path
        try file.connect().backup(toPath: copy)
        #expect(try SQLiteConnection(path: copy).scalar("SELECT x FROM t") == .integer(42))
    }

    @Test func literalsQuoteSafely() {
        #expect(SQLiteValue.text("it's").sqlLiteral == "'it''s'")
        #expect(SQLiteValue.real(3).sqlLiteral == "3.0")
        #expect(SQLiteValue.blob([0x0A, 0xFF]).sqlLiteral == "X'0AFF'")
        #expect(SQL.quoteIdentifier("my \"table\"") == "\"my \"\"table\"\"\"")
    }

    @Test func textIsReadByItsLengthEvenWithANulInside() throws {
        let db = try SQLiteConnection(path: ":memory:")
        #expect(try db.scalar("SELECT 'a' || char(0) || 'b'") == .text("a\u{0}b"))
        #expect(try db.scalar("SELECT ''") == .text(""))
        #expect(try db.scalar("SELECT 'é✓'") == .text("é✓"))
    }
}
