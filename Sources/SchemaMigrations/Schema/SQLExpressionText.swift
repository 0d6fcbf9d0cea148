/// An SQL expression given in a declaration (a CHECK), checked to be one expression and compared
/// with the text a live table holds without regard to spacing or the case of keywords and names.
enum SQLExpressionText {
    /// Whether `text` is one balanced expression: it tokenizes, its parentheses balance, and it
    /// holds no `;` (nothing could run after it).
    static func isOneExpression(_ text: String) -> Bool {
        topLevelWords(text) != nil
    }

    /// The words outside parentheses (ASCII-folded) of a text that tokenizes, balances its
    /// parentheses and holds no `;`; nil for any other text.
    static func topLevelWords(_ text: String) -> [String]? {
        let tokenizer = SQLTokenizer(text)
        guard let tokens = try? tokenizer.tokens(), !tokens.isEmpty else { return nil }
        var depth = 0
        var words: [String] = []
        for token in tokens {
            switch token.kind {
            case .leftParenthesis: depth += 1
            case .rightParenthesis:
                depth -= 1
                if depth < 0 { return nil }
            case .semicolon: return nil
            case .word where depth == 0: words.append(tokenizer.text(of: token).sqlFolded)
            default: break
            }
        }
        return depth == 0 ? words : nil
    }

    /// Whether `text` is one expression wrapped whole in parentheses, as SQLite's `DEFAULT (…)`
    /// takes it: `(datetime('now'))`, not `(1) + (2)`.
    static func isParenthesized(_ text: String) -> Bool {
        guard isOneExpression(text), let tokens = try? SQLTokenizer(text).tokens(),
            tokens.first?.kind == .leftParenthesis, tokens.last?.kind == .rightParenthesis
        else { return false }
        var depth = 0
        for (position, token) in tokens.enumerated() {
            if token.kind == .leftParenthesis { depth += 1 }
            if token.kind == .rightParenthesis { depth -= 1 }
            if depth == 0 && position < tokens.count - 1 { return false }
        }
        return true
    }

    /// Whether a default is one SQLite's `ADD COLUMN` refuses (not a constant): `CURRENT_TIME`,
    /// `CURRENT_DATE`, `CURRENT_TIMESTAMP`, or an expression in parentheses.
    static func isNonConstantDefault(_ text: String) -> Bool {
        ["CURRENT_TIME", "CURRENT_DATE", "CURRENT_TIMESTAMP"].contains(text.uppercased()) || isParenthesized(text)
    }

    /// Whether two defaults are the same as SQLite reports them: `PRAGMA table_info` gives
    /// `(date('now'))` as `date('now')`, so outer parentheses, spacing and case do not count.
    static func sameDefault(_ first: String?, _ second: String?) -> Bool {
        guard let first, let second else { return first == nil && second == nil }
        func bare(_ text: String) -> String {
            let text = legacyStringDefault(text) ?? text
            guard isParenthesized(text), let tokens = try? SQLTokenizer(text).tokens() else { return text }
            return SQLTokenizer(text).text(tokens[0].end, tokens[tokens.count - 1].start)
        }
        return first == second || normalized(bare(first)) == normalized(bare(second))
    }

    /// A default written in double quotes (`DEFAULT ""`, `DEFAULT "none"`), which SQLite reads as
    /// the string literal since a default names no column: that literal in single quotes
    /// (`''`, `'none'`); nil for any other default.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/quirks.html#double_quoted_string_literals_are_accepted>
    static func legacyStringDefault(_ text: String) -> String? {
        let tokenizer = SQLTokenizer(text)
        guard let tokens = try? tokenizer.tokens(), tokens.count == 1, tokens[0].kind == .quotedIdentifier,
            tokenizer.bytes[tokens[0].start] == UInt8(ascii: "\"")
        else { return nil }
        return SQL.quoteString(tokenizer.name(of: tokens[0]))
    }

    /// The expression's tokens, words and quoted names folded to lower case, joined by one space;
    /// string literals as written. `length(Name)>0` and `LENGTH ( name ) > 0` compare equal.
    static func normalized(_ text: String) -> String {
        let tokenizer = SQLTokenizer(text)
        guard let tokens = try? tokenizer.tokens() else { return text }
        return tokens.map { token in
            switch token.kind {
            case .word, .quotedIdentifier: return tokenizer.name(of: token).sqlFolded
            default: return tokenizer.text(of: token)
            }
        }.joined(separator: " ")
    }

    /// The expression inside a `CHECK (…)` constraint's text (with any `CONSTRAINT name` before it).
    static func checkExpression(of constraintText: String) -> String? {
        let tokenizer = SQLTokenizer(constraintText)
        guard let tokens = try? tokenizer.tokens(),
            let open = tokens.firstIndex(where: { $0.kind == .leftParenthesis }),
            let close = tokens.lastIndex(where: { $0.kind == .rightParenthesis }), open < close
        else { return nil }
        return tokenizer.text(tokens[open].end, tokens[close].start)
    }
}
