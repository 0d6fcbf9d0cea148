/// Recognises the one SQL literal a column default may be, since defaults are written into the
/// SQL as they are: anything else (a second statement, a parenthesis that closes the column
/// list) would run as SQL of its own.
///
/// Related SQLite documentation: <https://www.sqlite.org/lang_createtable.html#the_default_clause>,
/// <https://www.sqlite.org/syntax/literal-value.html>
enum SQLLiteral {
    /// The actions `ON DELETE` accepts.
    static let foreignKeyActions: Set<String> = ["CASCADE", "SET NULL", "SET DEFAULT", "RESTRICT", "NO ACTION"]

    /// True for one literal: a signed number, `0x` hex integer, `'string'` (quotes doubled),
    /// `X'hex'` blob, `NULL`, `TRUE`, `FALSE`, `CURRENT_TIME`, `CURRENT_DATE` or `CURRENT_TIMESTAMP`.
    static func isLiteral(_ text: String) -> Bool {
        let keywords: Set<String> = ["NULL", "TRUE", "FALSE", "CURRENT_TIME", "CURRENT_DATE", "CURRENT_TIMESTAMP"]
        if keywords.contains(text.uppercased()) { return true }
        let chars = Array(text.unicodeScalars)
        guard let first = chars.first else { return false }
        if first == "'" { return isQuoted(chars[...]) }
        if (first == "x" || first == "X"), chars.count >= 3, chars[1] == "'" {
            let hex = chars[2..<(chars.count - 1)]
            return chars.last == "'" && hex.count % 2 == 0 && hex.allSatisfy { $0.properties.isASCIIHexDigit }
        }
        return isNumber(chars[...])
    }

    private static func isQuoted(_ chars: ArraySlice<Unicode.Scalar>) -> Bool {
        guard chars.count >= 2, chars.last == "'" else { return false }
        var inner = chars.dropFirst().dropLast()[...]
        while let index = inner.firstIndex(of: "'") {
            guard inner.index(after: index) < inner.endIndex, inner[inner.index(after: index)] == "'" else { return false }
            inner = inner[(index + 2)...]
        }
        return true
    }

    private static func isNumber(_ chars: ArraySlice<Unicode.Scalar>) -> Bool {
        var rest = chars
        if rest.first == "+" || rest.first == "-" { rest = rest.dropFirst() }
        if rest.count > 2, rest.first == "0", rest.dropFirst().first == "x" || rest.dropFirst().first == "X" {
            return rest.dropFirst(2).allSatisfy { $0.properties.isASCIIHexDigit }
        }
        let digits = { (c: Unicode.Scalar) in ("0"..."9").contains(c) }
        let mantissa = rest.prefix { digits($0) || $0 == "." }
        guard mantissa.filter({ $0 == "." }).count <= 1, mantissa.contains(where: digits) else { return false }
        rest = rest.dropFirst(mantissa.count)
        guard let e = rest.first else { return true }
        guard e == "e" || e == "E" else { return false }
        rest = rest.dropFirst()
        if rest.first == "+" || rest.first == "-" { rest = rest.dropFirst() }
        return !rest.isEmpty && rest.allSatisfy(digits)
    }
}
