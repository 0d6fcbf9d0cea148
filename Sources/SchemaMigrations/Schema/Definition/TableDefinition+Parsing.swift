#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension TableDefinition {
    /// The parser could not read a `CREATE TABLE` statement.
    struct ParseError: Error, Equatable, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// Parses a `CREATE TABLE` statement as SQLite stores it in `sqlite_schema`.
    ///
    /// The grammar followed is SQLite's: <https://www.sqlite.org/syntax/create-table-stmt.html>,
    /// <https://www.sqlite.org/syntax/column-constraint.html>, <https://www.sqlite.org/syntax/table-constraint.html>,
    /// <https://www.sqlite.org/syntax/foreign-key-clause.html>.
    /// - Throws: ``ParseError`` for `CREATE TABLE … AS SELECT` and for text that is not a table definition.
    init(parsing sql: String) throws {
        var parser = try DefinitionParser(sql)
        self = try parser.parseCreateTable()
    }
}

/// A recursive-descent reader over the tokens of one `CREATE TABLE` statement.
private struct DefinitionParser {
    let tokenizer: SQLTokenizer
    let tokens: [SQLTokenizer.Token]
    var position = 0

    init(_ sql: String) throws {
        tokenizer = SQLTokenizer(sql)
        do {
            tokens = try tokenizer.tokens()
        } catch let failure as SQLTokenizer.Failure {
            throw TableDefinition.ParseError(message: failure.description)
        }
    }

    private var current: SQLTokenizer.Token? { position < tokens.count ? tokens[position] : nil }

    private func fail(_ message: String) -> TableDefinition.ParseError {
        let near = current.map { " near '\(tokenizer.text(of: $0))'" } ?? " at the end"
        return TableDefinition.ParseError(message: message + near)
    }

    private func at(_ keyword: String) -> Bool { current.map { tokenizer.isKeyword($0, keyword) } ?? false }

    private func at(_ kind: SQLTokenizer.Kind) -> Bool { current?.kind == kind }

    @discardableResult
    private mutating func accept(_ keyword: String) -> Bool {
        guard at(keyword) else { return false }
        position += 1
        return true
    }

    private mutating func expect(_ keyword: String) throws {
        guard accept(keyword) else { throw fail("expected \(keyword)") }
    }

    private mutating func expect(_ kind: SQLTokenizer.Kind, _ what: String) throws {
        guard at(kind) else { throw fail("expected \(what)") }
        position += 1
    }

    /// A name: a word, a quoted identifier, or a string (SQLite accepts `'name'` as a name).
    private mutating func name() throws -> (name: String, text: String) {
        guard let token = current, [.word, .quotedIdentifier, .string].contains(token.kind) else {
            throw fail("expected a name")
        }
        position += 1
        return (tokenizer.name(of: token), tokenizer.text(of: token))
    }

    /// Skips a parenthesized group, nested parentheses included; returns the token range inside.
    private mutating func parenthesized() throws -> Range<Int> {
        try expect(.leftParenthesis, "(")
        let start = position
        var depth = 1
        while let token = current {
            if token.kind == .leftParenthesis { depth += 1 }
            if token.kind == .rightParenthesis {
                depth -= 1
                if depth == 0 {
                    position += 1
                    return start..<(position - 1)
                }
            }
            position += 1
        }
        throw fail("unbalanced parentheses")
    }

    private func text(from start: Int, to end: Int) -> String {
        guard start < end else { return "" }
        return tokenizer.text(tokens[start].start, tokens[end - 1].end)
    }

    /// The identifiers an expression mentions. A name before `(` is a function: CHECK, DEFAULT and
    /// generated expressions cannot hold a subquery, so never a table.
    private func identifiers(_ range: Range<Int>) -> Set<String> {
        let names = range.filter { $0 + 1 >= tokens.count || tokens[$0 + 1].kind != .leftParenthesis }
        return tokenizer.identifiers(in: ArraySlice(names.map { tokens[$0] }))
    }

    /// The lower-cased names of a parenthesized column list (`(a, "b" COLLATE NOCASE DESC)`).
    private mutating func columnList() throws -> [String] {
        let range = try parenthesized()
        var names: [String] = []
        var expectingName = true
        for index in range {
            let token = tokens[index]
            if token.kind == .comma {
                expectingName = true
                continue
            }
            if token.kind == .leftParenthesis && expectingName { continue }
            if expectingName && [.word, .quotedIdentifier, .string].contains(token.kind) {
                names.append(tokenizer.name(of: token).sqlFolded)
            }
            expectingName = false
        }
        return names
    }

    mutating func parseCreateTable() throws -> TableDefinition {
        try expect("CREATE")
        if !accept("TEMP") { accept("TEMPORARY") }
        try expect("TABLE")
        if accept("IF") {
            try expect("NOT")
            try expect("EXISTS")
        }
        var tableName = try name().name
        if at(.symbol) && tokenizer.text(of: current!) == "." {
            position += 1
            tableName = try name().name
        }
        if at("AS") {
            throw TableDefinition.ParseError(
                message: "a table made by CREATE TABLE … AS SELECT has no column definitions to read")
        }
        try expect(.leftParenthesis, "(")
        var definition = TableDefinition(
            name: tableName, columns: [], constraints: [], withoutRowid: false, strict: false)
        while true {
            if isTableConstraintStart() {
                definition.constraints.append(try tableConstraint())
            } else {
                guard definition.constraints.isEmpty else { throw fail("a column definition after a table constraint") }
                definition.columns.append(try columnDefinition())
            }
            if at(.comma) {
                position += 1
                continue
            }
            // Between table constraints the comma is optional (parse.y: `tconscomma ::= COMMA | .`).
            if !definition.constraints.isEmpty && isTableConstraintStart() { continue }
            try expect(.rightParenthesis, ")")
            break
        }
        while current != nil {
            if accept("WITHOUT") {
                guard let token = current, tokenizer.name(of: token).lowercased() == "rowid" else {
                    throw fail("expected ROWID")
                }
                position += 1
                definition.withoutRowid = true
            } else if accept("STRICT") {
                definition.strict = true
            } else if at(.semicolon) {
                position += 1
            } else {
                throw fail("unexpected text after the column definitions")
            }
            if at(.comma) { position += 1 }
        }
        guard !definition.columns.isEmpty else { throw fail("a table with no columns") }
        return definition
    }

    private func isTableConstraintStart() -> Bool {
        ["CONSTRAINT", "PRIMARY", "UNIQUE", "CHECK", "FOREIGN"].contains { at($0) }
    }

    private mutating func columnDefinition() throws -> TableDefinition.Column {
        let (columnName, nameText) = try name()
        // The type: names, then an optional parenthesized size, up to the first constraint.
        let typeStart = position
        while let token = current, token.kind == .word || token.kind == .quotedIdentifier || token.kind == .string,
            !isColumnConstraintStart()
        {
            position += 1
        }
        if at(.leftParenthesis) && position > typeStart { _ = try parenthesized() }
        var typeText = text(from: typeStart, to: position)
        // SQLite reads a `GENERATED ALWAYS` right after a type name (not after its size) as words of the type, then cuts
        // them off: comments between the type and GENERATED stay in its declared type (and its
        // affinity), so they stay in ours; a line comment keeps its newline.
        if position > typeStart, tokens[position - 1].kind != .rightParenthesis, at("GENERATED"),
            isKeyword(at: position + 1, "ALWAYS")
        {
            let gap = tokenizer.text(tokens[position - 1].end, tokens[position].start)
            if gap.contains("/*") || gap.contains("--") {
                let kept = String(gap.reversed().drop { " \t\n\r\u{0B}\u{0C}".contains($0) }.reversed())
                typeText += kept + (kept.contains("--") ? "\n" : "")
            }
        }
        var constraints: [TableDefinition.ColumnConstraint] = []
        while current != nil && !at(.comma) && !at(.rightParenthesis) {
            constraints.append(try columnConstraint())
        }
        return TableDefinition.Column(
            name: columnName, nameText: nameText, typeText: typeText, constraints: constraints)
    }

    private func isColumnConstraintStart() -> Bool {
        [
            "CONSTRAINT", "PRIMARY", "NOT", "NULL", "UNIQUE", "CHECK", "DEFAULT", "COLLATE", "REFERENCES", "AS",
            "DEFERRABLE",
        ].contains { at($0) }
            || (at("GENERATED") && isKeyword(at: position + 1, "ALWAYS"))
    }

    private func isKeyword(at index: Int, _ keyword: String) -> Bool {
        index < tokens.count && tokenizer.isKeyword(tokens[index], keyword)
    }

    /// `CONSTRAINT name`, any number of times (SQLite lets a later name replace an earlier one).
    /// - Returns: whether nothing follows the names in this column or table definition.
    private mutating func constraintNames() throws -> Bool {
        var named = false
        while accept("CONSTRAINT") {
            _ = try name()
            named = true
        }
        return named && (current == nil || at(.comma) || at(.rightParenthesis))
    }

    private mutating func conflictClause() throws {
        if accept("ON") {
            try expect("CONFLICT")
            _ = try name()
        }
    }

    private mutating func columnConstraint() throws -> TableDefinition.ColumnConstraint {
        let start = position
        var identifiers: Set<String> = []
        let kind: TableDefinition.ColumnConstraint.Kind
        if try constraintNames() {
            kind = .name
        } else if accept("PRIMARY") {
            try expect("KEY")
            if !accept("ASC") { accept("DESC") }
            try conflictClause()
            kind = .primaryKey(autoincrement: accept("AUTOINCREMENT"))
        } else if try deferrable() {
            kind = .deferrable
        } else if accept("NOT") {
            try expect("NULL")
            try conflictClause()
            kind = .notNull
        } else if accept("NULL") {
            try conflictClause()
            kind = .null
        } else if accept("UNIQUE") {
            try conflictClause()
            kind = .unique
        } else if accept("CHECK") {
            identifiers = self.identifiers(try parenthesized())
            kind = .check
        } else if accept("DEFAULT") {
            if at(.leftParenthesis) {
                identifiers = self.identifiers(try parenthesized())
            } else {
                if at(.symbol), ["+", "-"].contains(tokenizer.text(of: current!)) { position += 1 }
                guard current != nil else { throw fail("expected a default value") }
                position += 1
            }
            kind = .defaultValue
        } else if accept("COLLATE") {
            kind = .collate(try name().name)
        } else if at("REFERENCES") {
            kind = .references(try foreignKeyClause())
        } else if at("GENERATED") || at("AS") {
            // (The word before AS may be a column named `generated`: only this GENERATED needs ALWAYS.)
            if accept("GENERATED") { try expect("ALWAYS") }
            try expect("AS")
            identifiers = self.identifiers(try parenthesized())
            if !accept("STORED") { accept("VIRTUAL") }
            kind = .generated
        } else {
            throw fail("expected a column constraint")
        }
        return TableDefinition.ColumnConstraint(
            kind: kind, text: text(from: start, to: position), identifiers: identifiers)
    }

    /// `REFERENCES table [(columns)] [ON DELETE|UPDATE action | MATCH name]* [[NOT] DEFERRABLE [INITIALLY DEFERRED|IMMEDIATE]]`.
    private mutating func foreignKeyClause() throws -> String {
        try expect("REFERENCES")
        let table = try name().name
        if at(.leftParenthesis) { _ = try columnList() }
        while true {
            if accept("ON") {
                // `ON INSERT action` is accepted and ignored by SQLite (parse.y: `refarg ::= ON INSERT refact`).
                guard accept("DELETE") || accept("UPDATE") || accept("INSERT") else {
                    throw fail("expected DELETE or UPDATE")
                }
                if accept("SET") {
                    guard accept("NULL") || accept("DEFAULT") else { throw fail("expected NULL or DEFAULT") }
                } else if accept("NO") {
                    try expect("ACTION")
                } else if !(accept("CASCADE") || accept("RESTRICT")) {
                    throw fail("expected a foreign key action")
                }
            } else if accept("MATCH") {
                _ = try name()
            } else if try !deferrable() {
                return table
            }
        }
    }

    /// `[NOT] DEFERRABLE [INITIALLY DEFERRED|IMMEDIATE]`, if it is next.
    private mutating func deferrable() throws -> Bool {
        if at("NOT") && isKeyword(at: position + 1, "DEFERRABLE") {
            position += 2
        } else if !accept("DEFERRABLE") {
            return false
        }
        if accept("INITIALLY") {
            guard accept("DEFERRED") || accept("IMMEDIATE") else { throw fail("expected DEFERRED or IMMEDIATE") }
        }
        return true
    }

    private mutating func tableConstraint() throws -> TableDefinition.TableConstraint {
        let start = position
        let kind: TableDefinition.TableConstraint.Kind
        var columns: [String] = []
        var identifiers: Set<String> = []
        if try constraintNames() {
            kind = .name
        } else if accept("PRIMARY") {
            try expect("KEY")
            columns = try columnList()
            try conflictClause()
            kind = .primaryKey
        } else if accept("UNIQUE") {
            columns = try columnList()
            try conflictClause()
            kind = .unique
        } else if accept("CHECK") {
            identifiers = self.identifiers(try parenthesized())
            try conflictClause()
            kind = .check
        } else if accept("FOREIGN") {
            try expect("KEY")
            columns = try columnList()
            kind = .foreignKey(try foreignKeyClause())
        } else {
            throw fail("expected a table constraint")
        }
        // What the constraint mentions: its CHECK expression or its own columns, never its name,
        // its keywords, or the table and columns a foreign key refers to.
        return TableDefinition.TableConstraint(
            kind: kind, text: text(from: start, to: position), columns: columns,
            identifiers: identifiers.union(columns))
    }
}
