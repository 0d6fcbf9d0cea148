extension TableDefinition {
    /// Replaces the column's own `CHECK` constraints with `CHECK (expression)`; nil removes them.
    /// Table `CHECK` constraints are the table's own and stay.
    mutating func setCheck(_ expression: String?, column: String) {
        guard let index = columnIndex(named: column) else { return }
        columns[index].constraints.removeAll { $0.kind == .check }
        if let expression {
            columns[index].constraints.append(
                .init(
                    kind: .check, text: "CHECK (\(expression))", identifiers: SQLTokenizer(expression).identifierSet()))
        }
    }

    /// Replaces the column's `COLLATE` clause; nil removes it (SQLite's `BINARY` then).
    mutating func setCollation(_ collation: String?, column: String) {
        guard let index = columnIndex(named: column) else { return }
        columns[index].constraints.removeAll { if case .collate = $0.kind { return true } else { return false } }
        if let collation {
            columns[index].constraints.append(
                .init(kind: .collate(collation), text: "COLLATE \(collation)", identifiers: []))
        }
    }

    /// The expressions of the column's own `CHECK` constraints.
    func checks(of column: String) -> [String] {
        self.column(named: column)?.constraints.filter { $0.kind == .check }.compactMap {
            SQLExpressionText.checkExpression(of: $0.text)
        } ?? []
    }

    /// The column's collating sequence, nil when it declares none (SQLite's `BINARY`).
    func collation(of column: String) -> String? {
        for constraint in self.column(named: column)?.constraints ?? [] {
            if case .collate(let name) = constraint.kind { return name }
        }
        return nil
    }
}

extension TableDefinition {
    /// Leaves out the constraints whose meaning one of `removed` has (written on the table, or
    /// on a column: a column's CHECK, UNIQUE or REFERENCES is that constraint to SQLite), then
    /// writes each of `added` after the others unless one with its meaning is there already. A
    /// constraint neither list speaks of (the application's own) stays as written.
    mutating func changeConstraints(removing removed: [Schema.TableConstraint], adding added: [Schema.TableConstraint])
        throws
    {
        guard !removed.isEmpty || !added.isEmpty else { return }
        func isRemoved(_ live: Schema.TableConstraint?) -> Bool {
            live.map { live in removed.contains { $0.isSatisfied(by: live) } } ?? false
        }
        for index in columns.indices {
            let name = columns[index].name
            var kept: [ColumnConstraint] = []
            var droppedReference = false
            for constraint in columns[index].constraints {
                // A DEFERRABLE written apart from its REFERENCES goes with it.
                if constraint.kind == .deferrable && droppedReference { continue }
                droppedReference = false
                if isRemoved(Self.tableConstraint(of: constraint, on: name)) {
                    if case .references = constraint.kind { droppedReference = true }
                    continue
                }
                kept.append(constraint)
            }
            columns[index].constraints = kept
        }
        constraints.removeAll { isRemoved(Schema.TableConstraint(parsing: $0.text)) }
        var present = declarableConstraints
        for constraint in added where !present.contains(where: constraint.isSatisfied(by:)) {
            present.append(constraint)
            constraints += try TableDefinition(parsing: "CREATE TABLE t (x, \(constraint.sql))").constraints
        }
    }
}
