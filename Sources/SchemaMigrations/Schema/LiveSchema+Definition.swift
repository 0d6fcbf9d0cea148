extension LiveSchema.Table {
    /// The table's full definition, parsed from its `CREATE TABLE` text as `sqlite_schema` keeps
    /// it (SQLite writes a plain column list for a table made by `CREATE TABLE … AS SELECT`).
    /// - Throws: `MigrationError` (`unsupportedChange`) when the text cannot be read.
    func definition() throws -> TableDefinition {
        do {
            return try TableDefinition(parsing: sql)
        } catch let error as TableDefinition.ParseError {
            throw MigrationError(
                .unsupportedChange,
                "cannot read the definition of table \(name) to rebuild it (\(error.message)); nothing was changed",
                entity: name,
                remedy:
                    "report this as a bug with the table's CREATE TABLE statement; until then, change this table in a custom stage with SQL"
            )
        }
    }

    /// Whether a column is an alias of the rowid (`INTEGER PRIMARY KEY`, the only key column):
    /// copying it copies the rowid.
    ///
    /// `INTEGER PRIMARY KEY DESC` written on the column is the exception SQLite keeps for
    /// compatibility: that column is not an alias, and the table has rowids of its own
    /// (<https://www.sqlite.org/lang_createtable.html#rowid>).
    var hasRowidAlias: Bool {
        guard let definition = try? TableDefinition(parsing: sql) else { return false }
        return hasRowidAlias(definition: definition)
    }

    /// ``hasRowidAlias``, given the table's parsed definition.
    func hasRowidAlias(definition: TableDefinition) -> Bool {
        let keyColumns = columns.filter { $0.primaryKeyPosition > 0 }
        guard keyColumns.count == 1, keyColumns[0].declaredType.uppercased() == "INTEGER", !definition.withoutRowid
        else { return false }
        return
            !(definition.column(named: keyColumns[0].name)?.constraints.contains { $0.isDescendingKey == true }
            ?? false)
    }
}
