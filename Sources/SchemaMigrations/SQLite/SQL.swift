/// Helpers that write SQL text safely: quoted identifiers and string literals.
///
/// Written with the standard library alone: Foundation's `replacingOccurrences` costs a
/// microsecond a call on Linux, which a custom stage updating a million rows pays a million times.
public enum SQL {
    /// `name` quoted as an SQL identifier: `"my ""table"""`.
    public static func quoteIdentifier(_ name: String) -> String {
        quote(name, with: UInt8(ascii: "\""))
    }

    /// The first of the names SQLite reads as a rowid table's rowid (`rowid`, `oid`, `_rowid_`)
    /// that no column takes (`isColumn` says; a column of that name hides the rowid); nil when
    /// columns take all three.
    static func freeRowidName(isColumn: (String) -> Bool) -> String? {
        ["rowid", "oid", "_rowid_"].first { !isColumn($0) }
    }

    /// `text` quoted as an SQL string literal: `'it''s'`.
    public static func quoteString(_ text: String) -> String {
        quote(text, with: UInt8(ascii: "'"))
    }

    /// Doubles every `mark` byte. By UTF-8 bytes, not `Character`s: a quote followed by a
    /// combining mark (U+0301) is one `Character` that is not equal to the quote, yet SQLite,
    /// which reads bytes, sees the quote and would end the identifier there.
    private static func quote(_ text: String, with mark: UInt8) -> String {
        let quote = String(UnicodeScalar(mark))
        guard text.utf8.contains(mark) else { return quote + text + quote }
        var bytes: [UInt8] = [mark]
        bytes.reserveCapacity(text.utf8.count + 4)
        for byte in text.utf8 {
            if byte == mark { bytes.append(mark) }
            bytes.append(byte)
        }
        bytes.append(mark)
        return String(decoding: bytes, as: UTF8.self)
    }
}
