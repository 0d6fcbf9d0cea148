/// The rows that pointed at missing parents before a stage, which the stage may keep: recorded
/// in a temporary table of the migration's connection, so that a database with a million such
/// rows costs the migration no memory for them. The foreign key check after the stage reads its
/// own violations against this table in SQL (``ForeignKeyGuard/check(tolerating:version:)``).
///
/// The table is created inside the migration's transaction: a failure rolls it back with
/// everything else, and ``release()`` drops it once the stage passed.
struct ToleratedViolations {
    /// The temporary table's name, in the name space the package reserves on a connection.
    static let name = "_schema_migrations_tolerated_violations"
    /// The table, qualified by the temporary schema.
    static let table = "temp." + SQL.quoteIdentifier(name)

    let db: any SQLQuerying

    /// The violations of `tables` (named as after `stage`) as the database has them before the
    /// stage, named as after it: the stage may rename the violating tables and their parents
    /// alike. Tables the stage creates had none.
    static func record(before stage: PlannedStage, in tables: [String], db: any SQLQuerying) throws
        -> ToleratedViolations
    {
        var renamed: [String: String] = [:]  // lowercased source name -> target name
        for step in stage.allSteps {
            guard case .renameTable(let from, let to) = step.action else { continue }
            // Follow chains (A → temporary → B, as a permutation of names needs).
            if let source = renamed.first(where: { $0.value.sqlFolded == from.sqlFolded })?.key {
                renamed[source] = to
            } else {
                renamed[from.sqlFolded] = to
            }
        }
        let sourceNames = Dictionary(
            renamed.map { ($0.value.sqlFolded, $0.key) }, uniquingKeysWith: { first, _ in first })
        let existing = Set(try LiveSchema.tableNames(in: db).map { $0.sqlFolded })
        let sources = tables.map { sourceNames[$0.sqlFolded] ?? $0 }.filter { existing.contains($0.sqlFolded) }

        try db.execute("CREATE TEMP TABLE \(table) (\"table\" TEXT, \"rowid\" INTEGER, \"parent\" TEXT)")
        for source in sources {
            // The violating table is `source` itself; its parents are the tables its foreign keys
            // name, a few names mapped here exactly as SQLite reports them.
            var arguments: [SQLiteValue] = [.text(source)]
            let tableName: String
            if let target = renamed[source.sqlFolded] {
                arguments.append(.text(target))
                tableName = "?2"
            } else {
                tableName = "v.\"table\""
            }
            var parentCases = ""
            let parents = try db.rows(
                "SELECT DISTINCT \"table\" FROM pragma_foreign_key_list(?1)", [.text(source)]
            ).compactMap { $0.first?.stringValue }
            for parent in parents {
                guard let target = renamed[parent.sqlFolded] else { continue }
                arguments += [.text(parent), .text(target)]
                parentCases += " WHEN ?\(arguments.count - 1) THEN ?\(arguments.count)"
            }
            let parentName =
                parentCases.isEmpty ? "v.\"parent\"" : "CASE v.\"parent\"\(parentCases) ELSE v.\"parent\" END"
            try db.execute(
                """
                INSERT INTO \(table) ("table", "rowid", "parent") \
                SELECT \(tableName), v."rowid", \(parentName) FROM pragma_foreign_key_check(?1) AS v
                """, arguments)
        }
        try db.execute(
            "CREATE INDEX temp.\(SQL.quoteIdentifier(name + "_key")) ON \(SQL.quoteIdentifier(name)) (\"table\", \"rowid\", \"parent\")"
        )
        return ToleratedViolations(db: db)
    }

    /// The distinct violations of the table bound to `?1` that were not there before the stage.
    var introducedSQL: String {
        """
        SELECT DISTINCT v."table", v."rowid", v."parent" FROM pragma_foreign_key_check(?1) AS v \
        WHERE NOT EXISTS (SELECT 1 FROM \(Self.table) AS t \
        WHERE t."table" = v."table" AND t."rowid" IS v."rowid" AND t."parent" = v."parent")
        """
    }

    /// The recorded rows, for a test's eyes.
    func recorded() throws -> [ForeignKeyGuard.Violation] {
        try db.rows("SELECT \"table\", \"rowid\", \"parent\" FROM \(Self.table) ORDER BY 1, 2, 3").map {
            ForeignKeyGuard.Violation(
                table: $0[0].stringValue ?? "", rowid: $0[1].int64Value, parent: $0[2].stringValue ?? "")
        }
    }

    /// Drops the table: the stage passed the check.
    func release() throws {
        try db.execute("DROP TABLE \(Self.table)")
    }
}
