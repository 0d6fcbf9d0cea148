/// Checks, before anything runs, that SQLite accepts every piece of SQL a version declares:
/// `CHECK`s, default expressions, SQL types, generated columns, and indexes with expressions or a
/// `WHERE`. The entity's table and those indexes are created in a private in-memory database,
/// never in the user's file.
///
/// A syntax error, a misspelt column or function, a subquery, or a non-deterministic function
/// (`random()`) in a generated column is refused with the entity, the property or index, and
/// SQLite's own message. The connection has the application's ``SQLEnvironment``, so a function
/// it registers is accepted. An unknown collation is not refused here: the migration's own
/// connection says whether it has it (``SQLEnvironmentCheck``).
enum DeclaredSQLCheck {
    /// - Throws: `MigrationError` (`invalidSchema`) naming the entity and the property or index
    ///   whose SQL SQLite rejects.
    /// - Complexity: nothing for an entity without declared SQL; otherwise a table and its
    ///   indexes created in memory (microseconds).
    static func check(_ entity: Schema.Entity, version: Schema.Version, environment: SQLEnvironment = .none) throws {
        let declaring = entity.attributes.filter(declaresSQL)
        let indexes = entity.indexes.filter(\.hasExpressions)
        guard !declaring.isEmpty || !indexes.isEmpty || !entity.constraints.isEmpty else { return }
        let db: SQLiteConnection
        do {
            db = try SQLiteConnection(path: ":memory:")
        } catch let error as SQLiteError {
            // Never skipped: a check that cannot run would let SQL SQLite refuses reach the file.
            throw MigrationError(
                .sqlite,
                "cannot open an in-memory database to check the SQL '\(entity.name)' declares; nothing was changed",
                entity: entity.name, version: version, remedy: "free memory and run again", sqliteError: error)
        }
        try db.apply(environment)
        do {
            try db.execute(EntitySQL.createTable(entity))
        } catch {
            guard let error = rejected(error) else { return }
            // Which property: the one SQLite refuses when it alone keeps its SQL.
            let culprit = declaring.first { attribute in
                var alone = entity
                alone.attributes = entity.attributes.map { $0.name == attribute.name ? $0 : plain($0) }
                alone.constraints = []
                return rejects(alone, in: db)
            }
            if culprit == nil, let constraint = culpritConstraint(of: entity, in: db) {
                throw MigrationError(
                    .invalidSchema,
                    "SQLite rejects the constraint `\(constraint.sql)` of '\(entity.name)': \(error.message)",
                    entity: entity.name, version: version,
                    remedy: missingRemedy(error)
                        ?? "correct the constraint (a CHECK names columns as the table spells them)",
                    sqliteError: error)
            }
            throw MigrationError(
                .invalidSchema,
                "SQLite rejects \(culprit.map { describe($0, of: entity) } ?? "the table '\(entity.name)'"): \(error.message)",
                entity: entity.name, property: culprit?.property, version: version,
                remedy: missingRemedy(error) ?? culprit.map(remedy)
                    ?? "correct the SQL the entity declares (column names as the table spells them)",
                sqliteError: error)
        }
        for index in indexes {
            do {
                try db.execute(EntitySQL.createIndex(index, table: entity.name))
            } catch {
                guard let error = rejected(error) else { continue }
                throw MigrationError(
                    .invalidSchema,
                    "SQLite rejects the index \(index.resolvedName(table: entity.name)) of '\(entity.name)', \(index.termsDescription): \(error.message)",
                    entity: entity.name, version: version,
                    remedy: missingRemedy(error)
                        ?? "write deterministic expressions over the table's columns (column names as the table spells them), with SQLite's built-in functions and no subquery",
                    sqliteError: error)
            }
        }
    }

    /// Checks every entity of every version: what `lint` runs, so that a version no stage
    /// creates (the first one) is checked too.
    static func check(_ schemas: [Schema], environment: SQLEnvironment = .none) throws {
        for schema in schemas {
            for entity in schema.entities { try check(entity, version: schema.version, environment: environment) }
            try checkSQLObjects(of: schema, environment: environment)
        }
    }

    /// Creates the version's tables and then its views, triggers and virtual tables, in the order
    /// declared, in a private in-memory database; after each one, SQLite re-reads the whole schema
    /// (as every `ALTER TABLE` of a migration does), so a view or trigger naming a table or column
    /// that does not exist, or an object declared before one it reads, is refused here, naming it.
    /// A virtual table whose module the connection lacks is left to ``SQLEnvironmentCheck``.
    /// - Throws: `MigrationError` (`invalidSchema`) naming the object and SQLite's message.
    static func checkSQLObjects(of schema: Schema, environment: SQLEnvironment = .none) throws {
        guard !schema.sqlObjects.isEmpty else { return }
        let db = try inMemory(checking: "the views and triggers of version \(schema.version)", version: schema.version)
        try db.apply(environment)
        var complete = true
        for entity in try StorageLayout.expand(schema).entities {
            // A table SQLite cannot make here (a collation only the app's connection has) was
            // refused already, or is the migration connection's to judge: what reads it is not checked.
            do { try db.execute(EntitySQL.createTable(entity)) } catch { complete = false }
        }
        let modules = Set(
            try db.rows("SELECT name FROM pragma_module_list").compactMap { $0.first?.stringValue?.sqlFolded })
        // A reserved name: no entity or object of a version can take it.
        let probe = SQL.quoteIdentifier(TableNames.temporaryPrefix + "probe")
        let renamed = SQL.quoteIdentifier(TableNames.temporaryPrefix + "probe_renamed")
        for object in schema.sqlObjects {
            if object.kind == .virtualTable, let module = object.statement.module,
                !modules.contains(module.sqlFolded)
            {
                complete = false  // what reads it cannot be checked here either
                continue
            }
            do {
                try db.execute(object.sql)
                try db.execute("CREATE TABLE \(probe) (x)")
                try db.execute("ALTER TABLE \(probe) RENAME TO \(renamed)")
                try db.execute("DROP TABLE \(renamed)")
            } catch let error as SQLiteError {
                if !complete { return }
                throw MigrationError(
                    .invalidSchema, "SQLite rejects the \(object) of version \(schema.version): \(error.message)",
                    entity: object.name, version: schema.version,
                    remedy: missingRemedy(error)
                        ?? "correct its SQL; objects are created after every table, in the order declared: declare a view before the views and triggers that read it",
                    sqliteError: error)
            }
        }
    }

    private static func inMemory(checking what: String, version: Schema.Version) throws -> SQLiteConnection {
        do {
            return try SQLiteConnection(path: ":memory:")
        } catch let error as SQLiteError {
            // Never skipped: a check that cannot run would let SQL SQLite refuses reach the file.
            throw MigrationError(
                .sqlite, "cannot open an in-memory database to check \(what); nothing was changed",
                version: version, remedy: "free memory and run again", sqliteError: error)
        }
    }

    /// Whether the attribute carries SQL text of its own for SQLite to parse.
    private static func declaresSQL(_ attribute: Schema.Attribute) -> Bool {
        attribute.check != nil || attribute.generated != nil || attribute.sqlType != nil
            || attribute.defaultValue.map(SQLExpressionText.isParenthesized) == true
    }

    /// The attribute without the SQL text under suspicion (its type, optionality and key kept).
    private static func plain(_ attribute: Schema.Attribute) -> Schema.Attribute {
        var plain = attribute
        plain.check = nil
        plain.generated = nil
        plain.sqlType = nil
        if attribute.defaultValue.map(SQLExpressionText.isParenthesized) == true { plain.defaultValue = nil }
        return plain
    }

    /// An error SQLite raises for the declaration itself; nil for a collation the app's own
    /// connection may register (read from SQLite's message by ``SQLEnvironmentNeed``, the one
    /// place that knows its words).
    private static func rejected(_ error: Error) -> SQLiteError? {
        guard let error = error as? SQLiteError, SQLEnvironmentNeed(error)?.kind != .collation else { return nil }
        return error
    }

    /// For a function SQLite does not know: spell it as SQLite does, or register it as the application does.
    private static func missingRemedy(_ error: SQLiteError) -> String? {
        guard let need = SQLEnvironmentNeed(message: error.message), need.kind == .function else { return nil }
        return "check the spelling of \(need.name); if the application registers it, "
            + SQLEnvironmentNeed.remedy(for: [need])
    }

    private static func describe(_ attribute: Schema.Attribute, of entity: Schema.Entity) -> String {
        let label = "'\(entity.name).\(attribute.property)'"
        if let generated = attribute.generated { return "the generated column \(label), `\(generated.clause)`," }
        if let check = attribute.check { return "the CHECK of \(label), `CHECK (\(check))`," }
        if let defaultValue = attribute.defaultValue, SQLExpressionText.isParenthesized(defaultValue) {
            return "the default of \(label), `DEFAULT \(defaultValue)`,"
        }
        return "the SQL type of \(label), `\(attribute.declaredType)`,"
    }

    private static func remedy(_ attribute: Schema.Attribute) -> String {
        attribute.generated != nil
            ? "write a deterministic expression over the table's columns (column names as the table spells them), with SQLite's built-in functions and no subquery"
            : "correct the SQL: one expression over the table's columns (column names as the table spells them), as the sqlite3 shell accepts it in CREATE TABLE"
    }

    /// The first table constraint SQLite refuses on the table without the others.
    private static func culpritConstraint(of entity: Schema.Entity, in db: SQLiteConnection) -> Schema.TableConstraint?
    {
        entity.constraints.first { constraint in
            var alone = entity
            alone.attributes = entity.attributes.map(plain)
            alone.constraints = [constraint]
            return rejects(alone, in: db)
        }
    }

    /// Whether SQLite refuses `entity`'s table (made as `probe`, then dropped) for its SQL.
    private static func rejects(_ entity: Schema.Entity, in db: SQLiteConnection) -> Bool {
        do {
            try db.execute(EntitySQL.createTable(entity, named: "probe"))
            try? db.execute("DROP TABLE probe")
            return false
        } catch {
            return rejected(error) != nil
        }
    }
}
