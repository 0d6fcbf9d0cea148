/// The subcommands every `migrate` command has, in the order help lists them.
enum BuiltInSubcommands {
    /// - Parameter hasSwiftPlan: whether the command embeds a Swift plan (then `--plan` is optional).
    static func all(hasSwiftPlan: Bool) -> [Subcommand] {
        SharedOptions.addingLoadExtension(to: [
            StatusSubcommand.make(hasSwiftPlan: hasSwiftPlan),
            PlanSubcommand.make(hasSwiftPlan: hasSwiftPlan),
            ApplySubcommand.make(hasSwiftPlan: hasSwiftPlan),
            VerifySubcommand.make(hasSwiftPlan: hasSwiftPlan),
            SnapshotSubcommand.make(hasSwiftPlan: hasSwiftPlan),
            HistorySubcommand.make(hasSwiftPlan: hasSwiftPlan),
            LintSubcommand.make(hasSwiftPlan: hasSwiftPlan),
            BaselineSubcommand.make(hasSwiftPlan: hasSwiftPlan),
            ScaffoldSubcommand.make(hasSwiftPlan: hasSwiftPlan),
        ])
    }
}
