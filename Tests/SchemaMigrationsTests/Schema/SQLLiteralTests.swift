import Testing

@testable import SchemaMigrations

/// A column default is written into the SQL as it is: only one literal may pass.
@Suite struct SQLLiteralTests {
    @Test(arguments: [
        "''", "'it''s'", "'é ü'", "0", "-5", "+2.5", "1e10", "1.5E-3", ".5", "0x1F", "X'00ff'", "x''",
        "NULL", "null", "TRUE", "false", "CURRENT_TIMESTAMP", "current_date",
    ])
    func literalsPass(_ text: String) {
        #expect(SQLLiteral.isLiteral(text))
    }

    @Test(arguments: [
        "", "'", "'a'b'", "'a'); DROP TABLE t; --", "1; DROP TABLE t", "1.2.3", "e5", "1e", "X'0'", "X'zz'",
        "abc", "NULLX", "(1)", "1 + 1", "0x", "--",
    ])
    func anythingElseIsRefused(_ text: String) {
        #expect(!SQLLiteral.isLiteral(text))
    }
}
