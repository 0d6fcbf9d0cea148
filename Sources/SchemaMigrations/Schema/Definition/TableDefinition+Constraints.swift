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
        case .unique: text = constraint.text + " (\(SQL.quoteIdentifier(column)))"
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
