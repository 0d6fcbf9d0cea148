extension TableDefinition {
    /// What dropping a column takes with it, in words, for the report.
    typealias Removed = [String]

    /// Gives `column` the declared type `type` (its affinity changes; its constraints stay).
    mutating func setType(_ type: String, column: String) {
        guard let index = columnIndex(named: column) else { return }
        columns[index].typeText = type
    }

    /// Adds or removes the column's `NOT NULL` (the no-op `NULL` constraint goes too), with the
    /// conflict clause `onConflict` (`NOT NULL ON CONFLICT REPLACE`).
    mutating func setNotNull(_ notNull: Bool, onConflict: Schema.ConflictResolution? = nil, column: String) {
        guard let index = columnIndex(named: column) else { return }
        columns[index].constraints.removeAll { $0.kind == .notNull || $0.kind == .null }
        if notNull {
            columns[index].constraints.append(
                .init(kind: .notNull, text: "NOT NULL" + (onConflict.map { " " + $0.clause } ?? ""), identifiers: []))
        }
    }

    /// Gives the primary key (a column's `PRIMARY KEY` or the table's) the conflict clause
    /// `resolution`, nil for none, keeping the rest of its text (its name, `DESC`, `AUTOINCREMENT`).
    mutating func setKeyConflict(_ resolution: Schema.ConflictResolution?) throws {
        func rewritten(_ text: String) throws -> String {
            let tokenizer = SQLTokenizer(text)
            let tokens = try tokenizer.tokens()
            // Drop an `ON CONFLICT word` already there, then write the new one after `KEY`, its
            // `ASC`/`DESC` or its column list.
            var kept = tokens
            if let on = kept.indices.first(where: {
                tokenizer.isKeyword(kept[$0], "ON") && $0 + 2 < kept.count
                    && tokenizer.isKeyword(kept[$0 + 1], "CONFLICT")
            }) {
                kept.removeSubrange(on...(on + 2))
            }
            guard var after = kept.firstIndex(where: { tokenizer.isKeyword($0, "KEY") }) else { return text }
            if after + 1 < kept.count, kept[after + 1].kind == .leftParenthesis {
                var depth = 0
                for position in (after + 1)..<kept.count {
                    if kept[position].kind == .leftParenthesis { depth += 1 }
                    if kept[position].kind == .rightParenthesis { depth -= 1 }
                    if depth == 0 {
                        after = position
                        break
                    }
                }
            } else if after + 1 < kept.count,
                tokenizer.isKeyword(kept[after + 1], "ASC") || tokenizer.isKeyword(kept[after + 1], "DESC")
            {
                after += 1
            }
            var parts = kept[...after].map { tokenizer.text(of: $0) }
            if let resolution { parts.append(resolution.clause) }
            parts += kept[(after + 1)...].map { tokenizer.text(of: $0) }
            return parts.joined(separator: " ")
        }
        for index in columns.indices {
            for position in columns[index].constraints.indices
            where columns[index].constraints[position].kind.isPrimaryKey {
                columns[index].constraints[position].text = try rewritten(columns[index].constraints[position].text)
            }
        }
        for index in constraints.indices where constraints[index].kind == .primaryKey {
            constraints[index].text = try rewritten(constraints[index].text)
        }
    }

    /// Replaces the column's `DEFAULT` clause; nil removes it.
    mutating func setDefault(_ literal: String?, column: String) {
        guard let index = columnIndex(named: column) else { return }
        columns[index].constraints.removeAll { $0.kind == .defaultValue }
        if let literal {
            columns[index].constraints.append(.init(kind: .defaultValue, text: "DEFAULT \(literal)", identifiers: []))
        }
    }

    /// Replaces the foreign key on `column` alone (a column `REFERENCES` clause, or a one-column
    /// `FOREIGN KEY` table constraint) with `key`; nil removes it.
    mutating func setReference(_ key: Schema.ForeignKey?, column: String) {
        guard let index = columnIndex(named: column) else { return }
        // A DEFERRABLE clause written apart from its REFERENCES goes with it.
        columns[index].constraints.removeAll {
            if case .references = $0.kind { return true } else { return $0.kind == .deferrable }
        }
        let folded = column.sqlFolded
        constraints.removeAll { if case .foreignKey = $0.kind { return $0.columns == [folded] } else { return false } }
        if let key {
            let text = key.clause
            columns[index].constraints.append(.init(kind: .references(key.table), text: text, identifiers: []))
        }
    }

    /// Appends a column written as SQL (`"notes" TEXT DEFAULT ''`), before the table constraints.
    mutating func addColumn(definition: String) throws {
        let parsed = try TableDefinition(parsing: "CREATE TABLE t (\(definition))")
        columns += parsed.columns
    }

    /// Removes `column`, and the constraints that concern it alone: its own constraints, a table
    /// CHECK that mentions no other column, a `FOREIGN KEY` from it.
    ///
    /// - Returns: what went with it besides its values, in words.
    /// - Throws: `MigrationError` (`unsupportedChange`), changing nothing, when something that
    ///   stays needs the column: a CHECK or generated column over it and another column, a
    ///   multi-column PRIMARY KEY or UNIQUE constraint.
    mutating func dropColumn(_ column: String, entity: String, version: Schema.Version) throws -> Removed {
        guard let index = columnIndex(named: column) else { return [] }
        let folded = column.sqlFolded
        let others = Set(columns.map { $0.name.sqlFolded }).subtracting([folded])
        func refuse(_ what: String) -> MigrationError {
            MigrationError(
                .unsupportedChange, "cannot drop '\(entity).\(column)': \(what) uses it",
                entity: entity, property: column, version: version,
                remedy:
                    "keep the column, or rewrite the table without that clause first (a custom stage's willMigrate may rebuild it with SQL)"
            )
        }
        for other in columns where other.name.sqlFolded != folded {
            for constraint in other.constraints where constraint.identifiers.contains(folded) {
                throw refuse("the \(constraint.kind.label) of column \(other.name), `\(constraint.text)`,")
            }
        }
        var removed: Removed = []
        var kept: [TableConstraint] = []
        for constraint in constraints {
            let mentions = constraint.columns.contains(folded) || constraint.identifiers.contains(folded)
            guard mentions else {
                kept.append(constraint)
                continue
            }
            switch constraint.kind {
            case .check where constraint.identifiers.isDisjoint(with: others),
                .foreignKey where constraint.columns == [folded]:
                removed.append("the constraint `\(constraint.text)`")
            case .primaryKey, .unique, .check, .foreignKey, .name:
                throw refuse("the table constraint `\(constraint.text)`")
            }
        }
        constraints = kept
        removed += columns[index].constraints.filter {
            $0.kind != .notNull && $0.kind != .null && $0.kind != .defaultValue
        }
        .map { "its `\($0.text)`" }
        columns.remove(at: index)
        return removed
    }
}

extension TableDefinition.ColumnConstraint.Kind {
    /// The constraint in words: "CHECK constraint", "generated expression".
    var label: String {
        switch self {
        case .primaryKey: return "PRIMARY KEY"
        case .notNull, .null: return "NULL constraint"
        case .unique: return "UNIQUE constraint"
        case .check: return "CHECK constraint"
        case .defaultValue: return "default expression"
        case .collate: return "collation"
        case .references: return "foreign key"
        case .generated: return "generated expression"
        case .deferrable: return "foreign key timing"
        case .name: return "constraint name"
        }
    }
}

extension TableDefinition {
    /// Renames columns in the definition and in every clause that mentions them, as SQLite's
    /// `RENAME COLUMN` would: `substitution` maps lower-cased old names to new names, all at once
    /// (so a swap is a swap).
    mutating func renameColumns(_ substitution: [String: String]) {
        func rename(_ names: Set<String>) -> Set<String> { Set(names.map { substitution[$0].map(\.sqlFolded) ?? $0 }) }
        for index in columns.indices {
            if let new = substitution[columns[index].name.sqlFolded] {
                columns[index].name = new
                columns[index].nameText = SQL.quoteIdentifier(new)
            }
            for constraintIndex in columns[index].constraints.indices {
                columns[index].constraints[constraintIndex].text = renamingColumns(
                    substitution, in: columns[index].constraints[constraintIndex].text)
                columns[index].constraints[constraintIndex].identifiers = rename(
                    columns[index].constraints[constraintIndex].identifiers)
            }
        }
        for index in constraints.indices {
            constraints[index].text = renamingColumns(substitution, in: constraints[index].text)
            constraints[index].columns = constraints[index].columns.map { substitution[$0].map(\.sqlFolded) ?? $0 }
            constraints[index].identifiers = rename(constraints[index].identifiers)
        }
    }

    /// A clause's text with this table's columns renamed. A clause names columns only inside its
    /// parentheses (CHECK, generated expression, key column lists); outside them stand keywords
    /// (`PRIMARY KEY`, `ON CONFLICT REPLACE`, `GENERATED ALWAYS`) and other names, which a column
    /// called `key` or `replace` must not touch. A foreign key's referenced columns are another
    /// table's and stay, unless the key refers to this table itself, as SQLite's `RENAME COLUMN` does.
    private func renamingColumns(_ substitution: [String: String], in text: String) -> String {
        let tokenizer = SQLTokenizer(text)
        guard let tokens = try? tokenizer.tokens() else { return text }
        var (result, copied, depth, groupStart, otherTable) = ("", 0, 0, 0, false)
        for (index, token) in tokens.enumerated() {
            if token.kind == .leftParenthesis {
                if depth == 0 {
                    groupStart = token.end
                    otherTable =
                        index >= 2 && tokenizer.isKeyword(tokens[index - 2], "REFERENCES")
                        && tokenizer.name(of: tokens[index - 1]).sqlFolded != name.sqlFolded
                }
                depth += 1
            } else if token.kind == .rightParenthesis && depth > 0 {
                depth -= 1
                if depth == 0 && !otherTable {
                    result +=
                        tokenizer.text(copied, groupStart)
                        + TableDefinition.substitute(substitution, in: tokenizer.text(groupStart, token.start))
                    copied = token.start
                }
            }
        }
        return result + tokenizer.text(copied, tokenizer.bytes.count)
    }

    /// `sql` with every identifier in `substitution` (lower-cased old name → new name) replaced by
    /// the new name, quoted; function names (an identifier before `(`), collation, constraint and
    /// type names (after `COLLATE`, `CONSTRAINT`, `AS`), the name an index is created with, keywords
    /// in a keyword's place and string literals are left alone.
    static func substitute(_ substitution: [String: String], in sql: String) -> String {
        guard !substitution.isEmpty else { return sql }
        let tokenizer = SQLTokenizer(sql)
        guard let tokens = try? tokenizer.tokens() else { return sql }
        var result = ""
        var copied = 0
        for (position, token) in tokens.enumerated() where token.kind == .word || token.kind == .quotedIdentifier {
            guard let new = substitution[tokenizer.name(of: token).sqlFolded] else { continue }
            if position + 1 < tokens.count && tokens[position + 1].kind == .leftParenthesis { continue }
            if position > 0 {
                let previous = tokens[position - 1]
                // Collation, constraint and type names; the name an index or table is created with.
                if ["COLLATE", "CONSTRAINT", "AS", "INDEX", "TABLE", "EXISTS"].contains(where: {
                    tokenizer.isKeyword(previous, $0)
                }) {
                    continue
                }
                // A bare word right after an operand is a keyword SQLite also lets name a column
                // (`CASE … ELSE 0 END`, `a MATCH b`, `b DESC`), not a column reference.
                if token.kind == .word && endsOperand(previous, tokenizer) { continue }
            }
            result += tokenizer.text(copied, token.start) + SQL.quoteIdentifier(new)
            copied = token.end
        }
        return result + tokenizer.text(copied, tokenizer.bytes.count)
    }

    /// Keywords after which an operand (perhaps a column) comes.
    private static let operandKeywords: Set<String> = [
        "AND", "OR", "NOT", "WHEN", "THEN", "ELSE", "CASE", "IS", "IN", "BETWEEN", "LIKE", "GLOB",
        "MATCH", "REGEXP", "ESCAPE", "DISTINCT", "FROM", "SELECT", "WHERE", "ON", "BY",
        "SET", "VALUES", "HAVING", "RETURNING", "DEFAULT", "CHECK", "KEY", "UNIQUE", "ALL",
        "WITH", "USING", "JOIN", "IF", "DELETE", "OF",
    ]

    /// Whether `token` ends an operand: a name, a literal, `)`, or a bare word that is no operator keyword.
    private static func endsOperand(_ token: SQLTokenizer.Token, _ tokenizer: SQLTokenizer) -> Bool {
        switch token.kind {
        case .quotedIdentifier, .string, .number, .blob, .parameter, .rightParenthesis: return true
        case .word: return !operandKeywords.contains(tokenizer.text(of: token).uppercased())
        default: return false
        }
    }
}
