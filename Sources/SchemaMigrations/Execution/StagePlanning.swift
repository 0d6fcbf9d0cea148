/// Plans the stages between two versions of a plan.
enum StagePlanning {
    /// The stages from `current` to `target`, each planned, paired with its declaration.
    /// - Throws: `MigrationError` for any change a stage cannot make (before anything runs).
    static func stages(of plan: ResolvedPlan, from current: Schema.Version, to target: Schema.Version,
                       planner: Planner = Planner()) throws -> [(PlannedStage, ResolvedStage)] {
        try plan.stages.filter { $0.from >= current && $0.to <= target }.map { resolved in
            let stage = try planner.plan(from: plan.schema(for: resolved.from)!, to: plan.schema(for: resolved.to)!, kind: resolved.kind)
            return (stage, resolved)
        }
    }
}
