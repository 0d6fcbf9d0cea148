import SchemaMigrations

/// The refusal `--require-compatible` gives on `lint`, where no report lists refusals: a Markdown
/// caution naming each breaking stage and reason (text and JSON print the `MigrationError`).
enum CompatibilityRefusal {
    /// The refusal as a Markdown caution, for the top of a pull request's lint.
    static func markdown(_ refusal: MigrationError) -> String {
        "> [!CAUTION]\n> **Refused by --require-compatible:** \(MigrationReport.markdownEscaped(refusal.message))."
            + (refusal.remedy.map { " Fix: \(MigrationReport.markdownEscaped($0))." } ?? "") + "\n"
            + refusal.details.map { "> - \(MigrationReport.markdownEscaped($0))" }.joined(separator: "\n") + "\n\n"
    }
}
