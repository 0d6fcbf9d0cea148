/// A rebuild's copy leaves generated columns out, and SQLite computes each `STORED` one again for
/// every row. With SQLite's own functions that gives back what was stored. With a function the
/// application registers (``SQLEnvironment``) it need not: the migration's registration may differ
/// from the one that computed the stored values, or one registered as deterministic may not be.
/// Before such a copy, offline and online alike, the expression is evaluated over the rows as the
/// copy reads them and compared with what is stored; a difference refuses the stage, naming the
/// rows, unless the target declares the recomputation
/// (``Schema/GeneratedColumn/recomputesOnRebuild``). The dry run refuses first, in the same words.
///
/// Related SQLite documentation: <https://www.sqlite.org/gencol.html>,
/// <https://www.sqlite.org/deterministic.html>
enum RecomputedStoredValues {
    /// The refusal for the rebuild rendered as `parts` from the live table `live`: nil when every
    /// recomputed value equals the stored one, or no recomputed column calls a function the
    /// connection has from the application.
    /// - Parameter renamesApplied: whether `parts` were rendered with the stage's renames run (the
    ///   migration) or not (the dry run and an online copy, which read the table before them).
    static func refusal(
        _ rebuild: TableRebuild, parts: TableRebuild.Parts, live: LiveSchema.Table, renamesApplied: Bool,
        db: any SQLQuerying, version: Schema.Version?
    ) throws -> MigrationError? {
        let checked = parts.generated.filter { column in
            guard let expression = column.recomputedExpression, column.sourceName != nil else { return false }
            return rebuild.target.attribute(named: column.name)?.generated?.recomputesOnRebuild != true
                && !functionsCalled(in: expression).isEmpty
        }
        guard !checked.isEmpty else { return nil }
        let applicationFunctions = try registeredFunctions(db: db)
        for column in checked {
            let expression = column.recomputedExpression!
            let calls = functionsCalled(in: expression)
            let named = applicationFunctions.map { calls.intersection($0) } ?? calls
            guard !named.isEmpty, let sourceName = column.sourceName else { continue }
            let rows = rowsQuery(rebuild, parts: parts, live: live, renamesApplied: renamesApplied)
            let stored = SQL.quoteIdentifier(sourceName)
            let differ = "\(stored) IS NOT (\(expression))"
            let label = rows.label
            let differing = try db.rows(
                "SELECT \(label), quote(\(stored)), quote(\(expression)) FROM \(rows.sql) WHERE \(differ) LIMIT 5")
            guard !differing.isEmpty else { continue }
            let count = try db.scalar("SELECT count(*) FROM \(rows.sql) WHERE \(differ)")?.int64Value ?? 0
            let attribute = rebuild.target.attribute(named: column.name)
            let property = attribute?.property ?? column.name
            let functions = named.sorted().joined(separator: ", ")
            return MigrationError(
                .dataViolation,
                "\(rebuild.table).\(property) is a STORED generated column over \(functions), and rebuilding \(rebuild.table) would compute \(count) of its stored value\(count == 1 ? "" : "s") differently with this connection's \(functions): the function computes other values than it did when they were stored, or is not deterministic; nothing was changed",
                entity: rebuild.table, property: property, version: version,
                remedy:
                    "register the same \(functions) the application uses, deterministic (the same arguments give the same value); or, to store the recomputed values, declare `.stored(\"\(attribute?.generated?.expression ?? expression)\", recomputesOnRebuild: true)` in the target version",
                details: differing.map {
                    "\(rows.labelName) \($0[0].description): stored \($0[1].description), recomputed \($0[2].description)"
                }
                    + (count > Int64(differing.count) ? ["… and \(count - Int64(differing.count)) more"] : []))
        }
        return nil
    }

    /// The names of the functions `expression` calls (a name before `(`), folded; `CAST`, `IN`,
    /// `EXISTS` and such count too, which costs only a comparison that finds nothing.
    static func functionsCalled(in expression: String) -> Set<String> {
        let tokenizer = SQLTokenizer(expression)
        guard let tokens = try? tokenizer.tokens() else { return [] }
        return Set(
            tokens.indices.dropLast().filter {
                (tokens[$0].kind == .word || tokens[$0].kind == .quotedIdentifier)
                    && tokens[$0 + 1].kind == .leftParenthesis
            }.map { tokenizer.name(of: tokens[$0]).sqlFolded })
    }

    /// The functions the connection has from the application (`builtin = 0`: registered in code
    /// or by an extension, an override of a built-in name included); nil when SQLite cannot say
    /// (before 3.30), and every function called is then checked.
    private static func registeredFunctions(db: any SQLQuerying) throws -> Set<String>? {
        guard
            let rows = try? db.rows("SELECT DISTINCT name FROM pragma_function_list WHERE builtin = 0", [])
        else { return nil }
        return Set(rows.compactMap { $0.first?.stringValue?.sqlFolded })
    }

    /// The rows as the new table's columns read them (each under its new name, converted as the
    /// copy converts it, the generated ones as stored), with a label naming each row.
    private static func rowsQuery(
        _ rebuild: TableRebuild, parts: TableRebuild.Parts, live: LiveSchema.Table, renamesApplied: Bool
    ) -> (sql: String, label: String, labelName: String) {
        let sources = renamesApplied ? parts.copySources : parts.copySourcesBeforeRenames
        var columns = zip(parts.copyTargets, sources).map { "\($1) AS \($0)" }
        columns += parts.generated.compactMap { column in
            column.sourceName.map { "\(SQL.quoteIdentifier($0)) AS \(SQL.quoteIdentifier(column.name))" }
        }
        let taken = Set(
            (live.columns.map(\.name) + rebuild.target.attributes.map(\.name) + parts.generated.map(\.name)).map {
                $0.sqlFolded
            })
        let alias = TemporaryName.free("_sm_row", avoiding: taken)
        let key: String
        let labelName: String
        if parts.withoutRowid {
            let keys = live.columns.filter { $0.primaryKeyPosition > 0 }.sorted {
                $0.primaryKeyPosition < $1.primaryKeyPosition
            }
            key = keys.map { "quote(\(SQL.quoteIdentifier($0.name)))" }.joined(separator: " || ', ' || ")
            labelName = "key (" + keys.map(\.name).joined(separator: ", ") + ")"
        } else {
            key = SQL.freeRowidName { live.column(named: $0) != nil } ?? "rowid"
            labelName = "rowid"
        }
        columns.append("\(key) AS \(SQL.quoteIdentifier(alias))")
        let sql = "(SELECT \(columns.joined(separator: ", ")) FROM \(SQL.quoteIdentifier(parts.sourceTable)))"
        return (sql, SQL.quoteIdentifier(alias), labelName)
    }
}
