#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension PlanLint {
    /// The lint for a terminal: each stage, each step with its classes, then a verdict.
    ///
    /// ```
    /// plan SampleTrips: 2 stages, 5 steps (1 destructive, 2 data-dependent, 1 rebuild)
    /// stage 1.0.0 → 2.0.0 (custom)
    ///   1. [data-dependent, rebuild] Rebuild table Trip (copies every row): …
    ///        (name) becomes unique on Trip: no value may be shared
    /// ```
    public var text: String {
        let steps = stages.flatMap(\.steps)
        var lines = ["plan \(plan): \(counted(stages.count, "stage")), \(counted(steps.count, "step")) ("
                     + "\(steps.filter(\.destructive).count) destructive, \(steps.filter { !$0.dataDependencies.isEmpty }.count) data-dependent, "
                     + "\(steps.filter { $0.cost == .rebuild }.count) rebuild)"]
        for stage in stages {
            lines.append("stage \(stage.from) → \(stage.to) (\(stage.kind.rawValue))" + (stage.kind == .custom ? ": its code runs too (willMigrate / didMigrate)" : ""))
            if stage.steps.isEmpty { lines.append("  (no schema change)") }
            for (index, step) in stage.steps.enumerated() {
                lines.append("  \(index + 1). [\(step.classes.joined(separator: ", "))] \(step.step.summary)")
                lines += step.dataDependencies.map { "       \($0)" }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The lint as JSON: `plan`, `destructive` (whether any step is), and `stages`, each with
    /// `from`, `to`, `kind` and `steps` (`op`, `table`, `summary`, `sql`, `classes`,
    /// `destructive`, `dataDependencies`, `cost`).
    public func json() throws -> String {
        try CanonicalJSON.encodePretty(JSONLint(self)) + "\n"
    }

    /// The lint as Markdown, for a pull request: a table of steps per stage.
    public var markdown: String {
        var lines = ["### Lint of plan \(MigrationReport.markdownCode(plan))", ""]
        lines.append(hasDestructiveSteps ? "> [!CAUTION]\n> Some steps can lose data." : "No step can lose data.")
        lines.append("")
        for stage in stages {
            lines += ["#### Stage \(stage.from) → \(stage.to) (\(stage.kind.rawValue))", "", "| # | Step | Classes | Depends on the data |", "|---|---|---|---|"]
            for (index, step) in stage.steps.enumerated() {
                let classes = step.classes.map { $0 == "destructive" ? "**destructive**" : $0 }.joined(separator: ", ")
                lines.append("| \(index + 1) | \(MigrationReport.markdownEscaped(step.step.summary)) | \(classes) | \(step.dataDependencies.map(MigrationReport.markdownEscaped).joined(separator: "<br>")) |")
            }
            lines.append("")
        }
        return lines.joined(separator: "\n")
    }
}

private struct JSONLint: Encodable {
    struct Step: Encodable {
        var op: String
        var table: String
        var summary: String
        var sql: [String]
        var classes: [String]
        var destructive: Bool
        var dataDependencies: [String]
        var cost: String
    }
    struct Stage: Encodable {
        var from: String
        var to: String
        var kind: String
        var steps: [Step]
    }
    var plan: String
    var destructive: Bool
    var stages: [Stage]

    init(_ lint: PlanLint) {
        plan = lint.plan
        destructive = lint.hasDestructiveSteps
        stages = lint.stages.map { stage in
            Stage(from: stage.from.description, to: stage.to.description, kind: stage.kind.rawValue, steps: stage.steps.map {
                Step(op: $0.step.op.rawValue, table: $0.step.table, summary: $0.step.summary, sql: $0.step.sql, classes: $0.classes,
                     destructive: $0.destructive, dataDependencies: $0.dataDependencies, cost: $0.cost.rawValue)
            })
        }
    }
}
