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
            if stage.steps.isEmpty { lines.append("  (no schema change)") }
            for (index, step) in stage.steps.enumerated() {
                lines.append("  \(index + 1). [\(step.classes.joined(separator: ", "))] \(step.step.summary)")
                lines += step.dataDependencies.map { "       \($0)" }
            }
        }
        return lines.joined(separator: "\n")
    }

    /// ``description`` with a final newline.
    @available(*, deprecated, renamed: "description")
    public var text: String { description + "\n" }

    /// The lint as JSON: `plan`, `destructive` (whether any step is), and `stages`, each with
    /// `from`, `to`, `kind` and `steps` (`op`, `table`, `summary`, `sql`, `classes`,
    /// `destructive`, `dataDependencies`, `cost`).
    public func json() throws -> String {
        try CanonicalJSON.encodePretty(self) + "\n"
    }

    /// The lint as Markdown, for a pull request: a table of steps per stage.
    public var markdown: String {
        var lines = ["### Lint of plan \(MigrationReport.markdownCode(plan))", ""]
        lines.append(hasDestructiveSteps ? "> [!CAUTION]\n> Some steps can lose data." : "No step can lose data.")
        lines.append("")
        for stage in stages {
            lines += [
                "#### Stage \(stage.header)", "", "| # | Step | Classes | Depends on the data |", "|---|---|---|---|",
            ]
            for (index, step) in stage.steps.enumerated() {
                let classes = step.classes.map { $0 == "destructive" ? "**destructive**" : $0 }.joined(separator: ", ")
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
    private enum CodingKeys: String, CodingKey { case plan, destructive, stages }

    /// Encodes it with the keys of `migrate lint --format json`.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(plan, forKey: .plan)
        try container.encode(hasDestructiveSteps, forKey: .destructive)
        try container.encode(stages, forKey: .stages)
    }
}

extension PlanLint.Step: Encodable {
    private enum CodingKeys: String, CodingKey {
        case op, table, summary, sql, classes, destructive, dataDependencies, cost
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
    }
}
