extension Schema.TableConstraint {
    /// The constraint a table constraint clause of a `CREATE TABLE` writes (`CONSTRAINT x CHECK
    /// (a > 0)`, `UNIQUE (a, b)`, `FOREIGN KEY (a, b) REFERENCES t (x, y) ON DELETE CASCADE`);
    /// nil for a `PRIMARY KEY`, a bare `CONSTRAINT name`, and a clause a declaration cannot say:
    /// a collated or ordered column in a `UNIQUE`. A `UNIQUE`'s conflict clause is kept; a
    /// `CHECK`'s conflict clause and a foreign key's `ON INSERT`, which SQLite parses and
    /// ignores, are left out.
    init?(parsing text: String) {
        let tokenizer = SQLTokenizer(text)
        guard var tokens = try? tokenizer.tokens() else { return nil }
        var onConflict: Schema.ConflictResolution?
        if tokens.count >= 3, tokenizer.isKeyword(tokens[tokens.count - 3], "ON"),
            tokenizer.isKeyword(tokens[tokens.count - 2], "CONFLICT")
        {
            guard let resolution = Schema.ConflictResolution(sql: tokenizer.text(of: tokens[tokens.count - 1])) else {
                return nil
            }
            onConflict = resolution
            tokens.removeLast(3)
        }
        var position = 0
        func accept(_ keyword: String) -> Bool {
            guard position < tokens.count, tokenizer.isKeyword(tokens[position], keyword) else { return false }
            position += 1
            return true
        }
        func identifier() -> String? {
            guard position < tokens.count,
                [.word, .quotedIdentifier, .string].contains(tokens[position].kind)
            else { return nil }
            position += 1
            return tokenizer.name(of: tokens[position - 1])
        }
        func accept(_ kind: SQLTokenizer.Kind) -> Bool {
            guard position < tokens.count, tokens[position].kind == kind else { return false }
            position += 1
            return true
        }
        func names() -> [String]? {
            guard accept(.leftParenthesis) else { return nil }
            var result: [String] = []
            repeat {
                guard let name = identifier() else { return nil }
                result.append(name)
            } while accept(.comma)
            return accept(.rightParenthesis) ? result : nil
        }
        var name: String?
        while accept("CONSTRAINT") {
            guard let constraintName = identifier() else { return nil }
            name = constraintName
        }
        let kind: Kind
        if accept("CHECK") {
            guard position < tokens.count, tokens[position].kind == .leftParenthesis,
                tokens.last?.kind == .rightParenthesis,
                SQLExpressionText.isParenthesized(tokenizer.text(tokens[position].start, tokens.last!.end))
            else { return nil }
            kind = .check(tokenizer.text(tokens[position].end, tokens.last!.start))
            position = tokens.count
        } else if accept("UNIQUE") {
            guard let columns = names() else { return nil }
            kind = .unique(columns)
        } else if accept("FOREIGN") {
            guard accept("KEY"), let columns = names(), accept("REFERENCES"), let table = identifier() else {
                return nil
            }
            var key = ForeignKey(columns: columns, table: table)
            if position < tokens.count && tokens[position].kind == .leftParenthesis {
                guard let referenced = names() else { return nil }
                key.referencedColumns = referenced
            }
            while position < tokens.count {
                if accept("ON") {
                    // `ON INSERT action`: SQLite parses it and ignores it (parse.y's `refarg ::= ON
                    // INSERT refact`), so the key means what it means without it.
                    let onInsert = accept("INSERT")
                    let onDelete = !onInsert && accept("DELETE")
                    guard onInsert || onDelete || accept("UPDATE") else { return nil }
                    let action: Schema.ForeignKeyAction
                    if accept("SET") {
                        if accept("NULL") {
                            action = .setNull
                        } else if accept("DEFAULT") {
                            action = .setDefault
                        } else {
                            return nil
                        }
                    } else if accept("NO") {
                        guard accept("ACTION") else { return nil }
                        action = .noAction
                    } else if accept("CASCADE") {
                        action = .cascade
                    } else if accept("RESTRICT") {
                        action = .restrict
                    } else {
                        return nil
                    }
                    if onInsert { continue }
                    if onDelete { key.onDelete = action } else { key.onUpdate = action }
                } else if accept("MATCH") {
                    guard let match = identifier() else { return nil }
                    key.match = match
                } else {
                    let not = accept("NOT")
                    guard accept("DEFERRABLE") else { return nil }
                    var sql = (not ? "NOT " : "") + "DEFERRABLE"
                    if accept("INITIALLY") {
                        if accept("DEFERRED") {
                            sql += " INITIALLY DEFERRED"
                        } else if accept("IMMEDIATE") {
                            sql += " INITIALLY IMMEDIATE"
                        } else {
                            return nil
                        }
                    }
                    key.deferrable = Schema.ForeignKeyTiming(rawValue: sql)
                }
            }
            kind = .foreignKey(key)
        } else {
            return nil
        }
        guard position == tokens.count else { return nil }
        switch kind {
        case .unique: self.init(kind, name: name, onConflict: onConflict)
        case .check: self.init(kind, name: name)
        case .foreignKey:
            guard onConflict == nil else { return nil }
            self.init(kind, name: name)
        }
    }
}

extension Schema.TableConstraint.ForeignKey {
    /// A key over `columns` onto `table`, its clauses left out.
    init(columns: [String], table: String) {
        self.init(
            columns: columns, table: table, referencedColumns: nil, onDelete: nil, onUpdate: nil, match: nil,
            deferrable: nil)
    }
}
