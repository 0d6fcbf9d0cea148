import SchemaMigrations

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The refusal `--deny-destructive` gives, naming the steps that can lose data, in each form:
/// text for standard error, an entry of the JSON `refusals` (and the `error`), a Markdown caution.
enum DestructiveSteps {
    static let remedy = "have a person review the plan, then run without --deny-destructive"

    /// The destructive steps, each with the values it loses when measured: `Drop column Note.legacy (2 non-empty values)`.
    static func names(_ report: MigrationReport) -> [String] {
        report.stages.flatMap(\.steps).filter(\.step.destructive).map { step in
            step.step.summary + (step.impact.map { " (\($0.lossDescription))" } ?? "")
        }
    }

    /// `refused by --deny-destructive: 1 step can lose data`.
    static func message(_ report: MigrationReport) -> String {
        let count = names(report).count
        return "refused by --deny-destructive: \(count) step\(count == 1 ? "" : "s") can lose data"
    }

    /// The refusal for standard error.
    static func refusal(_ report: MigrationReport) -> String {
        "error: \(message(report))\n" + names(report).map { "  - \($0)" }.joined(separator: "\n") + "\n  fix: \(remedy)"
    }

    /// The refusal as a JSON object, shaped like the report's other refusals and like an `error`.
    static func json(_ report: MigrationReport) -> [String: Any] {
        [
            "code": "destructive", "message": message(report), "details": names(report), "remedy": remedy,
            "cause": JSONNull(),
        ]
    }

    /// The refusal as a Markdown caution, for the top of a pull request's report.
    static func markdown(_ report: MigrationReport) -> String {
        "> [!CAUTION]\n> **Refused by --deny-destructive:** \(message(report).dropFirst("refused by --deny-destructive: ".count)). Fix: \(remedy).\n"
            + names(report).map { "> - \(MigrationReport.markdownEscaped($0))" }.joined(separator: "\n") + "\n\n"
    }
}
