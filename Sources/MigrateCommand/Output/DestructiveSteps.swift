import SchemaMigrations

/// The refusal `--deny-destructive` gives, naming the steps that can lose data.
enum DestructiveSteps {
    static func refusal(_ report: MigrationReport) -> String {
        let destructive = report.stages.flatMap(\.steps).filter(\.step.destructive)
        return "error: refused by --deny-destructive: \(destructive.count) steps can lose data\n"
            + destructive.map { "  - \($0.step.summary)" + ($0.impact.map { " (\($0.lostValues) non-empty values)" } ?? "") }.joined(separator: "\n")
            + "\n  fix: have a person review the plan, then run without --deny-destructive"
    }
}
