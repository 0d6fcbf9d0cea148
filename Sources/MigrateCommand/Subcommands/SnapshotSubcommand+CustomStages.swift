import SchemaMigrations

extension SnapshotSubcommand {
    /// The custom stages of a plan `snapshot` is asked to write, and what to say about them: a JSON
    /// plan directory holding one is refused by every command that runs a plan (only the Swift
    /// plan has the stage's code), so `snapshot` refuses to write it unless told to, and names the
    /// part of the plan it can write.
    struct CustomStages {
        var stages: [StageHeader]
        var planName: String
        var commandName: String
        /// The first version after the last custom stage: `--from` it keeps what `migrate --plan` runs.
        var runnableFrom: Schema.Version?

        init(_ plan: PlanDirectory, commandName: String) {
            stages = plan.stages.filter { $0.kind == .custom }
            planName = plan.name
            self.commandName = commandName
            runnableFrom = stages.last?.to
        }

        /// `the stage 1.0.0 → 2.0.0 is custom`, or `the stages 1.0.0 → 2.0.0 and 3.0.0 → 4.0.0 are custom`.
        private var named: String {
            let list = stages.map(\.versions)
            let joined =
                list.count == 1 ? list[0] : list.dropLast().joined(separator: ", ") + " and " + list.last!
            return list.count == 1 ? "the stage \(joined) is custom" : "the stages \(joined) are custom"
        }

        /// `--from 2.0.0 writes the versions from 2.0.0 on, which `migrate --plan` runs`, when such a version exists.
        private var tail: String? {
            runnableFrom.map { "--from \($0) writes the versions from \($0) on, which `migrate --plan` runs" }
        }

        /// The refusal: what stands in the way, that nothing was written, and the ways on.
        var refusal: String {
            """
            \(commandName): \(named) in the plan '\(planName)': its code is Swift, which a JSON plan directory \
            cannot hold, so `migrate --plan` would refuse the directory; nothing was written
              fix: \(tail.map { $0 + "; " } ?? "")--include-custom-stages writes the whole plan all the same, to \
            freeze every version's snapshot (the command embedding the Swift plan runs it)
            """
        }

        /// The note after writing such a directory all the same.
        var note: String {
            "note: \(named): `migrate --plan` refuses this directory, the command embedding the Swift plan runs it"
                + (tail.map { "; \($0)" } ?? "") + "\n"
        }
    }
}
