import Testing

@testable import SchemaMigrations

/// The tokenizer under the CREATE TABLE parser reads SQL as SQLite's own tokenizer does
/// (<https://www.sqlite.org/lang_keywords.html>, <https://www.sqlite.org/lang_comment.html>,
/// <https://www.sqlite.org/lang_expr.html#literal_values_constants_>): a name written in any of
/// SQLite's quoting styles is one token with the name SQLite sees, and comments never hide or
/// split a clause. Where these tests say "SQLite accepts/rejects", the sqlite3 3.40 CLI was asked.
@Suite struct SQLTokenizerTests {
    /// (kind, text) of every token.
    private func tokens(_ sql: String) throws -> [(SQLTokenizer.Kind, String)] {
        let tokenizer = SQLTokenizer(sql)
        return try tokenizer.tokens().map { ($0.kind, tokenizer.text(of: $0)) }
    }

    private func only(_ sql: String) throws -> (kind: SQLTokenizer.Kind, text: String, name: String) {
        let tokenizer = SQLTokenizer(sql)
        let all = try tokenizer.tokens()
        try #require(all.count == 1, "\(sql) gave \(all.count) tokens")
        return (all[0].kind, tokenizer.text(of: all[0]), tokenizer.name(of: all[0]))
    }

    @Test func aStatementSplitsIntoItsTokens() throws {
        let result = try tokens("CREATE TABLE t(a INT, b);")
        #expect(
            result.map(\.0) == [
                .word, .word, .word, .leftParenthesis, .word, .word, .comma, .word, .rightParenthesis, .semicolon,
            ])
        #expect(result.map(\.1) == ["CREATE", "TABLE", "t", "(", "a", "INT", ",", "b", ")", ";"])
    }

    @Test(arguments: [
        (#""a""b""#, "a\"b"), ("[a b]", "a b"), ("`a``b`", "a`b"), (#""""#, ""), ("[a\"b]", "a\"b"),
        (#""a'b""#, "a'b"), ("`a\"b`", "a\"b"), (#""naïve 表 🙂""#, "naïve 表 🙂"),
    ])
    func aQuotedIdentifierIsOneTokenWithSQLitesName(_ sql: String, _ name: String) throws {
        let tokenizer = SQLTokenizer(sql)
        let first = try #require(try tokenizer.tokens().first)
        #expect(first.kind == .quotedIdentifier)
        #expect(tokenizer.name(of: first) == name)
    }

    @Test(arguments: [
        ("'g h'", "g h"), ("'it''s'", "it's"), ("''", ""), ("''''", "'"), ("'a\"b'", "a\"b"),
        ("'-- not a comment'", "-- not a comment"),
        ("'/* nor this */'", "/* nor this */"), ("'é ü'", "é ü"),
    ])
    func aStringIsOneTokenAndCanServeAsAName(_ sql: String, _ name: String) throws {
        let token = try only(sql)
        #expect(token.kind == .string)
        #expect(token.text == sql)
        #expect(token.name == name)
    }

    @Test func bareWordsKeepTheirTextAndMayHoldDigitsDollarsAndAnyNonASCIICharacter() throws {
        // SQLite takes every byte of a multi-byte character as a letter, even a no-break space.
        for word in ["abc", "_a1", "a$b", "naïve", "表格", "🙂", "a\u{00A0}b", "ÄÖÜ"] {
            let token = try only(word)
            #expect(token.kind == .word, "\(word)")
            #expect(token.name == word)
        }
    }

    @Test func tokenOffsetsAreUTF8ByteOffsets() throws {
        let tokenizer = SQLTokenizer("é \"ü\" x")
        let all = try tokenizer.tokens()
        #expect(all.map(\.start) == [0, 3, 8])
        #expect(all.map(\.end) == [2, 7, 9])
    }

    @Test(arguments: ["x'00'", "X'ABcd'", "x''"])
    func aBlobIsOneToken(_ sql: String) throws {
        let token = try only(sql)
        #expect(token.kind == .blob)
        #expect(token.text == sql)
    }

    @Test func bracketsHaveNoEscape() throws {
        // "[a]]b]" is the name "a", then a stray "]" that SQLite rejects too (`unrecognized token`).
        #expect(throws: SQLTokenizer.Failure.self) { try SQLTokenizer("[a]]b]").tokens() }
        #expect(try tokens("[a\"b]").map(\.1) == ["[a\"b]"])
    }

    @Test func anXBeforeAStringInsideAWordIsNotABlob() throws {
        #expect(try tokens("max'a'").map(\.0) == [.word, .string])
    }

    @Test(arguments: ["0", "42", "0x1F", "0XfF", "1e10", "1E+10", "1.5e-3", ".5", "5.", "3.14", "1_000", "0x_ff"])
    func aNumberIsOneToken(_ sql: String) throws {
        // "1_000": SQLite 3.40 rejects digit separators ("unrecognized token"); 3.46 and later take
        // it as 1000. A database written by a newer SQLite may hold one, so it is one number here.
        let token = try only(sql)
        #expect(token.kind == .number)
        #expect(token.text == sql)
    }

    @Test func signsAreOperatorsAndAnExponentNeedsDigits() throws {
        #expect(try tokens("-1").map(\.0) == [.symbol, .number])
        #expect(try tokens("1e").map(\.1) == ["1", "e"])
        #expect(try tokens("1.x").map(\.1) == ["1.", "x"])
        #expect(try tokens("a.b").map(\.0) == [.word, .symbol, .word])
    }

    @Test(arguments: ["?", "?1", "?123", ":name", "@name", "$name", ":a1_b", "$a::b"])
    func aParameterIsOneToken(_ sql: String) throws {
        let token = try only(sql)
        #expect(token.kind == .parameter)
        #expect(token.text == sql)
    }

    @Test(arguments: [
        "||", "->>", "->", "<>", "!=", "<=", ">=", "==", "<<", ">>", "=", "<", ">", "+", "-", "*", "/", "%", "&", "|",
        "~", ".",
    ])
    func anOperatorIsOneToken(_ sql: String) throws {
        let token = try only(sql)
        #expect(token.kind == .symbol)
        #expect(token.text == sql)
    }

    @Test func operatorsSplitWhereSQLiteSplitsThem() throws {
        #expect(try tokens("a||b").map(\.1) == ["a", "||", "b"])
        #expect(try tokens("j->>'$.a'").map(\.1) == ["j", "->>", "'$.a'"])
        #expect(try tokens("a<>-1").map(\.1) == ["a", "<>", "-", "1"])
        #expect(try tokens("a|||b").map(\.1) == ["a", "||", "|", "b"])
        #expect(try tokens("a->>>b").map(\.1) == ["a", "->>", ">", "b"])
    }

    @Test func commentsAndWhiteSpaceSeparateTokensAndAreSkipped() throws {
        #expect(try tokens("a -- to the end of the line\n b").map(\.1) == ["a", "b"])
        #expect(try tokens("a/* inline */b").map(\.1) == ["a", "b"])
        #expect(try tokens("a/**/b").map(\.1) == ["a", "b"])
        #expect(try tokens("a /* spans\nlines -- and holds a line comment */ b").map(\.1) == ["a", "b"])
        #expect(try tokens("a\t\r\n\u{0C}b").map(\.1) == ["a", "b"])
        #expect(try tokens("a--b").map(\.1) == ["a"])
        #expect(try tokens("a-- no newline at the end").map(\.1) == ["a"])
        // SQLite accepts a block comment left open at the end of the text (the CLI ran
        // `CREATE TABLE t(a) /* unterminated`), and so does the tokenizer.
        #expect(try tokens("a /* unterminated").map(\.1) == ["a"])
        #expect(try tokens("a /* unterminated *").map(\.1) == ["a"])
        #expect(try tokens("a /*").map(\.1) == ["a"])
        #expect(try tokens("a -").map(\.1) == ["a", "-"])
        #expect(try tokens("a / b").map(\.1) == ["a", "/", "b"])
    }

    @Test func quotesInsideCommentsAndCommentsInsideQuotesAreInert() throws {
        #expect(try tokens("a /* it's \"x */ b").map(\.1) == ["a", "b"])
        #expect(try tokens("a -- it's\n b").map(\.1) == ["a", "b"])
        #expect(try tokens("\"--\" [/*] `*/`").map(\.0) == [.quotedIdentifier, .quotedIdentifier, .quotedIdentifier])
    }

    @Test(arguments: ["'abc", "\"abc", "[abc", "`abc", "x'00", "'it''s", "a, 'b", "\"a\"\"", "'"])
    func anUnterminatedQuoteFails(_ sql: String) {
        #expect(throws: SQLTokenizer.Failure.self) { try SQLTokenizer(sql).tokens() }
    }

    @Test(arguments: ["^", "#", "a ^ b", "\u{0B}"])
    func aCharacterSQLiteRejectsFails(_ sql: String) throws {
        // The CLI says `unrecognized token: "^"` (and "#"); a vertical tab is not white space to SQLite's tokenizer.
        let error = try #require(throws: SQLTokenizer.Failure.self) { try SQLTokenizer(sql).tokens() }
        #expect(error.description.hasPrefix("unrecognized token"))
    }

    @Test func theFailureNamesWhereTheQuoteOpened() throws {
        let error = try #require(throws: SQLTokenizer.Failure.self) { try SQLTokenizer("CREATE TABLE t('a)").tokens() }
        #expect(error.offset == 15)
        #expect(error.description == "unterminated quoted text at byte 15")
    }

    @Test func keywordsMatchBareWordsInAnyASCIICaseOnly() throws {
        let tokenizer = SQLTokenizer("create CrEaTe \"CREATE\" 'CREATE' [create] creates")
        let all = try tokenizer.tokens()
        #expect(all.map { tokenizer.isKeyword($0, "CREATE") } == [true, true, false, false, false, false])
    }

    @Test func identifiersAreFoldedAsSQLiteFoldsThemASCIIOnly() throws {
        #expect("ÄbC".sqlFolded == "Äbc")
        #expect(
            SQLTokenizer("Price + \"QTY\" * 'Lit' + [Note] + f(x)").identifierSet() == [
                "price", "qty", "note", "f", "x",
            ])
        #expect(SQLTokenizer("'unterminated").identifierSet() == [])
    }

    @Test func textBetweenTokensIsExactlyWhatWasWritten() throws {
        let sql = "CREATE TABLE \"t\" ( a /* c */ INT DEFAULT 'x''y', -- note\n b [my type](10) )"
        let tokenizer = SQLTokenizer(sql)
        let all = try tokenizer.tokens()
        // Tokens in order, never overlapping, and the gaps hold only white space and comments.
        var previous = 0
        var rebuilt = ""
        for token in all {
            #expect(token.start >= previous && token.end > token.start)
            rebuilt += tokenizer.text(previous, token.start) + tokenizer.text(of: token)
            previous = token.end
        }
        #expect(rebuilt + tokenizer.text(previous, tokenizer.bytes.count) == sql)
        #expect(all.map { tokenizer.text(of: $0) }.contains("'x''y'"))
    }
}
