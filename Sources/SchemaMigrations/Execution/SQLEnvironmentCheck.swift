/// Before a migration writes, and in its dry run: whether this connection has every collation and
/// function that what the migration touches needs (the application registers them on its own
/// connections: ``SQLEnvironment``).
///
/// Two kinds of object depend on the application, and are treated as SQLite treats them:
///
/// - A table or index the migration reads in full or rewrites (a rebuild, a dropped column or
///   table, a new index, the `quick_check` before them) cannot be read, copied or recreated
///   without its collations (`COLLATE unicase` in a unique index) and functions (a CHECK, a
///   generated column, an expression or partial index). Nor can any `ALTER TABLE` that
///   re-parses the schema (a rename, a dropped column, the rebuild's last rename) get past an
///   index whose SQL names a collation the connection lacks. Those are refused, before anything
///   is written, naming the collation or function, the object and the remedy.
/// - A view or trigger only names functions and collations; SQLite keeps it as written and the
///   application registers them whenever it opens the file. One the migration sets aside is
///   recreated unchanged, and its compile probe stands in for those names (``MigrationDatabase/compileStandingIn(_:)``),
///   so it still refuses a reference to a dropped or renamed column. The dry run lists each.
///
/// `migrate` and the dry run ask the same questions of the same connection kind, so the dry run
/// refuses first, with the same words.
struct SQLEnvironmentCheck {
    let db: any MigrationDatabase

    typealias Finding = SQLEnvironmentFinding

    /// The refusal for `stages`, about to run on the database as it is: nil when the connection has
    /// everything the tables and indexes they touch need.
    /// - Parameter creating: entities created on an empty database (their declared collations).
    func refusal(for stages: [PlannedStage], creating: [Schema.Entity] = [], version: Schema.Version) throws
        -> MigrationError?
    {
        let findings = try refused(for: stages, creating: creating)
        guard !findings.isEmpty else { return nil }
        let needs = Array(Set(findings.map(\.need))).sorted()
        let tables = Array(Set(findings.map(\.table))).sorted()
        let names = needs.map(\.description).joined(separator: ", ")
        return MigrationError(
            .sqlEnvironment,
            "the migration needs \(names), which this connection does not have: SQLite cannot read or rebuild \(tables.joined(separator: ", ")) without \(needs.count == 1 ? "it" : "them"); nothing was changed",
            entity: tables.count == 1 ? tables[0] : nil, version: version,
            remedy: SQLEnvironmentNeed.remedy(for: needs),
            details: findings.sorted().map(\.sentence))
    }

    /// Views and triggers the stages set aside and recreate that name a function or collation the
    /// connection lacks: kept unchanged, each said in a sentence for the dry run.
    func keptUnevaluated(for stages: [PlannedStage]) throws -> [String] {
        let live = try LiveSchema.read(from: db, onlyTables: [])
        let liveTables = Set(try LiveSchema.tableNames(in: db).map(\.sqlFolded))
        var affected = Set(
            stages.flatMap { stage in
                stage.allSteps.filter(\.setsAsideDependents).flatMap { step in
                    [step.table, stage.target.entity(named: step.table)?.originalName].compactMap { $0 }
                }
            }.map(\.sqlFolded).filter(liveTables.contains))
        guard !affected.isEmpty else { return [] }
        var result: [String] = []
        var changed = true
        var seen = Set<String>()
        while changed {  // views over the affected tables are affected in turn
            changed = false
            for dependent in live.dependents where !seen.contains(dependent.name.sqlFolded) {
                let mentions = SQLTokenizer(dependent.sql).identifierSet()
                guard affected.contains(dependent.tableName.sqlFolded) || !mentions.isDisjoint(with: affected) else {
                    continue
                }
                seen.insert(dependent.name.sqlFolded)
                changed = true
                if dependent.kind == .view { affected.insert(dependent.name.sqlFolded) }
                var needs: [SQLEnvironmentNeed] = []
                for probe in (try? AlterTableProcedure(db: db).probes(for: dependent)) ?? [] {
                    needs += (try? db.compileStandingIn(probe)) ?? []
                }
                let own = needs.filter { mentions.contains($0.name.sqlFolded) }
                guard !own.isEmpty else { continue }
                result.append(
                    "kept as it is: the \(dependent.kind.rawValue) \(dependent.name) \(dependent.kind == .trigger ? "calls" : "uses") "
                        + own.map(\.description).joined(separator: ", ")
                        + ", which this connection does not have; it is recreated unchanged (SQLite keeps it, and the application provides \(own.count == 1 ? "it" : "them") when it opens the file). "
                        + "To have the migration evaluate it too: " + SQLEnvironmentNeed.remedy(for: own))
            }
        }
        return result
    }

    /// What the stages need and the connection lacks, per object.
    private func refused(for stages: [PlannedStage], creating: [Schema.Entity]) throws -> Set<Finding> {
        let collations = Set(
            try db.rows("SELECT name FROM pragma_collation_list").compactMap { $0.first?.stringValue?.sqlFolded })
        func unknownCollations(in sql: String) -> [String] {
            let tokenizer = SQLTokenizer(sql)
            guard let tokens = try? tokenizer.tokens() else { return [] }
            return tokens.indices.dropLast().filter { tokenizer.isKeyword(tokens[$0], "COLLATE") }
                .map { tokenizer.name(of: tokens[$0 + 1]) }
                .filter { !collations.contains($0.sqlFolded) }
        }
        var findings = Set<Finding>()
        // What a stage declares anew: a created table, a new index, the rebuilt table's declared terms.
        let declared =
            creating
            + stages.flatMap { stage in
                stage.allSteps.compactMap { step -> Schema.Entity? in
                    switch step.action {
                    case .createTable(let entity): return entity
                    case .createIndex(let table, let index):
                        var entity = stage.target.entity(named: table) ?? Schema.Entity(name: table, attributes: [])
                        entity.indexes = [index]
                        entity.attributes = entity.attributes.map {
                            var plain = $0
                            plain.collation = nil
                            return plain
                        }
                        return entity
                    default: return nil
                    }
                }
            }
        for entity in declared {
            let names =
                entity.attributes.compactMap(\.collation)
                + entity.indexes.flatMap { $0.elements?.compactMap(\.collation) ?? [] }
            for name in names where !collations.contains(name.sqlFolded) {
                findings.insert(
                    Finding(
                        need: SQLEnvironmentNeed(kind: .collation, name: name), objectKind: "declared table",
                        objectName: entity.name, table: entity.name))
            }
        }

        let touched = Set(
            stages.flatMap { stage in
                stage.allSteps.filter { $0.readsWholeTable || $0.op == .rebuildTable }.flatMap { step in
                    [step.table, stage.target.entity(named: step.table)?.originalName].compactMap { $0 }
                }
            }.map(\.sqlFolded))
        // the touched tables in detail, the triggers by name
        let live = try LiveSchema.read(from: db, onlyTables: touched)
        for table in live.tables where touched.contains(table.name.sqlFolded) {
            let indexes = table.indexes.filter { $0.sql != nil }
            var needs = Set(unknownCollations(in: table.sql).map { SQLEnvironmentNeed(kind: .collation, name: $0) })
            let columns = table.columns.filter { $0.hidden == 0 }.map { SQL.quoteIdentifier($0.name) }.joined(
                separator: ", ")
            let quoted = SQL.quoteIdentifier(table.name)
            // Compiling an INSERT compiles every CHECK, generated column and index of the table (with
            // their functions and collations), and the table's INSERT triggers; nothing runs.
            if !columns.isEmpty {
                needs.formUnion(
                    (try? db.compileStandingIn(
                        "INSERT INTO \(quoted) (\(columns)) SELECT \(columns) FROM \(quoted) WHERE 0")) ?? [])
            }
            // SQLite leaves CHECKs out of a read-only connection's schema (nothing can be written
            // there), so the dry run's INSERT would not compile them: each is compiled on its own.
            for check in Self.checkExpressions(of: table) {
                needs.formUnion((try? db.compileStandingIn("SELECT \(check) FROM \(quoted) WHERE 0")) ?? [])
            }
            let triggers = live.dependents.filter {
                $0.kind == .trigger && $0.tableName.sqlFolded == table.name.sqlFolded
            }
            for need in needs {
                let name = need.name.sqlFolded
                var owners = indexes.filter { SQLTokenizer($0.sql ?? "").identifierSet().contains(name) }
                    .map { Finding(need: need, objectKind: "index", objectName: $0.name, table: table.name) }
                if SQLTokenizer(table.sql).identifierSet().contains(name) {
                    owners.append(Finding(need: need, objectKind: "table", objectName: table.name, table: table.name))
                }
                if owners.isEmpty && triggers.contains(where: { SQLTokenizer($0.sql).identifierSet().contains(name) }) {
                    continue  // the table's own trigger: kept, like any trigger
                }
                findings.formUnion(
                    owners.isEmpty
                        ? [Finding(need: need, objectKind: "table", objectName: table.name, table: table.name)] : owners
                )
            }
        }
        // An ALTER TABLE re-parses every index's SQL: a collation one names must be there.
        let reparses = stages.contains {
            $0.allSteps.contains { [.renameTable, .renameColumn, .dropColumn, .rebuildTable].contains($0.op) }
        }
        if reparses {
            for row in try db.rows(
                "SELECT name, tbl_name, sql FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL ORDER BY rowid")
            {
                guard let index = row[0].stringValue, let table = row[1].stringValue, let sql = row[2].stringValue
                else { continue }
                for name in unknownCollations(in: sql) {
                    findings.insert(
                        Finding(
                            need: SQLEnvironmentNeed(kind: .collation, name: name), objectKind: "index",
                            objectName: index, table: table))
                }
            }
        }
        return findings
    }

    /// Each CHECK's parenthesised expression, column and table constraints alike.
    static func checkExpressions(of table: LiveSchema.Table) -> [String] {
        guard let definition = try? table.definition() else { return [] }
        let texts =
            definition.columns.flatMap { $0.constraints.filter { $0.kind == .check }.map(\.text) }
            + definition.constraints.filter { $0.kind == .check }.map(\.text)
        return texts.compactMap { text in
            let tokenizer = SQLTokenizer(text)
            guard let tokens = try? tokenizer.tokens(),
                let check = tokens.firstIndex(where: { tokenizer.isKeyword($0, "CHECK") }),
                check + 1 < tokens.count, tokens[check + 1].kind == .leftParenthesis
            else { return nil }
            return tokenizer.text(tokens[check + 1].start, tokens[tokens.count - 1].end)
        }
    }
}
