/// The subcommands every `migrate` command has, in the order help lists them.
enum BuiltInSubcommands {
    /// Their names, in the order help lists them.
    static let names = [
        "status", "plan", "apply", "revert", "verify", "snapshot", "history", "lint", "baseline", "scaffold",
        "capture", "test",
    ]

    /// - Parameter hasSwiftPlan: whether the command embeds a Swift plan (then `--plan` is optional).
    static func all(hasSwiftPlan: Bool) -> [Subcommand] {
        names.compactMap { named($0, hasSwiftPlan: hasSwiftPlan) }
    }

    /// The built-in subcommand named `name`, nil for none: made alone, so that a run makes only the
    /// one it runs.
    static func named(_ name: String, hasSwiftPlan: Bool) -> Subcommand? {
        let made: Subcommand
        switch name {
        case "status": made = StatusSubcommand.make(hasSwiftPlan: hasSwiftPlan)
        case "plan": made = PlanSubcommand.make(hasSwiftPlan: hasSwiftPlan)
        case "apply": made = ApplySubcommand.make(hasSwiftPlan: hasSwiftPlan)
        case "revert": made = RevertSubcommand.make(hasSwiftPlan: hasSwiftPlan)
        case "verify": made = VerifySubcommand.make(hasSwiftPlan: hasSwiftPlan)
        case "snapshot": made = SnapshotSubcommand.make(hasSwiftPlan: hasSwiftPlan)
        case "history": made = HistorySubcommand.make(hasSwiftPlan: hasSwiftPlan)
        case "lint": made = LintSubcommand.make(hasSwiftPlan: hasSwiftPlan)
        case "baseline": made = BaselineSubcommand.make(hasSwiftPlan: hasSwiftPlan)
        case "scaffold": made = ScaffoldSubcommand.make(hasSwiftPlan: hasSwiftPlan)
        case "capture": made = CaptureSubcommand.make(hasSwiftPlan: hasSwiftPlan)
        case "test": made = TestSubcommand.make(hasSwiftPlan: hasSwiftPlan)
        default: return nil
        }
        return SharedOptions.addingLoadExtension(to: [made])[0]
    }
}
