import SchemaMigrations

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

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
                --deny-destructive names the steps that can lose data in every format (JSON: in refusals and \
                error; Markdown: a caution at the top), and a refused --format sql prints no script.
                Each stage says whether it is compatible with the code of the version it starts from (which \
                a rolling deploy still runs) or breaks it, and why; --require-compatible refuses (exit 5) a \
                breaking stage, naming it and its reasons, as apply --require-compatible would.
                Markdown never shows a value read from the database unless --show-values is given: counts only.
                A fleet's --format sql needs --output DIR: one script per database, DIR/NAME.sql.
                With --online, the plan is apply --online's: which stages rebuild their tables online (prepare, \
                copy in chunks of --chunk-target milliseconds, the cut-over's work, release) and which run \
                offline in one transaction and why, with a warning for each offline stage that works through \
                a table under the write lock; a custom stage is refused (exit 5) in apply's words. \
                --format sql is the offline script, so it is not combined with --online.
                --to a version older than the database's shows the way back: each stage taken back (kind \
                revert), and the data it would drop (rows and non-empty values of what the newer versions \
                added), refused (exit 5) unless --allow-data-loss.
                Exit status: 0 when apply would succeed; the status apply would exit with when the dry run \
                already knows it would fail (1, 4 or 5); 5 with --deny-destructive when a step can lose data, \
                and with --require-compatible when a stage breaks the previous version's code.
                """,
            options: [
                SharedOptions.database, SharedOptions.plan(hasSwiftPlan: hasSwiftPlan), SharedOptions.to,
                SharedOptions.format(["text", "json", "sql", "markdown"]), SharedOptions.denyDestructive,
                SharedOptions.requireCompatible, SharedOptions.allowDataLoss, SharedOptions.busyTimeout,
                CommandOption.flag(
                    "--simulate",
                    help: "also apply the plan to a temporary copy, and report whether it succeeds and each step's time"
                ),
                CommandOption.flag(
                    "--show-values",
                    help: "markdown: show the values read from the database (duplicates, rows holding NULL), escaped"),
                CommandOption.value(
                    "--output", "DIR",
                    help: "sql: write one script per database into DIR (NAME.sql) instead of standard output"),
                SharedOptions.online, SharedOptions.chunkTarget,
                SharedOptions.databasesFrom, SharedOptions.jobs,
            ],
            alternatives: [SharedOptions.databaseChoice],
            run: run)
    }

    static func run(_ invocation: Invocation) throws -> MigrateExitCode {
        let arguments = invocation.arguments
        let online = try invocation.onlineOptions()
        let format = invocation.format(default: "text")
        if online != nil, format == "sql" {
            throw UsageError(
                "\(arguments.label("--online")) cannot be combined with --format sql: the script is the offline migration",
                subcommand: arguments.subcommand, remedy: "use --format text, json or markdown to see the online plan")
        }
        let migrator = try invocation.migrator {
            $0.online = online
            $0.requireCompatible = arguments.flag("--require-compatible")
        }
        let denyDestructive = arguments.flag("--deny-destructive")
        let databases = try invocation.databases()
        let scripts = try ScriptDirectory(arguments: arguments, format: format, databaseCount: databases.count)
        let outcomes = try invocation.eachDatabase(databases) { url in
            let report = try migrator.plan(databaseAt: url)
            var outcome = DatabaseOutcome(
                database: url.path, status: .success, text: "", summary: "",
                json: JSONOutput.object(parsing: try report.json()))
            var refusedByDenial = false
            if let refusal = report.refusals.max(by: {
                MigrateExitCode(for: $0).severity < MigrateExitCode(for: $1).severity
            }) {
                outcome.status = MigrateExitCode(for: refusal)
                outcome.message =
                    "the migration would be refused:\n" + report.refusals.map(\.description).joined(separator: "\n")
                outcome.json["error"] = JSONOutput.error(refusal)
                if denyDestructive && report.hasDestructiveSteps {
                    // Named too: a reviewer sees every reason the plan is refused at once.
                    refusedByDenial = true
                    outcome.message! += "\n" + DestructiveSteps.refusal(report)
                    outcome.json["refusals"] =
                        ((outcome.json["refusals"] as? [Any]) ?? []) + [DestructiveSteps.json(report)]
                }
            } else if denyDestructive && report.hasDestructiveSteps {
                refusedByDenial = true
                outcome.status = .refused
                outcome.message = DestructiveSteps.refusal(report)
                let refusal = DestructiveSteps.json(report)
                outcome.json["refusals"] = ((outcome.json["refusals"] as? [Any]) ?? []) + [refusal]
                outcome.json["error"] = refusal
            }
            var simulated: String?
            if arguments.flag("--simulate"), report.refusals.isEmpty {
                simulated = attach(try migrator.simulate(databaseAt: url), to: &outcome)
            }
            switch format {
            case "json": break
            case "markdown":
                outcome.text =
                    (refusedByDenial ? DestructiveSteps.markdown(report) : "")
                    + report.markdown(showingValues: arguments.flag("--show-values"))
            case "sql" where report.refusals.isEmpty && !refusedByDenial && outcome.status == .success:
                let script = try migrator.script(databaseAt: url).text
                if let written = try scripts.write(script, for: url) {
                    outcome.text = "wrote \(written.path)\n"
                    outcome.json["script"] = written.path
                } else {
                    outcome.text = script
                }
            case "sql": break  // refused: no script to run
            default: outcome.text = report.description + "\n"
            }
            outcome.summary =
                outcome.status == .success
                ? (report.isUpToDate
                    ? "up to date at \(report.targetVersion)"
                    : "\(report.currentVersion.map(\.description) ?? "empty") → \(report.targetVersion): \(report.stages.count) stage\(report.stages.count == 1 ? "" : "s")")
                : "\(outcome.status): " + (outcome.message?.split(separator: "\n").first.map(String.init) ?? "")
            if let simulated, format == "text" || format == "markdown" { outcome.text += "\n" + simulated }
            return outcome
        }
        return FleetOutput(console: invocation.console, json: format == "json", layout: .details).print(outcomes)
    }
    /// Adds a simulation's verdict to `outcome` (its status, message and JSON `simulation`) and
    /// returns its text, for a file's plan and a cluster's alike.
    static func attach(_ simulation: MigrationSimulation, to outcome: inout DatabaseOutcome) -> String {
        if let error = simulation.error {
            outcome.status = MigrateExitCode(for: error)
            outcome.message = "the migration fails on a copy of today's data:\n\(error)"
            outcome.json["error"] = JSONOutput.error(error)
        }
        var json: [String: Any] = [
            "succeeded": simulation.succeeded, "durationMs": (simulation.duration * 1000).rounded(),
            "steps": simulation.steps.map {
                ["stage": $0.stage, "summary": $0.summary, "durationMs": ($0.duration * 1000).rounded()]
            },
        ]
        json["error"] = simulation.error.map(JSONOutput.error)
        outcome.json["simulation"] = json
        return simulation.description + "\n"
    }
}
