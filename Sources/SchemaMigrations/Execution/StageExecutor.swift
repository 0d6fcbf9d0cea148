#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Runs one stage's closures, checks and steps on a connection already inside the migration's transaction.
struct StageExecutor {
    let db: any MigrationDatabase
    /// The run's progress, which numbers the steps across the whole run.
    let progress: RunProgress?
    /// The tables an online change built in shadows: their rebuild steps swap the shadow in
    /// instead of copying (see ``OnlineTableChange``).
    var online: [String: OnlineTableChange] = [:]
    /// Told of each rebuild's rendering as it runs: how a dry run's walk learns what each rebuild
    /// keeps and removes from the table it really reads (``SchemaRehearsal``).
    var renderedRebuild: ((TableRebuild.Rendering) -> Void)?

    /// Runs the stage inside a savepoint. `PRAGMA foreign_key_check` runs once, after the steps;
    /// only if it finds violations is the stage undone and the check run on the data as it was,
    /// so that violations the database already had are told apart from new ones.
    /// - Parameter checked: the tables `PRAGMA quick_check` found sound before the stage.
    /// - Returns: the tables known sound after the stage, lowercased: `checked`, those the custom
    ///   code's checks found sound, and those the stage wrote anew, under their names after it.
    @discardableResult
    func run(_ stage: PlannedStage, checked: [String] = []) throws -> Set<String> {
        let savepoint = "schema_migrations_stage"
        var sound: Set<String>
        do {
            sound = try db.savepoint(savepoint) { try runOnce(stage, checked: checked, tolerated: nil) }
        } catch let found as ForeignKeyGuard.Violations {
            // Rolled back to the stage's start: learn which violations were there before, and run it again.
            let before = try ToleratedViolations.record(before: stage, in: found.tables, db: db)
            sound = try db.savepoint(savepoint) { try runOnce(stage, checked: checked, tolerated: before) }
            try before.release()
        }
        // Checks before the stage's renames name tables as they were, those of `didMigrate` as they
        // are: a name a rename touched may now be another table's, so it is checked again.
        for step in stage.allSteps {
            guard case .renameTable(let from, let to) = step.action else { continue }
            sound.remove(from.sqlFolded)
            sound.remove(to.sqlFolded)
        }
        return sound.union(stage.allSteps.filter(\.writesTableAnew).map { $0.table.sqlFolded })
    }

    private func runOnce(_ stage: PlannedStage, checked: [String], tolerated: ToleratedViolations?) throws
        -> Set<String>
    {
        let footprint =
            stage.runsCode ? CodeFootprint(existing: try LiveSchema.tableNames(in: db), sound: Set(checked)) : nil
        if let willMigrate = stage.willMigrate, let footprint {
            try runClosure(willMigrate, named: "willMigrate", schema: stage.source, stage: stage, footprint: footprint)
        }
        for check in stage.checks {
            if let refusal = try check.evaluate(on: db, version: stage.to) { throw refusal }
        }
        try runSteps(stage.steps, from: stage.from, to: stage.to)
        // What the steps wrote is this migration's own output, not data to check.
        footprint?.markSound(stage.steps.filter(\.writesTableAnew).map(\.table))
        if let didMigrate = stage.didMigrate, let footprint {
            try runClosure(didMigrate, named: "didMigrate", schema: stage.target, stage: stage, footprint: footprint)
        }
        for check in stage.finalizingChecks {
            if let refusal = try check.evaluate(on: db, version: stage.to) { throw refusal }
        }
        try runSteps(stage.finalizingSteps, from: stage.from, to: stage.to)
        // What the code wrote, or the stage handed it to convert, must read back as declared, now
        // that the finalizing steps gave each column its declared type.
        if let footprint, let refusal = try StoredValueCheck(stage: stage, footprint: footprint).evaluate(on: db) {
            throw refusal
        }
        // Only dropping or rebuilding a table, or the user's own code, can leave a row pointing at a
        // missing parent: ALTER TABLE's rename, add and drop column keep every rowid and reference.
        let sound = Set(checked.map(\.sqlFolded)).union(footprint?.sound ?? [])
        // A table rebuilt online keeps every rowid and reference (a rebuild changing a foreign key,
        // or the values of a column holding one, never runs online): checking it would read the
        // whole table under the cut-over's lock.
        let risky = Set(stage.allSteps.filter(\.mayBreakReferences).map { $0.table.sqlFolded }).subtracting(online.keys)
        guard footprint != nil || !risky.isEmpty else { return sound }
        var scope: ForeignKeyGuard.Scope? = ForeignKeyGuard.Scope(children: risky, parents: risky)
        let live = try LiveSchema.read(from: db)
        if let footprint {
            scope = footprint.foreignKeyScope(in: live).map {
                ForeignKeyGuard.Scope(children: $0.children.union(risky), parents: $0.parents.union(risky))
            }
        }
        try ForeignKeyGuard(db: db, live: live, scope: scope).check(tolerating: tolerated, version: stage.to)
        return sound
    }

    /// Runs steps in order. Before the first rebuild or dropped table — after every rename, so SQLite
    /// has rewritten their references — the triggers and views that name a rebuilt or dropped table
    /// are set aside (every ALTER re-parses the whole schema, and they would name a table that is
    /// briefly missing), with the views over those views and the triggers on them; after the last
    /// step they are recreated in the order the database had them. Steps 3 and 9 of SQLite's
    /// procedure: see ``AlterTableProcedure``.
    ///
    /// The live schema is read once, when a step first needs it, and handed to the ``StepRenderer``
    /// and to the setting aside; the renderer follows the steps' own changes. Only a rename, after
    /// which SQLite has rewritten names everywhere, makes the next step that needs it read it again.
    func runSteps(_ planned: [MigrationStep], from: Schema.Version?, to: Schema.Version) throws {
        let steps = try TemporaryNameCollisions.freeing(planned, in: LiveSchema.read(from: db))
        let setAside = Set(steps.filter(\.setsAsideDependents).map { $0.table.sqlFolded })
        let dropped = Set(steps.filter { $0.op == .dropTable }.map { $0.table.sqlFolded })
        // The tables read in detail: those rendered from the live table, those dropped (their
        // indexes' names are freed), and the shadows an online change swaps in.
        let detailed = Set(
            steps.filter { $0.rendersFromLiveTable || $0.op == .dropTable }.map(\.table)
                + online.values.map(\.shadow))
        var renderer: StepRenderer?
        var parked: [LiveSchema.Dependent]?
        for step in steps {
            progress?.begin(MigrationProgress(from: from, to: to, summary: step.summary))
            if step.op == .renameTable || step.op == .renameColumn { renderer = nil }
            let needsLive =
                step.rendersFromLiveTable || step.op == .dropTable || (step.setsAsideDependents && parked == nil)
            if renderer == nil && needsLive {
                renderer = StepRenderer(
                    live: try LiveSchema.read(from: db, onlyTables: detailed), version: to,
                    freedPagesAreErased: try FreedPages.areErased(on: db))
            }
            if step.setsAsideDependents && parked == nil, let live = renderer?.live {
                parked = try AlterTableProcedure(db: db).setAsideDependents(
                    mentioning: setAside, among: live.dependents)
            }
            if case .createObject = step.action, let set = parked {
                // Made after every table change, over the views and triggers set aside made again.
                try AlterTableProcedure(db: db).recreate(set, droppedTables: dropped, version: to)
                parked = []
            }
            let statements: [RenderedStatement]
            if case .rebuildVirtualTable(let from, let next) = step.action {
                statements = try VirtualTableRebuild(from: from, to: next).statements(on: db).enumerated().map {
                    RenderedStatement($1, work: $0 == 1 ? .copyingRows : nil)
                }
            } else if case .rebuild(let rebuild) = step.action, let change = online[rebuild.table.sqlFolded],
                let live = renderer?.live
            {
                // The rows were copied and the indexes built online: the cut-over only renames.
                statements = try change.cutOverStatements(live: live, version: to).map { RenderedStatement($0) }
            } else if case .rebuild(let rebuild) = step.action, let renderer,
                let table = renderer.live.table(named: rebuild.table),
                let rendering = try renderer.rendering(of: step.action)
            {
                // Rendered once: its copy's recomputed STORED values are compared before it runs.
                if let refusal = try RecomputedStoredValues.refusal(
                    rebuild, parts: rendering.parts, live: table, renamesApplied: true, db: db, version: to)
                {
                    throw refusal
                }
                statements = StepRenderer.renderedStatements(of: rendering)
                renderedRebuild?(rendering)
            } else {
                statements =
                    try renderer?.renderedStatements(for: step.action) ?? RenderedStatement.planned(step.action)
            }
            for statement in statements {
                try reportingProgress(of: statement, step: step, from: from, to: to) {
                    try execute(statement.sql, step: step, version: to)
                }
            }
            renderer?.record(step.action)
        }
        try AlterTableProcedure(db: db).recreate(parked ?? [], droppedTables: dropped, version: to)
    }

    private func execute(_ sql: String, step: MigrationStep?, version to: Schema.Version) throws {
        do {
            try db.execute(sql)
        } catch let error as SQLiteError {
            if error.resultCode == .constraintDatatype, let step, let refusal = strictRefusal(error, step: step) {
                throw refusal
            }
            if case .rebuild = step?.action, let step,
                let refusal = UniqueCollision.refusal(
                    error, copying: step.table, table: step.table, statement: sql, db: db, version: to)
            {
                throw refusal
            }
            throw MigrationError(
                .sqlite, "step failed: \(step?.summary ?? sql)", rolledBack: .everything,
                entity: step?.table, sqliteError: error)
        }
    }

    /// A STRICT table's copy met a value its column's type cannot hold ("cannot store TEXT value in
    /// REAL column t.c"): the refusal names the rows that hold such values.
    private func strictRefusal(_ error: SQLiteError, step: MigrationStep) -> MigrationError? {
        let words = error.message.split(separator: " ")
        guard words.count >= 7, words[0] == "cannot", words[1] == "store", let dot = words.last?.lastIndex(of: ".")
        else { return nil }
        let storageClass = words[2].lowercased()
        let target = words[5].uppercased()
        let column = String(words.last![words.last!.index(after: dot)...])
        let table = SQL.quoteIdentifier(step.table)
        let quoted = SQL.quoteIdentifier(column)
        var condition = "typeof(\(quoted)) = \(SQL.quoteString(storageClass))"
        if storageClass == "text" && (target == "REAL" || target.hasPrefix("INT")) {
            // Text a number reads back from converts; other text is what the type refuses.
            condition +=
                " AND \(quoted) <> CAST(CAST(\(quoted) AS REAL) AS TEXT) AND \(quoted) <> CAST(CAST(\(quoted) AS INTEGER) AS TEXT)"
        }
        let ids =
            (try? db.rows(
                "SELECT \(SQL.quoteIdentifier(Schema.primaryKeyColumn)) FROM \(table) WHERE \(condition) ORDER BY 1 LIMIT 10"
            ))?
            .map { $0[0].description } ?? []
        return MigrationError(
            .dataViolation,
            "\(step.table) is STRICT, and \(column) would hold \(storageClass) values its declared type refuses",
            rolledBack: .everything,
            entity: step.table, property: column,
            remedy:
                "convert those values in the custom stage's didMigrate (or willMigrate), or make the table non-STRICT first",
            details: ids.isEmpty ? [] : ["rows (id): " + ids.joined(separator: ", ")], sqliteError: error)
    }

    private func runClosure(
        _ closure: (MigrationContext) throws -> Void, named name: String, schema: Schema, stage: PlannedStage,
        footprint: CodeFootprint
    ) throws {
        do {
            try runningCode(name, stage: stage) { progress in
                let context = MigrationContext(
                    schema: schema, db: db, stage: (stage.from, stage.to), progress: progress, footprint: footprint)
                try db.watchingCustomCode(footprint) { try closure(context) }
            }
            // The code caught the error for a damaged table or a refused statement and went on: the stage fails all the same.
            if let damage = footprint.damage { throw damage }
            if let refusal = footprint.refusal { throw refusal }
            if !db.isInTransaction { throw CustomCodeLimits.transactionEnded(in: name, stage: (stage.from, stage.to)) }
        } catch let error as MigrationError {
            throw footprint.refusal ?? error
        } catch {
            if let refusal = footprint.refusal { throw refusal }
            throw MigrationError(
                .customStageFailed,
                "\(name) of the stage \(stage.from) → \(stage.to) threw", rolledBack: .everything,
                version: stage.to, sqliteError: error as? SQLiteError, underlyingError: error)
        }
    }
}
