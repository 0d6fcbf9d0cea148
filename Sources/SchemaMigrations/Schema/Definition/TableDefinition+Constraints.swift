extension TableDefinition {
    /// Every constraint of the table a declaration's ``Schema/TableConstraint`` can say, as
    /// one: its table constraints, and the CHECK, UNIQUE and REFERENCES clauses written on its
    /// columns (a column's `UNIQUE` is `UNIQUE (column)` to SQLite, its `REFERENCES t` a
    /// `FOREIGN KEY (column) REFERENCES t`). A clause a declaration cannot say is left out.
    var declarableConstraints: [Schema.TableConstraint] {
        columns.flatMap { column in column.constraints.compactMap { Self.tableConstraint(of: $0, on: column.name) } }
            + constraints.compactMap { Schema.TableConstraint(parsing: $0.text) }
    }

    /// A column's CHECK, UNIQUE or REFERENCES clause as the table constraint it is to SQLite;
    /// nil for any other clause, or one a declaration cannot say.
    static func tableConstraint(of constraint: ColumnConstraint, on column: String) -> Schema.TableConstraint? {
        let text: String
        switch constraint.kind {
        case .check: text = constraint.text
        case .unique:
            // `CONSTRAINT n UNIQUE ON CONFLICT REPLACE` → `CONSTRAINT n UNIQUE ("c") ON CONFLICT REPLACE`.
            let tokenizer = SQLTokenizer(constraint.text)
            guard let tokens = try? tokenizer.tokens(),
                let unique = tokens.first(where: { tokenizer.isKeyword($0, "UNIQUE") })
            else { return nil }
            text =
                tokenizer.text(0, unique.end) + " (\(SQL.quoteIdentifier(column)))"
                + tokenizer.text(unique.end, tokenizer.bytes.count)
        case .references:
            // `CONSTRAINT n REFERENCES t (x) …` → `CONSTRAINT n FOREIGN KEY (c) REFERENCES t (x) …`.
            let tokenizer = SQLTokenizer(constraint.text)
            guard let tokens = try? tokenizer.tokens(),
                let references = tokens.first(where: { tokenizer.isKeyword($0, "REFERENCES") })
            else { return nil }
            text =
                tokenizer.text(0, references.start) + "FOREIGN KEY (\(SQL.quoteIdentifier(column))) "
                + tokenizer.text(references.start, tokenizer.bytes.count)
        default: return nil
        }
        return Schema.TableConstraint(parsing: text)
    }
}

extension TableDefinition {
    /// The conflict clause of the column's `NOT NULL`, nil when it has none (or no `NOT NULL`).
    func notNullConflict(of column: String) -> Schema.ConflictResolution? {
        self.column(named: column)?.constraints.lazy.filter { $0.kind == .notNull }
            .compactMap { Self.conflictResolution(in: $0.text) }.first
    }

    /// The primary key's conflict clause, written on its column or on the table; nil for none.
    var keyConflict: Schema.ConflictResolution? {
        for column in columns {
            for constraint in column.constraints where constraint.kind.isPrimaryKey {
                return Self.conflictResolution(in: constraint.text)
            }
        }
        return constraints.first { $0.kind == .primaryKey }.flatMap { Self.conflictResolution(in: $0.text) }
    }

    /// The resolution an `ON CONFLICT word` in a constraint's text names, nil when there is none.
    static func conflictResolution(in text: String) -> Schema.ConflictResolution? {
        let tokenizer = SQLTokenizer(text)
        guard let tokens = try? tokenizer.tokens() else { return nil }
        for position in tokens.indices.dropLast(2)
        where tokenizer.isKeyword(tokens[position], "ON") && tokenizer.isKeyword(tokens[position + 1], "CONFLICT") {
            return Schema.ConflictResolution(sql: tokenizer.text(of: tokens[position + 2]))
        }
        return nil
    }
}

extension TableDefinition {
    /// The key columns written in descending order (lower-cased): a column's `PRIMARY KEY DESC`,
    /// or a term `"a" DESC` of the table's `PRIMARY KEY (…)`.
    var descendingKeyColumns: Set<String> { descendingColumnKeys.union(descendingTableKeyColumns) }

    /// The columns whose own `PRIMARY KEY` is written `DESC` (lower-cased): an INTEGER one so
    /// written is no alias of the rowid, where `PRIMARY KEY ("id" DESC)` on the table still is.
    var descendingColumnKeys: Set<String> {
        Set(columns.filter { $0.constraints.contains { $0.isDescendingKey == true } }.map(\.name.sqlFolded))
    }

    /// The columns of the table's `PRIMARY KEY (…)` written `DESC` (lower-cased).
    var descendingTableKeyColumns: Set<String> {
        var result = Set<String>()
        for constraint in constraints where constraint.kind == .primaryKey {
            let tokenizer = SQLTokenizer(constraint.text)
            guard let tokens = try? tokenizer.tokens(),
                let open = tokens.firstIndex(where: { $0.kind == .leftParenthesis })
            else { continue }
            // Each term between the parentheses: its first token names the column, a last DESC orders it.
            var depth = 0
            var term: [SQLTokenizer.Token] = []
            for token in tokens[open...] {
                if token.kind == .leftParenthesis {
                    depth += 1
                    if depth == 1 { continue }
                }
                if token.kind == .rightParenthesis { depth -= 1 }
                if depth == 0 || (depth == 1 && token.kind == .comma) {
                    if let first = term.first, let last = term.last, term.count > 1, tokenizer.isKeyword(last, "DESC") {
                        result.insert(tokenizer.name(of: first).sqlFolded)
                    }
                    term = []
                    if depth == 0 { break }
                    continue
                }
                term.append(token)
            }
        }
        return result
    }
}
