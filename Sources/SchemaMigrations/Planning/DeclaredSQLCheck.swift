/// Checks, before anything runs, that SQLite accepts the SQL a version declares for generated
/// columns and for indexes with expressions or a `WHERE`: the entity's table and those indexes are
/// created in a private in-memory database, never in the user's file.
///
/// A misspelt column or function, a subquery, or a non-deterministic function (`random()`) is
/// refused with the entity, the column or index, and SQLite's own message. A collation the app
/// registers on its connection cannot be seen here, so an unknown collation is not refused.
enum DeclaredSQLCheck {
    /// - Throws: `MigrationError` (`invalidSchema`) naming the entity and the generated column or
    ///   index SQLite rejects.
    /// - Complexity: nothing for an entity without such SQL; otherwise a table and its indexes
    ///   created in memory (microseconds).
    static func check(_ entity: Schema.Entity, version: Schema.Version) throws {
        let generated = entity.attributes.filter { $0.generated != nil }
        let indexes = entity.indexes.filter(\.hasExpressions)
        guard !generated.isEmpty || !indexes.isEmpty else { return }
        guard let db = try? SQLiteConnection(path: ":memory:") else { return }
        func rejected(_ error: Error) -> SQLiteError? {
            guard let error = error as? SQLiteError, !error.message.hasPrefix("no such collation sequence") else { return nil }
            return error
        }
        do {
            try db.execute(EntitySQL.createTable(entity))
        } catch {
            guard let error = rejected(error) else { return }
            // Which generated column: the one SQLite refuses alone.
            var culprit: Schema.Attribute?
            for attribute in generated {
                var alone = entity
                alone.attributes = entity.attributes.filter { $0.generated == nil || $0.name == attribute.name }
                do {
                    try db.execute(EntitySQL.createTable(alone, named: "probe"))
                    try? db.execute("DROP TABLE probe")
                } catch {
                    culprit = attribute
                    break
                }
            }
            let what = culprit.map { "the generated column '\(entity.name).\($0.property)', `\($0.generated!.clause)`," } ?? "the table '\(entity.name)'"
            throw MigrationError(.invalidSchema, "SQLite rejects \(what): \(error.message)", entity: entity.name, property: culprit?.property,
                                 version: version,
                                 remedy: "write a deterministic expression over the table's columns (column names as the table spells them), with SQLite's built-in functions and no subquery",
                                 sqliteError: error)
        }
        for index in indexes {
            do {
                try db.execute(EntitySQL.createIndex(index, table: entity.name))
            } catch {
                guard let error = rejected(error) else { continue }
                throw MigrationError(.invalidSchema, "SQLite rejects the index \(index.resolvedName(table: entity.name)) of '\(entity.name)', \(index.termsDescription): \(error.message)",
                                     entity: entity.name, version: version,
                                     remedy: "write deterministic expressions over the table's columns (column names as the table spells them), with SQLite's built-in functions and no subquery",
                                     sqliteError: error)
            }
        }
    }
}
