extension Schema {
    /// Checks an entity's table constraints against the version: a CHECK is one expression;
    /// UNIQUE and foreign key columns are the entity's, each once; a foreign key references an
    /// entity of the version, as many columns as it has, which are that entity's primary key or
    /// a unique index or constraint of it (otherwise SQLite reports "foreign key mismatch" on the
    /// first write, not at `CREATE TABLE`); two constraints do not mean the same.
    func validateConstraints(of entity: Entity) throws {
        func fail(_ message: String, remedy: String) -> MigrationError {
            MigrationError(.invalidSchema, message, entity: entity.name, version: version, remedy: remedy)
        }
        let columns = Set(
            (entity.hasImplicitID ? [Schema.primaryKeyColumn] : []) + entity.attributes.map(\.name.sqlFolded))
        var declared: [TableConstraint] = []
        for constraint in entity.constraints {
            let label = "the constraint `\(constraint.sql)` of '\(entity.name)'"
            if let name = constraint.name, name.isEmpty {
                throw fail("\(label) has an empty name", remedy: "name it, or leave its name out (name: nil)")
            }
            let isUnique = if case .unique = constraint.kind { true } else { false }
            if let resolution = constraint.onConflict, !isUnique {
                throw fail(
                    "\(label) has the conflict clause ON CONFLICT \(resolution.rawValue), which only a UNIQUE constraint takes",
                    remedy: "leave onConflict out, or give it to a .unique constraint")
            }
            switch constraint.kind {
            case .check(let expression):
                guard SQLExpressionText.isOneExpression(expression) else {
                    throw fail(
                        "\(label) is not one SQL expression: \(expression)",
                        remedy:
                            "write one expression over the table's columns, with balanced parentheses and no ';', such as endDate >= startDate"
                    )
                }
            case .unique, .foreignKey:
                let listed = constraint.columns
                guard !listed.isEmpty else {
                    throw fail("\(label) lists no columns", remedy: "list at least one property")
                }
                if let unknown = listed.first(where: { !columns.contains($0.sqlFolded) }) {
                    throw fail(
                        "\(label) names '\(unknown)', which is not an attribute of '\(entity.name)'",
                        remedy: "use one of: \(entity.attributes.map(\.property).joined(separator: ", "))")
                }
                if Set(listed.map(\.sqlFolded)).count != listed.count {
                    throw fail("\(label) lists a column twice", remedy: "list each property once")
                }
            }
            if case .foreignKey(let key) = constraint.kind { try validate(key, of: entity, label: label) }
            if let first = declared.first(where: { $0.meaning == constraint.meaning }) {
                throw fail(
                    "'\(entity.name)' declares the constraint `\(constraint.sql)` twice: `\(first.sql)` means the same",
                    remedy: "remove one of them")
            }
            declared.append(constraint)
        }
    }

    private func validate(_ key: TableConstraint.ForeignKey, of entity: Entity, label: String) throws {
        func fail(_ message: String, remedy: String) -> MigrationError {
            MigrationError(.invalidSchema, message, entity: entity.name, version: version, remedy: remedy)
        }
        guard let target = self.entity(named: key.table) else {
            throw fail(
                "\(label) references '\(key.table)', which version \(version) does not declare",
                remedy: "add \(key.table) to the version's models, or correct the reference")
        }
        let referenced = key.referencedColumns ?? target.keyColumns
        guard referenced.count == key.columns.count else {
            throw fail(
                "\(label) has \(key.columns.count) columns but references \(referenced.count) of '\(target.name)' (\(referenced.joined(separator: ", ")))",
                remedy: "list as many referenced columns as referencing ones")
        }
        let targetColumns = Set(
            (target.hasImplicitID ? [Schema.primaryKeyColumn] : []) + target.attributes.map(\.name.sqlFolded))
        if let unknown = referenced.first(where: { !targetColumns.contains($0.sqlFolded) }) {
            throw fail(
                "\(label) references '\(target.name).\(unknown)', which is not a column of '\(target.name)'",
                remedy: "use column names of \(target.name): \(target.attributes.map(\.name).joined(separator: ", "))")
        }
        let wanted = Set(referenced.map(\.sqlFolded))
        let uniqueSets =
            [target.keyColumns] + target.uniqueness.filter { $0.predicate == nil && $0.elements == nil }.map(\.columns)
            + target.constraints.compactMap { if case .unique(let columns) = $0.kind { columns } else { nil } }
        guard uniqueSets.contains(where: { Set($0.map(\.sqlFolded)) == wanted && $0.count == wanted.count }) else {
            throw fail(
                "\(label) references (\(referenced.joined(separator: ", "))) of '\(target.name)', which is neither its primary key nor unique: SQLite would refuse every write with \"foreign key mismatch\"",
                remedy:
                    "reference \(target.name)'s primary key (\(target.keyColumns.joined(separator: ", "))), or declare those columns unique there"
            )
        }
    }
}
