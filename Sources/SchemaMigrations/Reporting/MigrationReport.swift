import Foundation

/// A dry run: what a migration would do to one database, measured on its live data, without writing.
///
/// ```swift
/// let report = try Migrator(plan: TripsMigrationPlan.self).plan(databaseAt: url)
/// print(report.text)
/// ```
public struct MigrationReport: Sendable {
    /// One planned step, with what it would touch.
    public struct Step: Sendable {
        public var step: MigrationStep
        /// The SQL it would run, resolved against the live schema where it could be.
        public var sql: [String]
        /// What it would do to the live data, when measured (steps of the first pending stage).
        public var impact: Impact?
        /// Rows of the table the step rewrites (or drops), when measured.
        public var rowsAffected: Int64? { impact?.rows }
    }

    /// One planned stage.
    public struct Stage: Sendable {
        public var from: Schema.Version?
        public var to: Schema.Version
        public var kind: StageKind
        public var steps: [Step]
    }

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

    /// True when nothing would be done.
    public var isUpToDate: Bool { stages.isEmpty && currentVersion == targetVersion }
    /// True when some step can lose data.
    public var hasDestructiveSteps: Bool { stages.contains { $0.steps.contains { $0.step.destructive } } }

    /// What a reviewer must see first, in words: each destructive step with the values it loses,
    /// then the NULLs that will take a default (or must be filled) and the duplicates a new
    /// uniqueness constraint meets (which a custom stage's code must remove).
    public var warnings: [String] {
        var destructive: [String] = []
        var data: [String] = []
        for stage in stages {
            let custom = stage.kind == .custom
            for step in stage.steps {
                if step.step.destructive {
                    destructive.append("destructive: \(step.step.summary)" + (step.impact.map { impact in
                        " (\(counted(impact.lostValues, "non-empty value"))" + (step.step.op == .dropTable ? " in \(counted(impact.rows ?? 0, "row"))" : "") + ")"
                    } ?? ""))
                }
                for nulls in step.impact?.nulls ?? [] where nulls.count > 0 {
                    data.append("\(nulls.column): \(counted(nulls.count, "row")) \(holds(nulls.count)) NULL" + (nulls.defaultValue.map { " and will take the default \($0)" }
                        ?? (custom ? "; didMigrate must fill them before NOT NULL applies" : " and must be filled before it becomes NOT NULL")))
                }
                for duplicates in step.impact?.duplicates ?? [] where duplicates.total > 0 {
                    data.append("(\(duplicates.columns.joined(separator: ", "))) becomes unique but \(counted(duplicates.total, "value")) \(isAre(duplicates.total)) shared by several rows"
                        + (custom ? "; willMigrate must remove them" : ""))
                }
            }
        }
        return destructive + data
    }

    static func forEmptyDatabase(plan: ResolvedPlan, path: String, target: Schema.Version?) throws -> MigrationReport {
        let schema = try target.map { version in
            guard let schema = plan.schema(for: version) else { throw MigrationError(.invalidPlan, "the target version \(version) is not declared", version: version) }
            return schema
        } ?? plan.latest
        let steps = schema.entities.map { entity -> Step in
            let step = MigrationStep(action: .createTable(entity))
            return Step(step: step, sql: step.sql, impact: nil)
        }
        return MigrationReport(database: path, currentVersion: nil, unversioned: false, targetVersion: schema.version,
                               stages: [Stage(from: nil, to: schema.version, kind: .lightweight, steps: steps)], refusals: [])
    }

    static func make(plan: ResolvedPlan, db: SQLiteConnection, target: Schema.Version?) throws -> MigrationReport {
        let state = try VersionDetection(plan: plan, db: db).detect()
        guard let current = state.version else {
            return try forEmptyDatabase(plan: plan, path: db.path, target: target)
        }
        let targetVersion = target ?? plan.latest.version
        var unversioned = false
        if case .unversioned = state { unversioned = true }
        let pending = try StagePlanning.stages(of: plan, from: current, to: targetVersion)
        var stages: [Stage] = []
        var refusals: [MigrationError] = current > targetVersion ? [.backwards(from: current, to: targetVersion)] : []
        for (index, (planned, _)) in pending.enumerated() {
            // Only the first stage meets the live data as it is; later ones are shown as planned.
            guard index == 0 else {
                stages.append(Stage(from: planned.from, to: planned.to, kind: planned.kind,
                                    steps: planned.allSteps.map { Step(step: $0, sql: $0.action.statements(live: nil), impact: nil) }))
                continue
            }
            let live = try LiveSchema.read(from: db)
            if planned.kind == .lightweight {
                for check in planned.checks {
                    if let refusal = try check.evaluate(on: db, version: planned.to) { refusals.append(refusal) }
                }
            }
            var measurement = ImpactMeasurement(db: db, live: live, source: plan.schema(for: planned.from)!,
                                                target: plan.schema(for: planned.to)!, checks: planned.checks)
            let steps = try planned.allSteps.map { step -> Step in
                let impact = try measurement.measure(step)
                return Step(step: step, sql: step.action.statements(live: live), impact: impact.isEmpty ? nil : impact)
            }
            stages.append(Stage(from: planned.from, to: planned.to, kind: planned.kind, steps: steps))
        }
        return MigrationReport(database: db.path, currentVersion: current, unversioned: unversioned, targetVersion: targetVersion,
                               stages: stages, refusals: refusals)
    }
}
