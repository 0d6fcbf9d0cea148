extension Schema {
    /// Checks the views, triggers and virtual tables are well formed: each a single `CREATE`
    /// statement of the kind declared, naming a new object of the main database, with a name no
    /// table, index or other object takes. What SQLite itself accepts is ``DeclaredSQLCheck``'s.
    /// - Throws: `MigrationError` with code `invalidSchema` naming the object.
    func validateSQLObjects(indexNames: [String: String]) throws {
        var taken: [String: String] = [:]
        for entity in entities { taken[entity.name.sqlFolded] = "the entity '\(entity.name)'" }
        for (name, entity) in indexNames where taken[name] == nil { taken[name] = "an index of '\(entity)'" }
        for (position, object) in sqlObjects.enumerated() {
            let statement = object.statement
            let label =
                statement.name.map { "the \(object.kind.words) '\($0)'" } ?? "the \(object.kind.words) #\(position + 1)"
            func fail(_ message: String, remedy: String) -> MigrationError {
                MigrationError(.invalidSchema, message, entity: statement.name, version: version, remedy: remedy)
            }
            let example = "CREATE \(object.kind.keywords.joined(separator: " ")) name …"
            guard let kind = statement.kind, let name = statement.name, !name.isEmpty else {
                throw fail(
                    "\(label) of version \(version) is not a `\(example)` statement: \(object.sql.prefix(80))",
                    remedy: "write the whole statement as the sqlite3 shell takes it, starting `\(example)`")
            }
            guard kind == object.kind else {
                throw fail(
                    "'\(name)' of version \(version) is declared a \(object.kind.words), but its SQL creates a \(kind.words)",
                    remedy: "declare it with .\(kind.rawValue)(…)")
            }
            // Split where SQLite would: a semicolon in a string or a trigger's body ends nothing.
            let statements = SQL.statements(in: object.sql).count
            guard statements == 1 else {
                throw fail(
                    "the SQL of \(label) of version \(version) holds \(statements) statements; it runs as it is written, so it may hold only its CREATE",
                    remedy: "declare each view, trigger or virtual table on its own, one CREATE statement each")
            }
            guard !statement.isTemporary else {
                throw fail(
                    "\(label) of version \(version) is TEMP: it would vanish when the connection closes",
                    remedy: "remove TEMP; the application creates its temporary objects itself")
            }
            if let schemaName = statement.schemaName, schemaName.sqlFolded != "main" {
                throw fail(
                    "\(label) of version \(version) is created in the database '\(schemaName)', not in the file migrated",
                    remedy: "remove '\(schemaName).' from its name")
            }
            if Schema.isReservedTableName(name) {
                throw fail(
                    "'\(name)' is a reserved name (SQLite reserves 'sqlite_…'; SchemaMigrations reserves '\(TableNames.metadata)' and '\(TableNames.temporaryPrefix)…')",
                    remedy: "rename the \(object.kind.words)")
            }
            if let other = taken[name.sqlFolded] {
                throw fail(
                    "\(label) of version \(version) has the name of \(other) (SQLite's tables, indexes, views and triggers share one space of names, ignoring case)",
                    remedy: "rename one of them")
            }
            taken[name.sqlFolded] = label
        }
    }
}

extension Schema {
    /// Checks the header values the version sets fit SQLite's signed 32-bit fields.
    /// - Throws: `MigrationError` with code `invalidSchema` naming the pragma and the value.
    func validateHeader() throws {
        for (pragma, value) in [("application_id", applicationID), ("user_version", userVersion)] {
            guard let value, value < Int(Int32.min) || value > Int(Int32.max) else { continue }
            throw MigrationError(
                .invalidSchema,
                "version \(version) sets \(pragma) to \(value), which SQLite's 32-bit header field cannot hold",
                version: version, remedy: "give a value from \(Int32.min) to \(Int32.max)")
        }
    }
}
