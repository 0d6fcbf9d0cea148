import Foundation
import Testing

@testable import SchemaMigrations

/// Quoted identifiers and string literals round-trip through SQLite whatever they hold: quotes,
/// quotes with combining marks after them (one `Character`, but SQLite reads bytes), emoji,
/// other scripts.
@Suite struct SQLQuotingTests {
    @Test func aQuoteFollowedByACombiningMarkIsDoubled() throws {
        #expect(SQL.quoteIdentifier("a\"\u{301}b") == "\"a\"\"\u{301}b\"")
        #expect(SQL.quoteString("it'\u{308}s") == "'it''\u{308}s'")
        let db = try SQLiteConnection(path: ":memory:")
        let name = "x\"\u{301}; DROP TABLE keep; --"
        try db.execute("CREATE TABLE keep (v); CREATE TABLE \(SQL.quoteIdentifier(name)) (v)")
        #expect(
            try db.rows("SELECT name FROM sqlite_schema ORDER BY rowid").map { $0[0].stringValue } == ["keep", name])
    }

    /// SplitMix64: the same cases on every run, so a failure can be replayed.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let pieces: [String] = [
        "\"", "'", "\u{301}", "\u{308}", "\u{20DD}", "a", "Z", " ", ";", "--", "/*", "*/", ")", "(", "[", "]", "`",
        "é", "e\u{301}", "👩‍👩‍👧", "🇫🇷", "ß", "ﬁ", "İ", "\u{200D}", "\u{FEFF}", "\\", "\n", "\t", "表", "%", "?", "$1", ":x",
    ]

    @Test func randomNamesAndValuesRoundTrip() throws {
        var random = Generator(state: 0x5EED)
        let db = try SQLiteConnection(path: ":memory:")
        var names = Set<String>()
        for round in 0..<400 {
            var name = "t\(round)"
            for _ in 0..<Int.random(in: 1...8, using: &random) { name += Self.pieces.randomElement(using: &random)! }
            var value = ""
            for _ in 0..<Int.random(in: 0...10, using: &random) { value += Self.pieces.randomElement(using: &random)! }
            guard names.insert(name.lowercased()).inserted else { continue }
            let table = SQL.quoteIdentifier(name)
            let column = SQL.quoteIdentifier(name + "c")
            try db.execute(
                "CREATE TABLE \(table) (\(column) TEXT DEFAULT \(SQL.quoteString(value))); INSERT INTO \(table) DEFAULT VALUES"
            )
            #expect(
                try db.scalar("SELECT \(column) FROM \(table)")?.stringValue == value,
                "\(name.unicodeScalars.map { String($0.value, radix: 16) })")
            #expect(
                try db.scalar("SELECT name FROM pragma_table_info(\(SQL.quoteString(name)))")?.stringValue == name + "c"
            )
            #expect(try db.scalar("SELECT count(*) FROM sqlite_schema")?.int64Value == Int64(names.count))
        }
    }
}
