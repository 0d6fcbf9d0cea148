#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Migrator {
    /// The version the database at `url` was at before its last migration forward, as its
    /// history says: what `migrate revert` takes it back to.
    ///
    /// The stages one run applied are recorded back to back, each starting when the one before
    /// it ended (also when each stage had a transaction of its own), so a run from 1.0.0 to 3.0.0
    /// is reverted to 1.0.0 in one go, while two runs (1.0.0 → 2.0.0 yesterday, 2.0.0 → 3.0.0
    /// today) are reverted one at a time.
    ///
    /// ```swift
    /// let migrator = Migrator(plan: TripsMigrationPlan.self)
    /// var back = migrator
    /// back.options.targetVersion = try migrator.revertTarget(databaseAt: url)
    /// try back.migrate(databaseAt: url)   // recorded as `revert` stages
    /// ```
    /// - Returns: the version before the last run's first stage.
    /// - Throws: `MigrationError` (`unsupportedChange`) when there is nothing to revert: no
    ///   history, or its last entry is no stage forward (a `revert`, a `create`, an `adopt`, a
    ///   `baseline`), or the version before it is one the plan does not declare; the errors of
    ///   ``history(databaseAt:)``.
    public func revertTarget(databaseAt url: URL) throws -> Schema.Version {
        let stages = try history(databaseAt: url)
        let forward: Set<String> = [StageKind.lightweight.rawValue, StageKind.custom.rawValue]
        guard let last = stages.last, forward.contains(last.kind), let lastFrom = last.from else {
            let name = try resolved.get().name
            let said =
                stages.last.map { "its last entry in the history is '\($0.kind)' at \($0.to)" }
                ?? "it has no history of the plan '\(name)'"
            throw MigrationError(
                .unsupportedChange, "nothing to revert in '\(url.path)': \(said)", version: stages.last?.to,
                remedy:
                    "revert undoes the last apply that migrated forward; to go to a given version, use apply --to VERSION (MigrationOptions.targetVersion)"
            )
        }
        var target = lastFrom
        var index = stages.count - 1
        while index > 0 {
            let (previous, current) = (stages[index - 1], stages[index])
            let previousEnd = previous.appliedAt.timeIntervalSince1970 + previous.duration
            guard forward.contains(previous.kind), let from = previous.from, previous.to == current.from,
                abs(current.appliedAt.timeIntervalSince1970 - previousEnd) < 0.000_01
            else { break }
            target = from
            index -= 1
        }
        let plan = try resolved.get()
        guard plan.schema(for: target) != nil else {
            throw MigrationError(
                .unsupportedChange,
                "cannot revert '\(url.path)': its last apply came from version \(target), which the plan '\(plan.name)' does not declare",
                version: target,
                remedy:
                    "revert with the plan that applied it (it declares \(target)), or go to a version this plan declares with apply --to VERSION"
            )
        }
        return target
    }
}
