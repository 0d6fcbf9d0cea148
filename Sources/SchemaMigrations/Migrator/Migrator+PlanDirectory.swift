#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Migrator {
    /// A migrator for a JSON plan directory (`plan.json` and one snapshot per version): what the
    /// `migrate` command runs when given `--plan DIR`.
    ///
    /// ```swift
    /// let migrator = try Migrator(planDirectory: URL(fileURLWithPath: "Fixtures/SampleTrips/json-plan"))
    /// try migrator.migrate(databaseAt: url)
    /// ```
    /// - Throws: `MigrationError` naming the file when the directory cannot be read (see
    ///   ``PlanDirectory/init(contentsOf:)``), and with code `invalidPlan` when it lists a custom
    ///   stage: only the Swift plan can run one.
    public init(planDirectory directory: URL, options: MigrationOptions = MigrationOptions()) throws {
        // Validated once: reading the directory resolves its plan, which is the migrator's
        // unless a stage is custom.
        let (plan, resolved) = try PlanDirectory.read(contentsOf: directory)
        try plan.refuseCustomStages()
        self.init(resolvedPlan: resolved, options: options)
    }

    /// A migrator for a plan directory already read.
    /// - Throws: `MigrationError` with code `invalidPlan` when the plan is malformed or lists a custom stage.
    public init(planDirectory: PlanDirectory, options: MigrationOptions = MigrationOptions()) throws {
        self.init(resolvedPlan: try planDirectory.resolvedPlan(allowingCustomStages: false), options: options)
    }
}
