/// Recognises the one SQL literal a column default may be, since defaults are written into the
/// SQL as they are: anything else (a second statement, a parenthesis that closes the column
/// list) would run as SQL of its own.
///
/// Related SQLite documentation: <https://www.sqlite.org/lang_createtable.html#the_default_clause>,
/// <https://www.sqlite.org/syntax/literal-value.html>
enum SQLLiteral {
    /// The actions `ON DELETE` accepts.
    static let foreignKeyActions: Set<String> = ["CASCADE", "SET NULL", "SET DEFAULT", "RESTRICT", "NO ACTION"]

    /// The keyword literals.
    static let keywords: Set<String> = ["NULL", "TRUE", "FALSE", "CURRENT_TIME", "CURRENT_DATE", "CURRENT_TIMESTAMP"]

    /// True for one literal: a signed number, `0x` hex integer, `'string'` (quotes doubled),
    /// `X'hex'` blob, `NULL`, `TRUE`, `FALSE`, `CURRENT_TIME`, `CURRENT_DATE` or `CURRENT_TIMESTAMP`.
    ///
    /// Works on UTF-8 bytes (every character the grammar cares about is ASCII): every attribute's
    /// default is checked when a plan is read, 20,000 of them in a large one.
    static func isLiteral(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard let first = bytes.first else { return false }
        let quote = UInt8(ascii: "'")
        if first == quote { return isQuoted(bytes[...]) }
        if first == UInt8(ascii: "x") || first == UInt8(ascii: "X"), bytes.count >= 3, bytes[1] == quote {
            let hex = bytes[2..<(bytes.count - 1)]
            return bytes.last == quote && hex.count % 2 == 0 && hex.allSatisfy(isHexDigit)
        }
        if isLetter(first) { return keywords.contains(text.uppercased()) }
        return isNumber(bytes[...])
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }

    private static func isQuoted(_ bytes: ArraySlice<UInt8>) -> Bool {
        let quote = UInt8(ascii: "'")
        guard bytes.count >= 2, bytes.last == quote else { return false }
        var inner = bytes.dropFirst().dropLast()
        while let index = inner.firstIndex(of: quote) {
            guard inner.index(after: index) < inner.endIndex, inner[inner.index(after: index)] == quote else {
                return false
            }
            inner = inner[(index + 2)...]
        }
        return true
    }

    private static func isNumber(_ bytes: ArraySlice<UInt8>) -> Bool {
        var rest = bytes
        if rest.first == UInt8(ascii: "+") || rest.first == UInt8(ascii: "-") { rest = rest.dropFirst() }
        if rest.count > 2, rest.first == UInt8(ascii: "0"),
            rest.dropFirst().first == UInt8(ascii: "x") || rest.dropFirst().first == UInt8(ascii: "X")
        {
            return rest.dropFirst(2).allSatisfy(isHexDigit)
        }
        let dot = UInt8(ascii: ".")
        let mantissa = rest.prefix { isDigit($0) || $0 == dot }
        guard mantissa.filter({ $0 == dot }).count <= 1, mantissa.contains(where: isDigit) else { return false }
        rest = rest.dropFirst(mantissa.count)
        guard let e = rest.first else { return true }
        guard e == UInt8(ascii: "e") || e == UInt8(ascii: "E") else { return false }
        rest = rest.dropFirst()
        if rest.first == UInt8(ascii: "+") || rest.first == UInt8(ascii: "-") { rest = rest.dropFirst() }
        return !rest.isEmpty && rest.allSatisfy(isDigit)
    }
}
