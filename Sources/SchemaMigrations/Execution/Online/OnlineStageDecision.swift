/// Whether an online migration runs one stage online (its rebuilds through shadow tables) or
/// offline (in one transaction, as without the option), and why: the one decision that both the
/// migration and the dry run make.
struct OnlineStageDecision {
    /// The stage's table rebuilds, each to be done through its shadow when the stage runs online.
    var changes: [OnlineTableChange]
    /// Why the stage runs offline; empty when it runs online (or has no rebuild).
    var offlineReasons: [String]
    /// The indexes each table's shadow builds row by row as the copy writes (the old table's
    /// other indexes move to the new table as they are), by table; known for the tables that
    /// are there now.
    var indexesBuilt: [String: [String]] = [:]
    /// The indexes each table's shadow gets after the copy, built in key order
    /// (``SortedIndexBuild``), by table.
    var indexesInKeyOrder: [String: [String]] = [:]

    /// True when the stage's rebuilds run through shadow tables.
    var runsOnline: Bool { !changes.isEmpty && offlineReasons.isEmpty }

    /// The reasons, with "it rebuilds no table" for a stage whose steps are all quick.
    var reasonsForOffline: [String] {
        changes.isEmpty ? ["it rebuilds no table, so its steps are quick"] : offlineReasons
    }

    /// Decides for `stage` (planned by ``OnlineMigration/planner``) on the live schema as it is
    /// before the stage.
    /// - Parameter predicting: true for a dry run's later stage, decided on today's schema: a
    ///   table that is not there yet is judged by the plan alone instead of refused.
    /// - Parameter recorded: the shadow tables of the online change in progress (``OnlineState``),
    ///   folded: their objects are this package's own, not names the database took.
    /// - Throws: `MigrationError` when a rebuilt table is missing (unless predicting).
    init(_ stage: PlannedStage, live: LiveSchema, predicting: Bool = false, recorded: Set<String> = []) throws {
        changes = []
        offlineReasons = []
        if !stage.checks.isEmpty || !stage.finalizingChecks.isEmpty {
            offlineReasons.append("its data checks read whole tables")
        }
        if stage.allSteps.contains(where: { $0.op == .renameTable }) { offlineReasons.append("it renames a table") }
        for step in stage.allSteps {
            guard case .rebuild(let rebuild) = step.action else { continue }
            let change = OnlineTableChange(rebuild: rebuild)
            do {
                let (table, parts) = try change.parts(in: live, renamesApplied: false, version: stage.to)
                if let reason = change.refusal(live: table, parts: parts) { offlineReasons.append(reason) }
                let taken = change.takenNames(in: live, indexCount: parts.indexes.count, recorded: recorded)
                if !taken.isEmpty {
                    offlineReasons.append(
                        "the database already has \(taken.joined(separator: ", ")), \(taken.count == 1 ? "a name" : "names") the online change of \(rebuild.table) gives its own objects (rename \(taken.count == 1 ? "it" : "them") to run it online)"
                    )
                }
                let sorted = Set(change.sortedIndexBuilds(parts: parts).map(\.position))
                func names(_ positions: [Int]) throws -> [String] {
                    try positions.map {
                        try OnlineTableChange.renamed(indexSQL: parts.indexes[$0], to: "", on: "").name
                    }
                }
                let built = try names(parts.shadowBuiltIndexes.filter { !sorted.contains($0) })
                if !built.isEmpty { indexesBuilt[rebuild.table] = built }
                let inKeyOrder = try names(parts.shadowBuiltIndexes.filter { sorted.contains($0) })
                if !inKeyOrder.isEmpty { indexesInKeyOrder[rebuild.table] = inKeyOrder }
            } catch  where predicting {
                if let reason = change.refusal(live: nil, parts: nil) { offlineReasons.append(reason) }
            }
            changes.append(change)
        }
    }
}
