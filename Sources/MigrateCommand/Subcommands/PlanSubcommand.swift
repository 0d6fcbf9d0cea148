import Foundation
import SchemaMigrations

/// `plan`: the dry run. What `apply` would do to each database, step by step with its SQL and
/// the data it touches, as text, JSON, a `sqlite3` script, or Markdown. Never writes.
enum PlanSubcommand {
    static func make(hasSwiftPlan: Bool) -> Subcommand {
        Subcommand(
            name: "plan",
            abstract: "Dry run: what apply would do, with its SQL and the data it touches; never writes",
            discussion: """
                The database is opened read-only. The report lists refusals and warnings first (destructive \
                steps leading), then each stage's steps with their cost and, for the first stage, their impact \
                measured on the data: rows rewritten, NULLs a new NOT NULL meets, duplicates a new unique \
                constraint meets, non-empty values a dropped column or table holds.
                Formats: text (a person at a terminal), json (a program), markdown (a pull request), sql (a \
                script for the sqlite3 shell that does what apply does, metadata included; it is learnt by \
                rehearsing the migration on a temporary copy of the database).
                With --simulate, the plan is also applied to a temporary copy of the database (SQLite's backup \
                API): the report says whether it succeeds on today's data and how long each step took.
                Exit status: 0 when apply would succeed; the status apply would exit with when the dry run \
                already knows it would fail (1, 4 or 5); 5 with --deny-destructive when a step can lose data.
                """,
            options: [SharedOptions.database, SharedOptions.plan(hasSwiftPlan: hasSwiftPlan), SharedOptions.to,
                      SharedOptions.format(["text", "json", "sql", "markdown"]), SharedOptions.denyDestructive, SharedOptions.busyTimeout,
                      Option.flag("--simulate", help: "also apply the plan to a temporary copy, and report whether it succeeds and each step's time")],
            run: run)
    }

    static func run(_ invocation: Invocation) throws -> ExitCode {
        let migrator = try invocation.migrator()
        let format = invocation.format(default: "text")
        let denyDestructive = invocation.arguments.flag("--deny-destructive")
        let outcomes = DatabaseOutcome.each(invocation.databases) { url in
            let report = try migrator.plan(databaseAt: url)
            var outcome = DatabaseOutcome(database: url.path, status: .success, text: "", summary: "",
                                          json: JSONOutput.object(parsing: try report.json()))
            if let refusal = report.refusals.max(by: { ExitCode(for: $0).severity < ExitCode(for: $1).severity }) {
                outcome.status = ExitCode(for: refusal)
                outcome.message = "the migration would be refused:\n" + report.refusals.map(\.description).joined(separator: "\n")
            } else if denyDestructive && report.hasDestructiveSteps {
                outcome.status = .refused
                outcome.message = DestructiveSteps.refusal(report)
            }
            var simulated: String?
            if invocation.arguments.flag("--simulate"), report.refusals.isEmpty {
                let simulation = try migrator.simulate(databaseAt: url)
                if let error = simulation.error {
                    outcome.status = ExitCode(for: error)
                    outcome.message = "the migration fails on a copy of today's data:\n\(error)"
                }
                var json: [String: Any] = ["succeeded": simulation.succeeded, "durationMs": (simulation.duration * 1000).rounded(),
                                           "steps": simulation.steps.map { ["stage": $0.stage, "summary": $0.summary, "durationMs": ($0.duration * 1000).rounded()] }]
                json["error"] = simulation.error.map(JSONOutput.error)
                outcome.json["simulation"] = json
                simulated = simulation.text
            }
            switch format {
            case "json": break
            case "markdown": outcome.text = report.markdown
            case "sql" where report.refusals.isEmpty: outcome.text = try migrator.script(databaseAt: url).text
            case "sql": break
            default: outcome.text = report.text
            }
            if let simulated, format == "text" || format == "markdown" { outcome.text += "\n" + simulated }
            return outcome
        }
        return FleetOutput(console: invocation.console, json: format == "json", layout: .details).print(outcomes)
    }
}
