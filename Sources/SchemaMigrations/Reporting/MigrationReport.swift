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
        /// Rows of the table the step rewrites (or drops), when measured.
        public var rowsAffected: Int64?
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

    static func forEmptyDatabase(plan: ResolvedPlan, path: String, target: Schema.Version?) throws -> MigrationReport {
        let schema = try target.map { version in
            guard let schema = plan.schema(for: version) else { throw MigrationError(.invalidPlan, "the target version \(version) is not declared", version: version) }
            return schema
        } ?? plan.latest
        let steps = schema.entities.map { entity -> Step in
            let step = MigrationStep(action: .createTable(entity))
            return Step(step: step, sql: step.sql, rowsAffected: nil)
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
        var refusals: [MigrationError] = []
        for (index, (planned, _)) in pending.enumerated() {
            // Only the first stage meets the live data as it is; later ones are shown as planned.
            let live = index == 0 ? try LiveSchema.read(from: db) : nil
            if index == 0 && planned.kind == .lightweight {
                for check in planned.checks {
                    if let refusal = try check.evaluate(on: db, version: planned.to) { refusals.append(refusal) }
                }
            }
            let steps = try planned.allSteps.map { step -> Step in
                var rows: Int64?
                if let live, step.rewritesRows || step.op == .dropTable, live.table(named: step.table) != nil {
                    rows = try db.scalar("SELECT count(*) FROM \(SQL.quoteIdentifier(step.table))")?.int64Value
                }
                return Step(step: step, sql: step.action.statements(live: live), rowsAffected: rows)
            }
            stages.append(Stage(from: planned.from, to: planned.to, kind: planned.kind, steps: steps))
        }
        return MigrationReport(database: db.path, currentVersion: current, unversioned: unversioned, targetVersion: targetVersion,
                               stages: stages, refusals: refusals)
    }
}
