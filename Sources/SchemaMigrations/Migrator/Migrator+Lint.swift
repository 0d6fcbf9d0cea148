#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Migrator {
    /// Plans every stage of the plan from its declarations, without a database, and classifies
    /// each step (``PlanLint``).
    /// - Throws: `MigrationError` when the plan is malformed, SQLite rejects SQL a version declares
    ///   (`invalidSchema`, with SQLite's message), or a lightweight stage asks for a change the
    ///   planner refuses whatever the data (`unsupportedChange`).
    public func lint() throws -> PlanLint {
        let plan = try resolvedPlan()
        try DeclaredSQLCheck.check(plan.schemas, environment: options.sqlEnvironment)
        guard let first = plan.schemas.first?.version, let last = plan.schemas.last?.version else {
            return PlanLint(plan: plan.name, stages: [])
        }
        let stages = try plan.plannedStages(from: first, to: last).map(PlanLint.stage)
        return PlanLint(plan: plan.name, stages: stages)
    }
}

extension PlanDirectory {
    /// The plan directory checked without a database (``PlanLint``). Unlike a migrator for the
    /// directory, a custom stage is accepted: its schema changes are linted; its code, which the
    /// directory does not hold, is not.
    /// - Throws: `MigrationError` when the plan is malformed or a change is refused whatever the data.
    public func lint() throws -> PlanLint {
        try Migrator(resolvedPlan: try resolvedPlan(allowingCustomStages: true)).lint()
    }
}
