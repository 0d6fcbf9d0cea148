#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension PlanLint: CustomStringConvertible {
    /// The lint for a terminal, as `migrate lint` prints it: each stage, each step with its classes.
    ///
    /// ```
    /// plan SampleTrips: 2 stages, 5 steps (1 destructive, 2 data-dependent, 1 rebuild)
    /// stage 1.0.0 → 2.0.0 (custom)
    ///   1. [data-dependent, rebuild] Rebuild table Trip (copies every row): …
    ///        (name) becomes unique on Trip: no value may be shared
    /// ```
    public var description: String {
        let steps = stages.flatMap(\.steps)
        var lines = [
            "plan \(plan): \(counted(stages.count, "stage")), \(counted(steps.count, "step")) ("
                + "\(steps.filter(\.destructive).count) destructive, \(steps.filter { !$0.dataDependencies.isEmpty }.count) data-dependent, "
                + "\(steps.filter { $0.cost == .rebuild }.count) rebuild)"
        ]
        for stage in stages {
            lines.append(
                "stage \(stage.header)"
                    + (stage.header.kind == .custom ? ": its code runs too (willMigrate / didMigrate)" : ""))
            lines += stage.compatibility.lines(previous: stage.header.from)
            if stage.steps.isEmpty { lines.append("  (no schema change)") }
            for (index, step) in stage.steps.enumerated() {
                let classes = step.classes + (step.compatibility.isEmpty ? [] : ["breaking"])
                lines.append("  \(index + 1). [\(classes.joined(separator: ", "))] \(step.step.summary)")
                lines += step.dataDependencies.map { "       \($0)" }
            }
        }
        return lines.joined(separator: "\n")
    }

    /// ``description`` with a final newline.
    @available(*, deprecated, renamed: "description")
    public var text: String { description + "\n" }

    /// The lint as JSON: `plan`, `destructive` (whether any step is), `breaking` (whether any
    /// stage breaks the previous version's code), and `stages`, each with `from`, `to`, `kind`,
    /// `compatibility` (`class`, `reasons`, and `codeClassified: false` for a custom stage) and
    /// `steps` (`op`, `table`, `summary`, `sql`, `classes`, `destructive`, `dataDependencies`,
    /// `cost`, `compatibility`).
    public func json() throws -> String {
        try CanonicalJSON.encodePretty(self) + "\n"
    }

    /// The lint as Markdown, for a pull request: a table of steps per stage.
    public var markdown: String {
        var lines = ["### Lint of plan \(MigrationReport.markdownCode(plan))", ""]
        lines.append(hasDestructiveSteps ? "> [!CAUTION]\n> Some steps can lose data." : "No step can lose data.")
        lines.append("")
        for stage in stages {
            lines += ["#### Stage \(stage.header)", ""]
            lines += stage.compatibility.markdown(
                previous: stage.header.from, escape: MigrationReport.markdownEscaped)
            lines += ["| # | Step | Classes | Depends on the data |", "|---|---|---|---|"]
            for (index, step) in stage.steps.enumerated() {
                let classes = (step.classes + (step.compatibility.isEmpty ? [] : ["breaking"])).map {
                    $0 == "destructive" || $0 == "breaking" ? "**\($0)**" : $0
                }.joined(separator: ", ")
                lines.append(
                    "| \(index + 1) | \(MigrationReport.markdownEscaped(step.step.summary)) | \(classes) | \(step.dataDependencies.map(MigrationReport.markdownEscaped).joined(separator: "<br>")) |"
                )
            }
            lines.append("")
        }
        return lines.joined(separator: "\n")
    }
}

extension PlanLint: Encodable {
    private enum CodingKeys: String, CodingKey { case plan, destructive, breaking, stages }

    /// Encodes it with the keys of `migrate lint --format json`.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(plan, forKey: .plan)
        try container.encode(hasDestructiveSteps, forKey: .destructive)
        try container.encode(hasBreakingStages, forKey: .breaking)
        try container.encode(stages, forKey: .stages)
    }
}

extension PlanLint.Step: Encodable {
    private enum CodingKeys: String, CodingKey {
        case op, table, summary, sql, classes, destructive, dataDependencies, cost, compatibility
    }

    /// Encodes it with the keys of `migrate lint --format json`.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(step.op, forKey: .op)
        try container.encode(step.table, forKey: .table)
        try container.encode(step.summary, forKey: .summary)
        try container.encode(step.sql, forKey: .sql)
        try container.encode(classes, forKey: .classes)
        try container.encode(destructive, forKey: .destructive)
        try container.encode(dataDependencies, forKey: .dataDependencies)
        try container.encode(cost.name, forKey: .cost)
        try container.encode(
            StageCompatibility(reasons: compatibility, codeIsNotClassified: false), forKey: .compatibility)
    }
}
