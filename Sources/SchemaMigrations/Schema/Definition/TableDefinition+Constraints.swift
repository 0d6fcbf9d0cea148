extension TableDefinition {
    /// Every constraint of the table a declaration's ``Schema/TableConstraint`` can say, as
    /// one: its table constraints, and the CHECK, UNIQUE and REFERENCES clauses written on its
    /// columns (a column's `UNIQUE` is `UNIQUE (column)` to SQLite, its `REFERENCES t` a
    /// `FOREIGN KEY (column) REFERENCES t`). A clause a declaration cannot say is left out.
    var declarableConstraints: [Schema.TableConstraint] {
        var result: [Schema.TableConstraint] = []
        for column in columns {
            for constraint in column.constraints {
                let text: String
                switch constraint.kind {
                case .check: text = constraint.text
                case .unique: text = constraint.text + " (\(SQL.quoteIdentifier(column.name)))"
                case .references:
                    // `CONSTRAINT n REFERENCES t (x) …` → `CONSTRAINT n FOREIGN KEY (c) REFERENCES t (x) …`.
                    let tokenizer = SQLTokenizer(constraint.text)
                    guard let tokens = try? tokenizer.tokens(),
                        let references = tokens.first(where: { tokenizer.isKeyword($0, "REFERENCES") })
                    else { continue }
                    text =
                        tokenizer.text(0, references.start) + "FOREIGN KEY (\(SQL.quoteIdentifier(column.name))) "
                        + tokenizer.text(references.start, tokenizer.bytes.count)
                default: continue
                }
                if let parsed = Schema.TableConstraint(parsing: text) { result.append(parsed) }
            }
        }
        // A DEFERRABLE written apart from its column's REFERENCES is read with the table's text
        // by the comparison of single-column keys; a table constraint carries its own.
        result += constraints.compactMap { Schema.TableConstraint(parsing: $0.text) }
        return result
    }
}
