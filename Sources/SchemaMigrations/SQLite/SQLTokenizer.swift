/// Splits SQL text into tokens as SQLite's own tokenizer does: identifiers bare or quoted in any of
/// the four ways (`"x"`, `[x]`, `` `x` ``, and `'x'` where SQLite accepts a string as a name),
/// string and blob literals, numbers, bind parameters, operators, and parentheses; comments
/// (`-- …` and `/* … */`) and white space separate tokens and are skipped.
///
/// Each token keeps its byte range in the text, so a parser can copy any clause back exactly as
/// it was written.
///
/// Related SQLite documentation: <https://www.sqlite.org/lang_keywords.html>,
/// <https://www.sqlite.org/lang_comment.html>, <https://www.sqlite.org/lang_expr.html#literal_values_constants_>
struct SQLTokenizer {
    /// What a token is.
    enum Kind: Equatable, Sendable {
        /// A bare word: a keyword or an unquoted identifier.
        case word
        /// An identifier in double quotes, brackets or backticks.
        case quotedIdentifier
        /// A string literal in single quotes.
        case string
        /// A blob literal, `X'00FF'`.
        case blob
        /// A numeric literal.
        case number
        /// A bind parameter: `?`, `?1`, `:name`, `@name`, `$name`.
        case parameter
        case leftParenthesis, rightParenthesis, comma, semicolon
        /// Any operator or other punctuation (`.`, `=`, `||`, `<=`, …).
        case symbol
    }

    /// One token: its kind and where it stands in the text.
    struct Token: Equatable, Sendable {
        var kind: Kind
        /// Byte offsets into the text's UTF-8.
        var start: Int
        var end: Int
    }

    /// The tokenizer found text SQLite would not accept.
    struct Failure: Error, Equatable, CustomStringConvertible {
        var message: String
        var offset: Int
        var description: String { "\(message) at byte \(offset)" }
    }

    let bytes: [UInt8]

    init(_ text: String) { bytes = Array(text.utf8) }

    /// The text of bytes `start..<end`.
    func text(_ start: Int, _ end: Int) -> String { String(decoding: bytes[start..<end], as: UTF8.self) }

    /// The token's text as written.
    func text(of token: Token) -> String { text(token.start, token.end) }

    /// The name a word, quoted identifier or string token stands for: quotes removed and doubled
    /// quote characters undone.
    func name(of token: Token) -> String {
        switch token.kind {
        case .quotedIdentifier, .string:
            let open = bytes[token.start]
            let close = open == UInt8(ascii: "[") ? UInt8(ascii: "]") : open
            var result: [UInt8] = []
            var index = token.start + 1
            while index < token.end - 1 {
                result.append(bytes[index])
                // Brackets have no escape; the other quotes are doubled inside.
                if bytes[index] == close && open != UInt8(ascii: "[") { index += 1 }
                index += 1
            }
            return String(decoding: result, as: UTF8.self)
        default:
            return text(of: token)
        }
    }

    /// The tokens of the whole text.
    /// - Throws: ``Failure`` for an unterminated quote or comment, or a character SQLite rejects.
    func tokens() throws -> [Token] {
        var tokens: [Token] = []
        try scan(into: &tokens, limit: .max)
        return tokens
    }

    /// The first `limit` tokens of the text, or those before its end or before text SQLite would
    /// not accept: enough to tell a statement by its first words without reading the rest.
    func leadingTokens(_ limit: Int) -> [Token] {
        var tokens: [Token] = []
        // Ignoring the failure is right: it only ends the tokens, and the ones before it stand.
        try? scan(into: &tokens, limit: limit)
        return tokens
    }

    /// Appends the text's tokens to `tokens` until it holds `limit` of them or the text ends.
    private func scan(into tokens: inout [Token], limit: Int) throws {
        var index = 0
        let count = bytes.count
        while index < count && tokens.count < limit {
            let byte = bytes[index]
            let start = index
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0C, 0x0D:
                index += 1
                continue
            case UInt8(ascii: "-") where index + 1 < count && bytes[index + 1] == UInt8(ascii: "-"):
                while index < count && bytes[index] != 0x0A { index += 1 }
                continue
            case UInt8(ascii: "/") where index + 1 < count && bytes[index + 1] == UInt8(ascii: "*"):
                index += 2
                // An unterminated block comment runs to the end of the text, as in SQLite.
                while index < count
                    && !(bytes[index] == UInt8(ascii: "*") && index + 1 < count
                        && bytes[index + 1] == UInt8(ascii: "/"))
                { index += 1 }
                index = min(count, index + 2)
                continue
            case UInt8(ascii: "'"):
                index = try endOfQuoted(from: index, close: UInt8(ascii: "'"), doubled: true)
                tokens.append(Token(kind: .string, start: start, end: index))
            case UInt8(ascii: "\""), UInt8(ascii: "`"):
                index = try endOfQuoted(from: index, close: byte, doubled: true)
                tokens.append(Token(kind: .quotedIdentifier, start: start, end: index))
            case UInt8(ascii: "["):
                index = try endOfQuoted(from: index, close: UInt8(ascii: "]"), doubled: false)
                tokens.append(Token(kind: .quotedIdentifier, start: start, end: index))
            case _ where byte | 0x20 == UInt8(ascii: "x") && index + 1 < count && bytes[index + 1] == UInt8(ascii: "'"):
                index = try endOfQuoted(from: index + 1, close: UInt8(ascii: "'"), doubled: false)
                tokens.append(Token(kind: .blob, start: start, end: index))
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                index = endOfNumber(from: index)
                tokens.append(Token(kind: .number, start: start, end: index))
            case UInt8(ascii: ".") where index + 1 < count && Self.isDigit(bytes[index + 1]):
                index = endOfNumber(from: index)
                tokens.append(Token(kind: .number, start: start, end: index))
            case UInt8(ascii: "?"):
                index += 1
                while index < count && Self.isDigit(bytes[index]) { index += 1 }
                tokens.append(Token(kind: .parameter, start: start, end: index))
            case UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "$"):
                index += 1
                while index < count && (Self.isIdentifierByte(bytes[index]) || bytes[index] == UInt8(ascii: ":")) {
                    index += 1
                }
                tokens.append(Token(kind: .parameter, start: start, end: index))
            case UInt8(ascii: "("):
                index += 1
                tokens.append(Token(kind: .leftParenthesis, start: start, end: index))
            case UInt8(ascii: ")"):
                index += 1
                tokens.append(Token(kind: .rightParenthesis, start: start, end: index))
            case UInt8(ascii: ","):
                index += 1
                tokens.append(Token(kind: .comma, start: start, end: index))
            case UInt8(ascii: ";"):
                index += 1
                tokens.append(Token(kind: .semicolon, start: start, end: index))
            default:
                if Self.isIdentifierStart(byte) {
                    while index < count && Self.isIdentifierByte(bytes[index]) { index += 1 }
                    tokens.append(Token(kind: .word, start: start, end: index))
                } else if let length = symbolLength(at: index) {
                    index += length
                    tokens.append(Token(kind: .symbol, start: start, end: index))
                } else {
                    throw Failure(message: "unrecognized token '\(text(index, index + 1))'", offset: index)
                }
            }
        }
    }

    private func endOfQuoted(from start: Int, close: UInt8, doubled: Bool) throws -> Int {
        var index = start + 1
        while index < bytes.count {
            if bytes[index] == close {
                if doubled && index + 1 < bytes.count && bytes[index + 1] == close {
                    index += 2
                    continue
                }
                return index + 1
            }
            index += 1
        }
        throw Failure(message: "unterminated quoted text", offset: start)
    }

    private func endOfNumber(from start: Int) -> Int {
        var index = start
        let count = bytes.count
        if bytes[index] == UInt8(ascii: "0"), index + 1 < count, bytes[index + 1] | 0x20 == UInt8(ascii: "x") {
            index += 2
            while index < count
                && (Self.isDigit(bytes[index]) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(bytes[index] | 0x20)
                    || bytes[index] == UInt8(ascii: "_"))
            { index += 1 }
            return index
        }
        while index < count && (Self.isDigit(bytes[index]) || bytes[index] == UInt8(ascii: "_")) { index += 1 }
        if index < count && bytes[index] == UInt8(ascii: ".") {
            index += 1
            while index < count && (Self.isDigit(bytes[index]) || bytes[index] == UInt8(ascii: "_")) { index += 1 }
        }
        if index < count && bytes[index] | 0x20 == UInt8(ascii: "e") {
            var exponent = index + 1
            if exponent < count && (bytes[exponent] == UInt8(ascii: "+") || bytes[exponent] == UInt8(ascii: "-")) {
                exponent += 1
            }
            if exponent < count && Self.isDigit(bytes[exponent]) {
                index = exponent
                while index < count && Self.isDigit(bytes[index]) { index += 1 }
            }
        }
        return index
    }

    /// The length of the operator at `index`: SQLite's two-character operators first.
    private func symbolLength(at index: Int) -> Int? {
        let byte = bytes[index]
        let next = index + 1 < bytes.count ? bytes[index + 1] : 0
        let pair = (byte, next)
        switch pair {
        case (UInt8(ascii: "|"), UInt8(ascii: "|")), (UInt8(ascii: "<"), UInt8(ascii: "=")),
            (UInt8(ascii: ">"), UInt8(ascii: "=")),
            (UInt8(ascii: "<"), UInt8(ascii: ">")), (UInt8(ascii: "!"), UInt8(ascii: "=")),
            (UInt8(ascii: "="), UInt8(ascii: "=")),
            (UInt8(ascii: "<"), UInt8(ascii: "<")), (UInt8(ascii: ">"), UInt8(ascii: ">")),
            (UInt8(ascii: "-"), UInt8(ascii: ">")):
            // ->>
            if byte == UInt8(ascii: "-"), index + 2 < bytes.count, bytes[index + 2] == UInt8(ascii: ">") { return 3 }
            return 2
        default:
            return "+-*/%<>=&|~.!".utf8.contains(byte) ? 1 : nil
        }
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    /// Letters, `_`, and any byte of a multi-byte UTF-8 character (SQLite takes those as letters).
    static func isIdentifierStart(_ byte: UInt8) -> Bool {
        (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")) || byte == UInt8(ascii: "_")
            || byte >= 0x80
    }

    static func isIdentifierByte(_ byte: UInt8) -> Bool {
        isIdentifierStart(byte) || isDigit(byte) || byte == UInt8(ascii: "$")
    }
}

extension SQLTokenizer {
    /// True when `token` is the bare keyword `keyword` (ASCII case-insensitive; `keyword` upper-case).
    func isKeyword(_ token: Token, _ keyword: String) -> Bool {
        guard token.kind == .word, token.end - token.start == keyword.utf8.count else { return false }
        var index = token.start
        for expected in keyword.utf8 {
            let byte = bytes[index]
            let upper = byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") ? byte - 32 : byte
            if upper != expected { return false }
            index += 1
        }
        return true
    }

    /// The lower-cased names of every identifier-like token (words, quoted identifiers), for
    /// "does this SQL mention that column or table" questions. SQLite folds ASCII case only.
    func identifiers(in tokens: ArraySlice<Token>) -> Set<String> {
        var result = Set<String>()
        for token in tokens where token.kind == .word || token.kind == .quotedIdentifier {
            result.insert(name(of: token).sqlFolded)
        }
        return result
    }
}

extension SQLTokenizer {
    /// The lower-cased column names a `CREATE INDEX` statement uses: those of its column list and
    /// `WHERE` clause, not the index's or the table's name, nor function names.
    func indexedColumnNames() -> Set<String> {
        guard let tokens = try? tokens(), let on = tokens.firstIndex(where: { isKeyword($0, "ON") }),
            let open = tokens[on...].firstIndex(where: { $0.kind == .leftParenthesis })
        else { return [] }
        let used = tokens[open...].indices.filter { $0 + 1 >= tokens.count || tokens[$0 + 1].kind != .leftParenthesis }
            .map { tokens[$0] }
        return identifiers(in: ArraySlice(used))
    }

    /// The lower-cased identifiers of the whole text; empty when it cannot be tokenized.
    func identifierSet() -> Set<String> {
        guard let tokens = try? tokens() else { return [] }
        return identifiers(in: tokens[...])
    }
}
