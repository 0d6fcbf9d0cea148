import Testing

@testable import DqliteClient

/// The byte layouts of dqlite's protocol, checked without a cluster.
@Suite("dqlite wire format")
struct WireFormatTests {
    @Test("A request is an 8-byte header (body words, type, schema) and a word-aligned body")
    func requestLayout() {
        let bytes = Request.prepare(database: 0, sql: "SELECT 1").message.encoded
        // body: db id (8 bytes) + "SELECT 1\0" padded to 16 → 3 words
        #expect(Array(bytes[0..<8]) == [3, 0, 0, 0, 4, 0, 0, 0])
        #expect(Array(bytes[16..<32]) == Array("SELECT 1".utf8) + [0, 0, 0, 0, 0, 0, 0, 0])
    }

    @Test("Parameters: count and type bytes padded to a word, then each value in its own encoding")
    func parameterTuple() {
        var writer = WireWriter()
        writer.parameters([.integer(-2), .real(1.5), .text("ab"), .blob([9]), .null])
        let expected: [UInt8] =
            [5, 1, 2, 3, 4, 5, 0, 0]  // count, types
            + [0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]  // -2
            + [0, 0, 0, 0, 0, 0, 0xF8, 0x3F]  // 1.5
            + [0x61, 0x62, 0, 0, 0, 0, 0, 0]  // "ab"
            + [1, 0, 0, 0, 0, 0, 0, 0, 9, 0, 0, 0, 0, 0, 0, 0]  // blob length, bytes
            + [0, 0, 0, 0, 0, 0, 0, 0]  // NULL
        #expect(writer.bytes == expected)
        var none = WireWriter()
        none.parameters([])
        #expect(none.bytes.isEmpty)
    }

    @Test("Rows with more than 16 columns carry a two-word header of 4-bit type codes, and the batch marker ends them")
    func wideRows() throws {
        var body = WireWriter()
        body.uint64(17)
        for column in 0..<17 { body.text("c\(column)") }
        // header: 17 nibbles → 2 words; column 0 text (3), the others integer (1), column 16 NULL (5)
        var header = [UInt8](repeating: 0x11, count: 8) + [UInt8](repeating: 0, count: 8)
        header[0] = 0x13
        header[8] = 0x05
        for byte in header { body.uint8(byte) }
        body.text("first")
        for value in 1...15 { body.int64(Int64(value)) }
        body.uint64(0)
        body.uint64(RowBatch.part)
        let response = try Response(Message(type: 7, schema: 0, body: body.bytes), address: nil)
        guard case .rows(let columns, let rows, let more) = response else {
            Issue.record("not rows: \(response)")
            return
        }
        #expect(columns.count == 17 && columns.last == "c16")
        #expect(rows == [[.text("first")] + (1...15).map { .integer(Int64($0)) } + [.null]])
        #expect(more)
    }

    @Test("A truncated response is a protocol error, not a crash")
    func truncated() {
        var body = WireWriter()
        body.uint64(2)
        body.text("only one column name")
        #expect(throws: DqliteError.self) { try Response(Message(type: 7, schema: 0, body: body.bytes), address: nil) }
    }

    @Test("Only a lost answer to COMMIT or END leaves the outcome unknown")
    func commitOutcome() {
        let lost = DqliteError(code: .connectionClosed, message: "reset")
        #expect(CommitOutcome.classify(lost, sql: "COMMIT").code == .commitOutcomeUnknown)
        #expect(CommitOutcome.classify(lost, sql: " end transaction; ").code == .commitOutcomeUnknown)
        #expect(CommitOutcome.classify(lost, sql: "INSERT INTO t VALUES (1)").code == .connectionClosed)
        let syntax = DqliteError(code: .sqlite, sqliteCode: 1, message: "near COMMITT")
        #expect(CommitOutcome.classify(syntax, sql: "COMMITT").code == .sqlite)
    }
}

@Suite("dqlite failure codes")
struct FailureCodeTests {
    @Test(
        "Failure responses map to codes by SQLite's extended code, keeping the code and message",
        arguments: [
            (10250, DqliteError.Code.notLeader), (10506, .leadershipLost), (5, .busy), (517, .busy),
            (19, .constraint), (2067, .constraint), (1, .sqlite), (522, .sqlite), (100, .wrongStatementKind),
        ])
    func mapping(code: Int, expected: DqliteError.Code) {
        let error = DqliteError.failure(code: UInt64(code), message: "message", address: "127.0.0.1:9001", sql: "SQL")
        #expect(error.code == expected)
        #expect(error.sqliteCode == code)
        #expect(error.message.hasPrefix("message"))
        #expect(error.address == "127.0.0.1:9001" && error.sql == "SQL")
    }
}
