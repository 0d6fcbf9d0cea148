import Foundation
import Testing

@testable import SchemaMigrations

/// `SQL.statements(in:)`, which the dqlite connection uses to send custom code's multi-statement
/// SQL one request at a time: SQLite decides where each statement ends.
@Suite struct SQLStatementSplittingTests {
    @Test("Semicolons inside strings, quoted names, comments and a trigger's body do not end a statement")
    func semicolonsThatDoNotEndAStatement() {
        let sql = """
            INSERT INTO t VALUES ('a;b');  -- a comment; with a semicolon
            CREATE TABLE "x;y" (v);
            /* block; comment */ CREATE TRIGGER t_ai AFTER INSERT ON t BEGIN
                UPDATE t SET v = v || ';' WHERE rowid = new.rowid;
                DELETE FROM "x;y";
            END;
            SELECT 1
            """
        let statements = SQL.statements(in: sql)
        #expect(statements.count == 4)
        #expect(statements[0] == "INSERT INTO t VALUES ('a;b');")
        #expect(statements[1].hasPrefix("-- a comment; with a semicolon\nCREATE TABLE \"x;y\" (v);"))
        #expect(statements[2].hasPrefix("/* block; comment */ CREATE TRIGGER") && statements[2].hasSuffix("END;"))
        #expect(statements[3] == "SELECT 1")
    }

    @Test("No statement: empty, spaces, lone semicolons and comments alone give nothing to send")
    func nothingToSend() {
        for sql in ["", "  \n", ";", " ; ;", "-- only a comment", "/* c */ ;"] {
            #expect(SQL.statements(in: sql).isEmpty, "\(sql)")
        }
        #expect(SQL.statements(in: "UPDATE t SET v = 1") == ["UPDATE t SET v = 1"])
    }

    @Test("Each piece runs alone in SQLite with the same effect as the whole text")
    func piecesRunLikeTheWhole() throws {
        let sql = """
            CREATE TABLE t (v TEXT); CREATE TABLE log (v TEXT);
            CREATE TRIGGER t_ai AFTER INSERT ON t BEGIN INSERT INTO log VALUES (new.v || ';'); END;
            INSERT INTO t VALUES ('one;'), ('two');  INSERT INTO t VALUES ('three') ;
            """
        let whole = try SQLiteConnection(path: ":memory:")
        let pieces = try SQLiteConnection(path: ":memory:")
        try whole.execute(sql)
        for statement in SQL.statements(in: sql) { try pieces.execute(statement) }
        for table in ["t", "log"] {
            #expect(
                try whole.rows("SELECT v FROM \(table) ORDER BY rowid")
                    == pieces.rows("SELECT v FROM \(table) ORDER BY rowid"))
        }
        #expect(
            try pieces.rows("SELECT v FROM log ORDER BY rowid").map { $0[0] } == [
                .text("one;;"), .text("two;"), .text("three;"),
            ])
    }
}
