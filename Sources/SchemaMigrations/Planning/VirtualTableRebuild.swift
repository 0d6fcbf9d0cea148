/// A declared virtual table whose SQL changed: the new definition is made under a free temporary
/// name, the old one's rows are copied into it (the visible columns both have, by name, and the
/// rowid where the module keeps one: FTS3/4/5), the old one is dropped and the new one takes its
/// name. Views and triggers that read it are dropped before and made again after (the planner's
/// ``SQLObjectChange/reads(_:)``).
///
/// Which columns the new definition has is learnt from the module itself: it is made for a moment
/// in the `temp` schema inside a savepoint rolled back at once, so nothing of it stays and the
/// dry run, which records only what is kept, does not show it.
struct VirtualTableRebuild {
    let from: Schema.SQLObject
    let to: Schema.SQLObject

    /// Modules whose tables keep an explicit rowid that the copy must carry (FTS's document ids).
    private static let rowidModules: Set<String> = ["fts3", "fts4", "fts5"]

    /// The statements as planned without the database: every column copied by position.
    var declaredStatements: [String] {
        let temporary = TableNames.temporaryPrefix + to.name
        return statements(temporary: temporary, columns: nil)
    }

    /// The statements as they run on `db`, its names and both tables' columns read.
    func statements(on db: any SQLQuerying) throws -> [String] {
        let taken = Set(
            try db.rows("SELECT name FROM sqlite_schema").compactMap { $0.first?.stringValue?.sqlFolded })
        let temporary = TemporaryName.free(TableNames.temporaryPrefix + to.name, avoiding: taken)
        let old = try visibleColumns(of: "main", SQL.quoteIdentifier(from.name), db: db)
        let probe = TemporaryName.free(TableNames.temporaryPrefix + "probe", avoiding: taken)
        try db.execute("SAVEPOINT schema_migrations_probe")
        let new: [String]
        do {
            try db.execute(to.sql(namedSQL: "temp." + SQL.quoteIdentifier(probe)))
            new = try visibleColumns(of: "temp", SQL.quoteIdentifier(probe), db: db)
        } catch {
            try db.execute("ROLLBACK TO schema_migrations_probe; RELEASE schema_migrations_probe")
            throw error
        }
        try db.execute("ROLLBACK TO schema_migrations_probe; RELEASE schema_migrations_probe")
        let kept = new.filter { column in old.contains { $0.sqlFolded == column.sqlFolded } }
        return statements(temporary: temporary, columns: kept)
    }

    private func statements(temporary: String, columns: [String]?) -> [String] {
        let module = to.statement.module?.sqlFolded
        let rowid =
            module.map(Self.rowidModules.contains) == true && module == from.statement.module?.sqlFolded
        let names = (rowid ? ["rowid"] : []) + (columns?.map(SQL.quoteIdentifier) ?? [])
        let copy =
            columns == nil
            ? "INSERT INTO \(SQL.quoteIdentifier(temporary)) SELECT * FROM \(SQL.quoteIdentifier(from.name))"
            : "INSERT INTO \(SQL.quoteIdentifier(temporary)) (\(names.joined(separator: ", "))) SELECT \(names.joined(separator: ", ")) FROM \(SQL.quoteIdentifier(from.name))"
        return [
            to.sql(namedSQL: SQL.quoteIdentifier(temporary)),
            copy,
            "DROP TABLE \(SQL.quoteIdentifier(from.name))",
            "ALTER TABLE \(SQL.quoteIdentifier(temporary)) RENAME TO \(SQL.quoteIdentifier(to.name))",
        ]
    }

    /// The columns a `SELECT *` shows (hidden ones, as FTS's rank, left out).
    private func visibleColumns(of schema: String, _ table: String, db: any SQLQuerying) throws -> [String] {
        try db.rows("PRAGMA \(schema).table_xinfo(\(table))").compactMap { row in
            guard row.count > 6, case .integer(0) = row[6] else { return nil }
            return row[1].stringValue
        }
    }
}
