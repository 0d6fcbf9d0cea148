#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A dry run: what a migration would do to one database, measured on its live data, without writing.
///
/// ```swift
/// let report = try Migrator(plan: TripsMigrationPlan.self).plan(databaseAt: url)
/// print(report)
/// ```
public struct MigrationReport: Sendable {
    /// One planned step, with what it would touch.
    public struct Step: Sendable {
        /// The step as planned.
        public var step: MigrationStep
        /// The SQL it would run, resolved against the live schema where it could be.
        public var sql: [String]
        /// What it would do to the live data, when measured (steps of the first pending stage).
        public var impact: Impact?
        /// What a rebuild writes back as the live table had it, though the declaration does not
        /// speak of it: CHECKs, collations, `AUTOINCREMENT`, `STRICT`, indexes by name, …
        public var carriedOver: [String] = []
        /// What a rebuild removes besides the dropped columns' values (an index on a dropped column,
        /// a CHECK over it alone): each is also a warning.
        public var removes: [String] = []
        /// Views and triggers that mention a column the step drops, with its table: if one uses it,
        /// the step fails (and everything rolls back) until that view or trigger is rewritten.
        public var mayBreak: [String] = []
        /// Whether the step runs after the custom stage's `didMigrate` (a finalizing step: the
        /// rebuild that applies the NOT NULL its code filled, the indexes over what it wrote).
        public var runsAfterDidMigrate = false
        /// The changes it makes that break the previous version's code (``StageCompatibility``):
        /// empty when it is compatible.
        public var compatibility: [StageCompatibility.Reason] = []
        /// Rows of the table the step rewrites (or drops), when measured.
        public var rowsAffected: Int64? { impact?.rows }
    }

    /// One planned stage.
    public typealias Stage = ReportedStage<Step>

    /// The database's path.
    public var database: String
    /// The version it is at (nil when it holds none of the plan's tables).
    public var currentVersion: Schema.Version?
    /// Whether its version was recognised by its tables, having no metadata.
    public var unversioned: Bool
    /// The version a migration would bring it to.
    public var targetVersion: Schema.Version
    /// The stages that would run.
    public var stages: [Stage]
    /// Why the migration would be refused, as the live data stands: each error it would throw.
    public var refusals: [MigrationError]
    /// Views and triggers the migration recreates that call a function, or use a collation, this
    /// connection does not have (the application registers it): each is kept unchanged, as SQLite
    /// keeps it, in a sentence naming it and the missing names. Also among ``warnings``.
    public var keptUnevaluated: [String] = []

    /// What a way back to an older version would drop: the rows and non-empty values of the tables
    /// and columns the newer versions added, per stage, measured on the live data. Refused (among
    /// ``refusals``) unless ``MigrationOptions/allowDataLoss`` is set; empty going forward.
    public var dataLoss: [DataLoss] = []

    /// What an online migration would do, when ``MigrationOptions/online`` is set; nil otherwise.
    public var online: OnlinePlan?

    /// True when nothing would be done.
    public var isUpToDate: Bool { stages.isEmpty && currentVersion == targetVersion }
    /// True when some step can lose data.
    public var hasDestructiveSteps: Bool { stages.contains { $0.steps.contains { $0.step.destructive } } }
    /// True when some stage breaks the code of the version it starts from (``StageCompatibility``).
    public var hasBreakingStages: Bool { stages.contains { !$0.compatibility.isCompatible } }

    /// What a reviewer must see first, in words: each destructive step with the values it loses,
    /// then the NULLs that will take a default (or must be filled) and the duplicates a new
    /// uniqueness constraint meets (which a custom stage's code must remove).
    public var warnings: [String] {
        var destructive: [String] = []
        var data: [String] = []
        for stage in stages {
            let custom = stage.header.kind == .custom
            for step in stage.steps {
                if step.step.destructive {
                    destructive.append(
                        "destructive: \(step.step.summary)"
                            + (step.impact.map { impact in
                                " (\(impact.lossDescription)"
                                    + (step.step.op == .dropTable ? " in \(counted(impact.rows ?? 0, "row"))" : "")
                                    + ")"
                            } ?? ""))
                }
                for nulls in step.impact?.nulls ?? [] where nulls.count > 0 {
                    data.append(
                        "\(nulls.column): \(counted(nulls.count, "row")) \(holds(nulls.count)) NULL"
                            + (nulls.defaultValue.map { " and will take the default \($0)" }
                                ?? (custom
                                    ? "; didMigrate must fill them before NOT NULL applies"
                                    : " and must be filled before it becomes NOT NULL"))
                    )
                }
                for duplicates in step.impact?.duplicates ?? [] where duplicates.total > 0 {
                    data.append(
                        "(\(duplicates.columns.joined(separator: ", "))) becomes unique but \(counted(duplicates.total, "value")) \(isAre(duplicates.total)) shared by several rows"
                            + (custom ? "; willMigrate must remove them" : ""))
                }
            }
        }
        let removals = stages.flatMap {
            $0.steps.flatMap { step in step.removes.map { "destructive: rebuilding \(step.step.table) removes \($0)" } }
        }
        let breaking = stages.flatMap { $0.steps.flatMap(\.mayBreak) }
        let lost = dataLoss.map { "data loss: \($0)" }
        return lost + destructive + removals + breaking + data + keptUnevaluated + (online?.longLocks ?? [])
    }

    static func forEmptyDatabase(plan: ResolvedPlan, path: String, target: Schema.Version?) throws -> MigrationReport {
        let schema = try plan.target(target)
        let steps = PlannedStage.creating(schema).steps.map { Step(step: $0, sql: $0.sql, impact: nil) }
        return MigrationReport(
            database: path, currentVersion: nil, unversioned: false, targetVersion: schema.version,
            stages: [Stage(header: StageHeader(from: nil, to: schema.version, kind: .lightweight), steps: steps)],
            refusals: [])
    }

    /// - Parameter requireCompatible: list the refusal ``MigrationOptions/requireCompatible``
    ///   makes of a stage that breaks the previous version's code.
    static func make(
        plan: ResolvedPlan, db: SQLiteConnection, target: Schema.Version?, online: OnlineRebuildOptions? = nil,
        requireCompatible: Bool = false
    ) throws -> MigrationReport {
        let state = try VersionDetection(plan: plan, db: db).detect()
        guard let current = state.version else {
            return try forEmptyDatabase(plan: plan, path: db.path, target: target)
        }
        let targetVersion = try plan.target(target).version
        var unversioned = false
        if case .unversioned = state { unversioned = true }
        var pending = try plan.plannedStages(from: current, to: targetVersion)
        var stages: [Stage] = []
        var refusals: [MigrationError] = []
        // The migration refuses it first of all, before it reads anything else.
        if requireCompatible, let refusal = MigrationError.incompatible(pending) { refusals.append(refusal) }
        // A way back that drops data is refused, as the migration refuses it, unless allowed; the
        // losses are counted either way (``dataLoss``).
        let dataLoss = try ReversalDataLoss(pending, db: db)
        if !plan.allowsDataLoss, let refusal = dataLoss.refusal(from: current, to: targetVersion) {
            refusals.append(refusal)
        }
        // What the migration refuses before its first write, the dry run refuses first: a table or
        // index it touches that needs a collation or function this connection lacks (nothing is
        // measured then: SQLite cannot read it either).
        let environment = SQLEnvironmentCheck(db: db)
        let missing = try environment.refusal(for: pending, version: targetVersion)
        if let missing { refusals.append(missing) }
        // A journal that cannot roll back (set by the SQL environment's hook) is refused first.
        if !pending.isEmpty, let unsafe = try JournalCheck.refusal(db) { refusals.append(unsafe) }
        let keptUnevaluated = try environment.keptUnevaluated(for: pending)
        if let change = try OnlineState.read(from: db), change.ownerIsAlive, change.owner != OnlineState.thisOwner {
            refusals.append(change.inProgressError())
        }
        var onlinePlan: OnlinePlan?
        if online != nil, current > targetVersion {
            refusals.append(.onlineBackwards(from: current, to: targetVersion))
        } else if let online {
            onlinePlan = try OnlinePlan.make(
                plan: plan, db: db, from: current, to: targetVersion, options: online, refusals: &refusals,
                pending: &pending)
        }
        // The statements each step runs, as the migration's own step loop runs them on a copy of
        // the schema (``SchemaRehearsal``); a stage it could not walk is rendered step by step.
        let walk =
            missing == nil ? (try? SchemaRehearsal.walk(pending, schemaOf: db, environment: plan.environment)) : nil
        let walked = walk?.stages ?? []
        if let failure = walk?.failure { refusals.append(failure) }
        for (index, planned) in pending.enumerated() {
            let compatibility = planned.compatibility
            let reasonsByStep = compatibility.reasonsByStep(planned.allSteps)
            // Only the first stage meets the live data as it is; later ones are shown as planned,
            // and their refusals predicted from today's data where it tells.
            guard index == 0, missing == nil else {
                if missing == nil {
                    refusals += predictedRefusals(of: planned, after: Array(pending.prefix(index)), db: db)
                }
                let statements = index < walked.count ? walked[index] : planned.allSteps.map(\.sql)
                stages.append(
                    Stage(
                        header: planned.header,
                        steps: zip(planned.allSteps, statements).enumerated().map { position, pair in
                            var step = Step(step: pair.0, sql: pair.1, impact: nil)
                            step.runsAfterDidMigrate = position >= planned.steps.count
                            step.compatibility = reasonsByStep[position]
                            return step
                        }, compatibility: compatibility))
                continue
            }
            let live = try LiveSchema.read(from: db)
            let erased = try FreedPages.areErased(on: db)
            if planned.kind == .lightweight {
                for check in planned.checks {
                    if let refusal = try check.evaluate(on: db, version: planned.to) { refusals.append(refusal) }
                }
            }
            // A unique index under the application's collation whose values collide under this
            // connection's: the rebuild's copy would fail on them (``UniqueCollision``).
            for step in planned.allSteps {
                guard case .rebuild(let rebuild) = step.action,
                    // A table SQLite cannot read here is the environment check's refusal already.
                    let refusal = try? UniqueCollision.predictedRefusal(
                        table: rebuild.sourceTable, db: db, version: planned.to)
                else { continue }
                refusals.append(refusal)
            }
            var measurement = ImpactMeasurement(
                db: db, live: live, source: planned.source, target: planned.target, checks: planned.checks)
            // The temporary names of the stage's renames, as the migration frees them on this database.
            let freed = try TemporaryNameCollisions.freeing(planned.steps, in: live) + planned.finalizingSteps
            let measured = TemporaryNameCollisions.measured(freed)
            let steps = try zip(planned.allSteps, freed).enumerated().map { position, pair -> Step in
                let (step, freedStep) = pair
                let impact = try measurement.measure(measured[position])
                var reported = Step(step: freedStep, sql: freedStep.sql, impact: impact.isEmpty ? nil : impact)
                // The walk ran the stage's steps as the migration does, on the schema as it is:
                // its statements, and what its rebuilds kept and removed, are what runs.
                let ranInWalk = walked.first.map { $0[position] }
                if let ranInWalk { reported.sql = ranInWalk }
                if let rebuilt = walk?.rebuilds.first?[position] {
                    reported.carriedOver = rebuilt.carriedOver
                    reported.removes = rebuilt.removed
                }
                do {
                    // The SQL as it would run on this database: renames shown applied, the rebuild from the live table.
                    let renderer = StepRenderer(
                        live: live, renamesApplied: false, version: planned.to, freedPagesAreErased: erased)
                    // Rendered once; it throws what the migration would refuse at this step. After
                    // a walk of the stage it only serves the check of the live data below: a
                    // refusal the renderer would make, the walk made.
                    let rendering = try renderer.rendering(of: freedStep.action)
                    if ranInWalk == nil {
                        reported.sql = try rendering.map { $0.statements } ?? renderer.statements(for: freedStep.action)
                    }
                    if let rendering {
                        if ranInWalk == nil {
                            reported.carriedOver = rendering.carriedOver
                            reported.removes = rendering.removed
                        }
                        // A STORED generated column the rebuild computes again, over a function of
                        // the application's, that this connection computes differently.
                        if position < planned.steps.count, case .rebuild(let rebuild) = freedStep.action,
                            let table = live.table(named: rebuild.sourceTable),
                            let refusal = try RecomputedStoredValues.refusal(
                                rebuild, parts: rendering.parts, live: table, renamesApplied: false, db: db,
                                version: planned.to)
                        {
                            refusals.append(refusal)
                        }
                    }
                } catch let refusal as MigrationError {
                    // The text rendering shows the renames applied to the table's own SQL, not to
                    // what SQLite rewrites elsewhere (a foreign key onto a renamed table): after a
                    // walk that ran the step, its refusal is the text's, not the migration's.
                    if ranInWalk == nil { refusals.append(refusal) }
                }
                reported.mayBreak = MigrationReport.dependents(breakingOn: step, live: live)
                reported.runsAfterDidMigrate = position >= planned.steps.count
                reported.compatibility = reasonsByStep[position]
                return reported
            }
            stages.append(Stage(header: planned.header, steps: steps, compatibility: compatibility))
        }
        if var measured = onlinePlan, let first = stages.first, measured.stages.first?.from == first.header.from {
            for step in first.steps where step.step.readsWholeTable {
                measured.stages[0].rows[step.step.table] = step.impact?.rows
            }
            onlinePlan = measured
        }
        return MigrationReport(
            database: db.path, currentVersion: current, unversioned: unversioned, targetVersion: targetVersion,
            stages: stages, refusals: refusals, keptUnevaluated: keptUnevaluated, dataLoss: dataLoss.losses,
            online: onlinePlan)
    }
}

extension MigrationReport {
    /// The views and triggers that mention both the table and a column `step` drops, in words.
    static func dependents(breakingOn step: MigrationStep, live: LiveSchema) -> [String] {
        let (table, columns): (String, [String])
        switch step.action {
        case .dropColumn(let name, let column): (table, columns) = (name, [column])
        case .rebuild(let rebuild): (table, columns) = (rebuild.sourceTable, rebuild.droppedColumns)
        default: return []
        }
        guard !columns.isEmpty else { return [] }
        let folded = table.sqlFolded
        return live.dependents.compactMap { dependent in
            let mentioned = SQLTokenizer(dependent.sql).identifierSet()
            guard mentioned.contains(folded) || dependent.tableName.sqlFolded == folded,
                let column = columns.first(where: { mentioned.contains($0.sqlFolded) })
            else { return nil }
            return
                "check: the \(dependent.kind.rawValue) \(dependent.name) mentions \(table).\(column), which this migration drops; if it uses the column, rewrite or drop it first (a custom stage's willMigrate), or the migration fails and rolls back"
        }
    }

    /// The refusals a later stage's data checks would make if the data were then as it is now.
    /// A check whose table or column does not exist yet (an earlier stage creates or renames it)
    /// cannot be predicted and is skipped. Each refusal says what it was predicted from, and
    /// which custom stages run before it and may change the data it depends on.
    static func predictedRefusals(of stage: PlannedStage, after earlier: [PlannedStage], db: SQLiteConnection)
        -> [MigrationError]
    {
        guard stage.kind == .lightweight else { return [] }  // a custom stage's checks run after its willMigrate
        let custom = earlier.filter { $0.kind == .custom }.map { "\($0.from) → \($0.to)" }
        let basis =
            custom.isEmpty
            ? "predicted from the data as it is now (the stages before \(stage.from) → \(stage.to) are lightweight)"
            : "predicted from the data as it is now: depends on what the custom code of the stage\(custom.count > 1 ? "s" : "") \(custom.joined(separator: ", ")) does first"
        return stage.checks.compactMap { check in
            guard let refusal = try? check.evaluate(on: db, version: stage.to) else { return nil }
            var predicted = refusal
            predicted.details.append(basis)
            return predicted
        }
    }
}
