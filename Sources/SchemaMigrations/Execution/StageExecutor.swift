import Foundation

/// Runs one stage's closures, checks and steps on a connection already inside the migration's transaction.
struct StageExecutor {
    let db: SQLiteConnection
    let progress: (@Sendable (MigrationProgress) -> Void)?

    /// Runs the stage inside a savepoint. `PRAGMA foreign_key_check` runs once, after the steps;
    /// only if it finds violations is the stage undone and the check run on the data as it was,
    /// so that violations the database already had are told apart from new ones.
    /// - Parameter checked: the tables `PRAGMA quick_check` found sound before the stage.
    func run(_ stage: PlannedStage, resolved: ResolvedStage, plan: ResolvedPlan, checked: [String] = []) throws {
        let savepoint = "schema_migrations_stage"
        do {
            try db.savepoint(savepoint) { try runOnce(stage, resolved: resolved, plan: plan, checked: checked, tolerated: nil) }
        } catch let found as ForeignKeyGuard.Violations {
            // Rolled back to the stage's start: learn which violations were there before, and run it again.
            let before = try ForeignKeyGuard.violations(before: stage, in: found.tables, db: db)
            try db.savepoint(savepoint) { try runOnce(stage, resolved: resolved, plan: plan, checked: checked, tolerated: before) }
        }
    }

    private func runOnce(_ stage: PlannedStage, resolved: ResolvedStage, plan: ResolvedPlan, checked: [String], tolerated: Set<ForeignKeyGuard.Violation>?) throws {
        let source = plan.schema(for: stage.from)!
        let target = plan.schema(for: stage.to)!
        let ranCode = resolved.willMigrate != nil || resolved.didMigrate != nil
        let footprint = ranCode ? CodeFootprint(existing: try LiveSchema.tableNames(in: db), sound: Set(checked)) : nil
        // A borrowed connection may have its owner's authorizer (GRDB's observation uses one), which
        // SQLite would let us replace but not restore: check everything instead of watching.
        if let footprint, !db.ownsHandle { try footprint.watchNothing(on: db) }
        if let willMigrate = resolved.willMigrate, let footprint {
            try runClosure(willMigrate, named: "willMigrate", schema: source, stage: stage, footprint: footprint)
        }
        for check in stage.checks {
            if let refusal = try check.evaluate(on: db, version: stage.to) { throw refusal }
        }
        try runSteps(stage.steps, from: stage.from, to: stage.to)
        // What the steps wrote is this migration's own output, not data to check.
        footprint?.markSound(stage.steps.filter { $0.op == .rebuildTable || $0.op == .createTable }.map(\.table))
        if let didMigrate = resolved.didMigrate, let footprint {
            try runClosure(didMigrate, named: "didMigrate", schema: target, stage: stage, footprint: footprint)
        }
        for check in stage.finalizingChecks {
            if let refusal = try check.evaluate(on: db, version: stage.to) { throw refusal }
        }
        try runSteps(stage.finalizingSteps, from: stage.from, to: stage.to)
        // Only dropping or rebuilding a table, or the user's own code, can leave a row pointing at a
        // missing parent: ALTER TABLE's rename, add and drop column keep every rowid and reference.
        let risky = Set(stage.allSteps.filter { $0.op == .dropTable || $0.op == .rebuildTable }.map { $0.table.lowercased() })
        guard footprint != nil || !risky.isEmpty else { return }
        var scope: ForeignKeyGuard.Scope? = ForeignKeyGuard.Scope(children: risky, parents: risky)
        let live = try LiveSchema.read(from: db)
        if let footprint {
            scope = footprint.foreignKeyScope(in: live).map { ForeignKeyGuard.Scope(children: $0.children.union(risky), parents: $0.parents.union(risky)) }
        }
        try ForeignKeyGuard(db: db, live: live, scope: scope).check(tolerating: tolerated, version: stage.to)
    }

    /// Runs steps in order. Before the first rebuild or dropped table — after every rename, so SQLite
    /// has rewritten their references — the triggers and views that name a rebuilt or dropped table
    /// are set aside (every ALTER re-parses the whole schema, and they would name a table that is
    /// briefly missing), with the views over those views and the triggers on them; after the last
    /// step they are recreated in the order the database had them. Steps 3 and 9 of SQLite's
    /// procedure: see ``TableRebuild``.
    func runSteps(_ steps: [MigrationStep], from: Schema.Version?, to: Schema.Version) throws {
        let rebuilt = Set(steps.filter { $0.op == .rebuildTable }.map { SQLTokenizer.foldCase($0.table) })
        let dropped = Set(steps.filter { $0.op == .dropTable }.map { SQLTokenizer.foldCase($0.table) })
        var parked: [LiveSchema.Dependent]?
        for (index, step) in steps.enumerated() {
            progress?(MigrationProgress(from: from, to: to, stepIndex: index, stepCount: steps.count, summary: step.summary))
            if (step.op == .rebuildTable || step.op == .dropTable) && parked == nil {
                parked = try parkDependents(mentioning: rebuilt.union(dropped))
            }
            let live: LiveSchema? = [.rebuildTable, .dropColumn, .dropIndex, .createIndex].contains(step.op)
                ? try LiveSchema.read(from: db, onlyTables: [step.table]) : nil
            for sql in try step.action.statements(live: live, version: to) {
                try execute(sql, step: step)
            }
        }
        // A trigger on a dropped table goes with it.
        for dependent in parked ?? [] where !(dependent.kind == .trigger && dropped.contains(SQLTokenizer.foldCase(dependent.tableName))) {
            do {
                try db.execute(dependent.sql)
            } catch let error as SQLiteError {
                throw MigrationError(.sqlite, "the \(dependent.kind.rawValue) '\(dependent.name)' cannot be recreated after the migration's changes; everything was rolled back",
                                     entity: dependent.tableName, version: to,
                                     remedy: "drop or rewrite the \(dependent.kind.rawValue) in a custom stage's willMigrate", sqliteError: error)
            }
        }
    }

    /// Drops the triggers and views that depend on `tables`, directly or through a view, and
    /// returns them in the order the database had them.
    private func parkDependents(mentioning tables: Set<String>) throws -> [LiveSchema.Dependent] {
        let all = try LiveSchema.read(from: db, onlyTables: []).dependents
        let mentions = all.map { SQLTokenizer($0.sql).identifierSet() }
        var affected = tables
        var parked = Array(repeating: false, count: all.count)
        var changed = true
        while changed {
            changed = false
            for (index, dependent) in all.enumerated() where !parked[index] {
                let on = SQLTokenizer.foldCase(dependent.tableName)
                guard affected.contains(on) || !mentions[index].isDisjoint(with: affected) else { continue }
                parked[index] = true
                changed = true
                if dependent.kind == .view { affected.insert(SQLTokenizer.foldCase(dependent.name)) }
            }
        }
        let dependents = all.indices.filter { parked[$0] }.map { all[$0] }
        // Triggers first (an INSTEAD OF trigger goes with its view), then views, newest first.
        for dependent in dependents.filter({ $0.kind == .trigger }) + dependents.filter({ $0.kind == .view }).reversed() {
            try execute("DROP \(dependent.kind == .view ? "VIEW" : "TRIGGER") \(SQL.quoteIdentifier(dependent.name))", step: nil)
        }
        return dependents
    }

    private func execute(_ sql: String, step: MigrationStep?) throws {
        do {
            try db.execute(sql)
        } catch let error as SQLiteError {
            if error.extendedCode == 3091, let step, let refusal = strictRefusal(error, step: step) { throw refusal }  // SQLITE_CONSTRAINT_DATATYPE
            throw MigrationError(.sqlite, "step failed: \(step?.summary ?? sql); everything was rolled back",
                                 entity: step?.table, sqliteError: error)
        }
    }

    /// A STRICT table's copy met a value its column's type cannot hold ("cannot store TEXT value in
    /// REAL column t.c"): the refusal names the rows that hold such values.
    private func strictRefusal(_ error: SQLiteError, step: MigrationStep) -> MigrationError? {
        let words = error.message.split(separator: " ")
        guard words.count >= 7, words[0] == "cannot", words[1] == "store", let dot = words.last?.lastIndex(of: ".") else { return nil }
        let storageClass = words[2].lowercased(), target = words[5].uppercased(), column = String(words.last![words.last!.index(after: dot)...])
        let table = SQL.quoteIdentifier(step.table), quoted = SQL.quoteIdentifier(column)
        var condition = "typeof(\(quoted)) = \(SQL.quoteString(storageClass))"
        if storageClass == "text" && (target == "REAL" || target.hasPrefix("INT")) {
            // Text a number reads back from converts; other text is what the type refuses.
            condition += " AND \(quoted) <> CAST(CAST(\(quoted) AS REAL) AS TEXT) AND \(quoted) <> CAST(CAST(\(quoted) AS INTEGER) AS TEXT)"
        }
        let ids = (try? db.rows("SELECT \(SQL.quoteIdentifier(Schema.primaryKeyColumn)) FROM \(table) WHERE \(condition) ORDER BY 1 LIMIT 10"))?
            .map { $0[0].description } ?? []
        return MigrationError(.dataViolation, "\(step.table) is STRICT, and \(column) would hold \(storageClass) values its declared type refuses; everything was rolled back",
                              entity: step.table, property: column,
                              remedy: "convert those values in the custom stage's didMigrate (or willMigrate), or make the table non-STRICT first",
                              details: ids.isEmpty ? [] : ["rows (id): " + ids.joined(separator: ", ")], sqliteError: error)
    }

    private func runClosure(_ closure: (MigrationContext) throws -> Void, named name: String, schema: Schema, stage: PlannedStage, footprint: CodeFootprint) throws {
        do {
            let context = MigrationContext(schema: schema, db: db, stage: (stage.from, stage.to), progress: progress)
            if footprint.isWatching {
                try db.observingAccess(footprint.observer(on: db)) { try closure(context) }
            } else {
                try db.observingStatements(footprint.observer(on: db)) { try closure(context) }
            }
            // The code caught the error for a damaged table or a refused statement and went on: the stage fails all the same.
            if let damage = footprint.damage { throw damage }
            if let refusal = footprint.refusal { throw refusal }
            if db.isAutocommit { throw CustomCodeLimits.transactionEnded(in: name, stage: (stage.from, stage.to)) }
        } catch let error as MigrationError {
            throw footprint.refusal ?? error
        } catch {
            if let refusal = footprint.refusal { throw refusal }
            throw MigrationError(.customStageFailed, "\(name) of the stage \(stage.from) → \(stage.to) threw; everything was rolled back",
                                 version: stage.to, sqliteError: error as? SQLiteError, underlying: error is SQLiteError ? nil : "\(error)")
        }
    }
}

/// `PRAGMA foreign_key_check` before commit, scoped to the tables a stage touched and the tables
/// referencing them, failing only on violations the stage introduced.
struct ForeignKeyGuard {
    /// A row pointing at a missing parent. Which of the table's foreign keys it breaks is not part
    /// of it: a rebuild may number them differently.
    struct Violation: Hashable {
        var table: String
        var rowid: Int64?
        var parent: String
    }

    /// Violations found after a stage, before it is known whether the stage introduced them.
    struct Violations: Error {
        var tables: [String]
    }

    /// The tables whose references a stage may have broken, lowercased: `children` may now hold a
    /// reference to a missing row themselves; the children of `parents` may (they lost rows or keys).
    struct Scope {
        var children: Set<String>
        var parents: Set<String>
    }

    let db: SQLiteConnection
    /// The tables to check: those with foreign keys in the scope, or referencing a parent in it.
    let tables: [String]

    /// - Parameter scope: what the stage may have broken; nil for every table.
    init(db: SQLiteConnection, live: LiveSchema, scope: Scope?) {
        self.db = db
        self.tables = live.userTables.filter { table in
            guard !table.foreignKeys.isEmpty else { return false }
            guard let scope else { return true }
            return scope.children.contains(table.name.lowercased()) || table.foreignKeys.contains { scope.parents.contains($0.table.lowercased()) }
        }.map(\.name)
    }

    static func violations(in tables: [String], db: SQLiteConnection) throws -> Set<Violation> {
        var result = Set<Violation>()
        for table in tables {
            for row in try db.rows("PRAGMA foreign_key_check(\(SQL.quoteIdentifier(table)))") {
                result.insert(Violation(table: row[0].stringValue ?? table, rowid: row[1].int64Value, parent: row[2].stringValue ?? ""))
            }
        }
        return result
    }

    /// The violations the database had before `stage`, in `tables` as the stage names them (it may
    /// rename tables, violating ones and parents alike), named as after the stage. Tables the stage
    /// creates had none.
    static func violations(before stage: PlannedStage, in tables: [String], db: SQLiteConnection) throws -> Set<Violation> {
        var renamed: [String: String] = [:]  // lowercased source name -> target name
        for step in stage.allSteps {
            if case .renameTable(let from, let to) = step.action { renamed[from.lowercased()] = to }
        }
        let sourceNames = Dictionary(renamed.map { ($0.value.lowercased(), $0.key) }, uniquingKeysWith: { first, _ in first })
        let existing = Set(try LiveSchema.tableNames(in: db).map { $0.lowercased() })
        let sources = tables.map { sourceNames[$0.lowercased()] ?? $0 }.filter { existing.contains($0.lowercased()) }
        return Set(try violations(in: sources, db: db).map { violation in
            Violation(table: renamed[violation.table.lowercased()] ?? violation.table, rowid: violation.rowid,
                      parent: renamed[violation.parent.lowercased()] ?? violation.parent)
        })
    }

    /// Throws ``Violations`` when there are violations and `tolerated` is nil (not yet known);
    /// a `dataViolation` error naming the rows when some are not in `tolerated`.
    func check(tolerating tolerated: Set<Violation>?, version: Schema.Version) throws {
        guard !tables.isEmpty else { return }
        let found = try ForeignKeyGuard.violations(in: tables, db: db)
        guard !found.isEmpty else { return }
        guard let tolerated else { throw Violations(tables: tables) }
        let introduced = found.subtracting(tolerated)
        guard !introduced.isEmpty else { return }
        let sorted = introduced.sorted { ($0.table, $0.rowid ?? 0) < ($1.table, $1.rowid ?? 0) }
        throw MigrationError(.dataViolation, "the migration would leave \(introduced.count) rows pointing at missing parents; everything was rolled back",
                             entity: sorted[0].table, version: version,
                             remedy: "delete or re-point those rows in a custom stage",
                             details: sorted.prefix(10).map { "\($0.table) row \($0.rowid.map(String.init) ?? "?") references a missing row of \($0.parent)" })
    }
}
