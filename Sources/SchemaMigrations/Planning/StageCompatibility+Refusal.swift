extension MigrationError {
    /// What to do about a breaking stage: split it into two releases.
    static let expandContractRemedy =
        "split the change expand/contract: first release a version that only adds (the new column beside the old one, optional or with a default; a custom stage copies the values), deploy it everywhere, then drop or rename the old one in a later release (MIGRATIONS.md, \"Compatibility with the running version\"); or migrate without requiring compatibility where no instance of the previous version still runs"

    /// The refusal of `stages` when compatibility is required: nil when every one is compatible.
    ///
    /// ```
    /// error: stage 1.0.0 → 2.0.0 breaks the code of version 1.0.0, which instances not yet updated still run
    ///   entity: Trip, property: start_date, version: 2.0.0
    ///   - 1.0.0 → 2.0.0: renames column Trip.start_date to startDate: the previous version reads and writes start_date
    ///   fix: split the change expand/contract: …
    /// ```
    static func incompatible(_ stages: [(header: StageHeader, compatibility: StageCompatibility)])
        -> MigrationError?
    {
        let breaking = stages.filter { !$0.compatibility.isCompatible }
        guard let first = breaking.first, let reason = first.compatibility.reasons.first else { return nil }
        let versions = breaking.map(\.header.versions)
        let message =
            breaking.count == 1
            ? "stage \(versions[0]) breaks the code of version \(first.header.from.map(\.description) ?? "-"), which instances not yet updated still run"
            : "stages \(versions.joined(separator: ", ")) break the code of the versions they start from, which instances not yet updated still run"
        let details = breaking.flatMap { stage in
            stage.compatibility.reasons.map { "\(stage.header.versions): \($0.message)\($0.effectNote)" }
                + (stage.compatibility.codeIsNotClassified
                    ? ["\(stage.header.versions): a custom stage; \(StageCompatibility.codeNote)"] : [])
        }
        return MigrationError(
            .incompatibleChange, message, entity: reason.entity, property: reason.property,
            version: first.header.to, remedy: expandContractRemedy, details: details)
    }

    /// The refusal of the planned `stages` when compatibility is required.
    static func incompatible(_ stages: [PlannedStage]) -> MigrationError? {
        incompatible(stages.map { ($0.header, $0.compatibility) })
    }

    /// The refusal ``MigrationOptions/requireCompatible`` makes of a database at `current`
    /// migrated to `target`: nil when nothing is pending (an empty file, the version current)
    /// or every pending stage is compatible.
    static func incompatible(plan: ResolvedPlan, from current: Schema.Version?, to target: Schema.Version) throws
        -> MigrationError?
    {
        guard let current, current < target else { return nil }
        return incompatible(try plan.plannedStages(from: current, to: target))
    }
}
