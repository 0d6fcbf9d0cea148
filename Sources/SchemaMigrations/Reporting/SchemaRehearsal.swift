/// The statements a dry run shows for each step: those the migration's own step loop
/// (``StageExecutor/runSteps(_:from:to:)``) executes, recorded while it runs on an in-memory copy of
/// the database's schema, without its rows. The dry run and the migration thus share one walk of a
/// stage and one renderer: a custom stage's finalizing steps are rendered against the schema its
/// first steps left (not the one before the stage), the views and triggers a rebuild sets aside
/// and recreates are shown where they run, and each pending stage starts from the schema the
/// stages before it leave.
///
/// Only statements run: no closure of a custom stage, no data check (the dry run measures those on
/// the live data). A schema SQLite cannot copy (a virtual table of a module this connection lacks)
/// makes ``walk(_:schemaOf:environment:)`` throw, and the dry run then renders each step on its own.
struct SchemaRehearsal {
    /// What a walk found: the statements of each stage's steps, ``PlannedStage/allSteps`` in
    /// order, for each stage of `stages` until the first one a step of which the migration would
    /// refuse (the rest are left out); and, when SQLite itself refused a step's statement on the
    /// schema alone (a declared view whose name an application's table takes), that error, as the
    /// migration would throw it.
    struct Walk {
        var stages: [[[String]]] = []
        /// For each walked stage, what each rebuild step kept and removed, by the step's position
        /// in ``PlannedStage/allSteps``.
        var rebuilds: [[Int: Rebuilt]] = []
        var failure: MigrationError?
    }

    /// What a rebuild wrote back from the live table and what it removed, as it ran.
    struct Rebuilt: Sendable, Equatable {
        var carriedOver: [String]
        var removed: [String]
    }

    static func walk(_ stages: [PlannedStage], schemaOf db: SQLiteConnection, environment: SQLEnvironment) throws
        -> Walk
    {
        let copy = try SQLiteConnection(path: ":memory:", environment: environment)
        // The order of a rebuild's statements depends on it (``FreedPages``): 0, 1 or 2 (FAST).
        let erasing = try db.pragmaInteger("secure_delete")
        try copy.execute("PRAGMA secure_delete = \(erasing == 2 ? "FAST" : erasing == 1 ? "ON" : "OFF")")
        try copySchema(of: db, into: copy)
        // ANALYZE's statistics tables, which a rebuild keeps rows of (made by ANALYZE alone).
        if try db.scalar("SELECT 1 FROM sqlite_schema WHERE name = 'sqlite_stat1'") != nil {
            try copy.execute("ANALYZE sqlite_schema")
        }
        let recorder = StatementRecorder()
        // The rebuilds rendered since the stage began, each with the number of steps begun before it.
        let rendered = RenderedRebuilds()
        var executor = StageExecutor(
            db: copy,
            progress: RunProgress { progress in
                // A mark where each step starts; its long work reports rows or an activity.
                if progress.activity == .step {
                    recorder.append(.note("step"))
                    rendered.stepBegan()
                }
            })
        executor.renderedRebuild = { rendered.record($0) }
        try copy.execute("BEGIN")
        defer { try? copy.execute("ROLLBACK") }  // an in-memory copy, dropped with the connection
        copy.startRecording(into: recorder)
        defer { copy.stopRecording() }
        var walked = Walk()
        for stage in stages {
            let start = recorder.entries.count
            rendered.reset()
            do {
                try executor.runSteps(stage.steps, from: stage.from, to: stage.to)
                try executor.runSteps(stage.finalizingSteps, from: stage.from, to: stage.to)
            } catch let error as MigrationError {
                // A statement SQLite refuses without a row to look at fails the migration too;
                // other refusals are the dry run's to report, from the live data.
                if error.code == .sqlite { walked.failure = error }
                break
            }
            let steps = split(MigrationRehearsal.writes(in: Array(recorder.entries[start...])))
            guard steps.count == stage.allSteps.count else { break }
            walked.stages.append(steps)
            walked.rebuilds.append(rendered.byStep)
        }
        return walked
    }

    /// The rebuilds a stage's walk rendered, by step position (the progress callback and the
    /// executor's observer both run on the walking thread; the lock makes it Sendable).
    private final class RenderedRebuilds: @unchecked Sendable {
        private let lock = Lock()
        private var begun = 0
        private var rebuilt: [Int: Rebuilt] = [:]

        func stepBegan() { lock.withLock { begun += 1 } }
        func record(_ rendering: TableRebuild.Rendering) {
            lock.withLock {
                rebuilt[begun - 1] = Rebuilt(carriedOver: rendering.carriedOver, removed: rendering.removed)
            }
        }
        func reset() { lock.withLock { (begun, rebuilt) = (0, [:]) } }
        var byStep: [Int: Rebuilt] { lock.withLock { rebuilt } }
    }

    /// The statements between one step's mark and the next; the views and triggers recreated after
    /// the last step of a run belong to that step.
    private static func split(_ entries: [StatementRecorder.Entry]) -> [[String]] {
        var steps: [[String]] = []
        for entry in entries {
            switch entry {
            case .note: steps.append([])
            case .statement(let sql, _):
                if steps.isEmpty { steps.append([]) }
                steps[steps.count - 1].append(sql)
            }
        }
        return steps
    }

    /// Creates every table, index, view and trigger of `db` in `copy` in the order the database has
    /// them (the order the migration recreates views and triggers in), a statement that needs an
    /// object made later retried after it; a virtual table's shadow tables come with it, SQLite's
    /// own tables with what needs them.
    private static func copySchema(of db: SQLiteConnection, into copy: SQLiteConnection) throws {
        var pending = try db.rows(
            "SELECT type, name, sql FROM sqlite_schema WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY rowid"
        ).compactMap { row -> (type: String, name: String, sql: String)? in
            guard let type = row[0].stringValue, let name = row[1].stringValue, let sql = row[2].stringValue else {
                return nil
            }
            return (type, name, sql)
        }
        while !pending.isEmpty {
            var failed: [(type: String, name: String, sql: String)] = []
            var lastError: (any Error)?
            for object in pending {
                if object.type == "table",
                    try copy.scalar("SELECT 1 FROM sqlite_schema WHERE name = ?", [.text(object.name)]) != nil
                {
                    continue  // a virtual table's shadow table, made with it
                }
                do {
                    try copy.execute(object.sql)
                } catch {
                    failed.append(object)
                    lastError = error
                }
            }
            if let lastError, failed.count == pending.count { throw lastError }
            pending = failed
        }
    }
}
