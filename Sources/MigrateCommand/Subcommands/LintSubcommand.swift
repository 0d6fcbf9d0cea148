import SchemaMigrations

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `lint`: the plan checked without a database: each stage's steps classified as destructive,
/// data-dependent, rebuild, scan or O(1). Exit 5 with `--deny-destructive` when a step can lose data.
enum LintSubcommand {
    static func make(hasSwiftPlan: Bool) -> Subcommand {
        Subcommand(
            name: "lint",
            abstract: "Checks a plan without a database: which steps can lose data, depend on it, or rewrite tables",
            discussion: """
                Plans every stage from the declarations alone and classifies each step: destructive (drops a \
                table or a column), data-dependent (succeeds only if the data allows it: a uniqueness constraint \
                added, a column becoming NOT NULL, a type conversion, a non-optional column added), and its \
                cost: rebuild (copies every row), scan (reads every row: an index), O(1) (schema only).
                Each stage is also classified compatible with the code of the version it starts from (which \
                a rolling deploy still runs beside the new one) or breaking it, with every reason naming the \
                entity and property; --require-compatible refuses a plan with a breaking stage.
                Exit status: 0; 5 with --deny-destructive when a step can lose data, with --require-compatible \
                when a stage breaks the previous version's code, or when the planner refuses a change whatever \
                the data; 2 when the plan cannot be loaded.
                """,
            options: [
                SharedOptions.plan(hasSwiftPlan: hasSwiftPlan), SharedOptions.format(["text", "json", "markdown"]),
                SharedOptions.denyDestructive, SharedOptions.requireCompatible,
            ],
            run: run)
    }

    /// The lint, or the planner's refusal as the command's failure (exit 5).
    private static func linted(_ body: () throws -> PlanLint) throws -> PlanLint {
        do {
            return try body()
        } catch let error as MigrationError {
            throw CommandFailure(status: MigrateExitCode(for: error), message: "\(error)", error: error)
        }
    }

    static func run(_ invocation: Invocation) throws -> MigrateExitCode {
        let format = invocation.format(default: "text")
        let console = invocation.console
        let lint: PlanLint
        if let path = invocation.arguments.value("--plan") {
            // A JSON plan directory, custom stages included: their schema changes can be linted.
            let directory: PlanDirectory
            do {
                directory = try PlanDirectory(contentsOf: URL(fileURLWithPath: path))
            } catch let error as MigrationError {
                throw CommandFailure(
                    status: MigrateExitCode.planNotLoaded,
                    message: "\(invocation.commandName): the plan cannot be loaded\n\(error)", error: error)
            }
            lint = try linted { try directory.lint() }
        } else {
            let migrator = try invocation.migrator()
            lint = try linted { try migrator.lint() }
        }
        let refused = invocation.arguments.flag("--deny-destructive") && lint.hasDestructiveSteps
        let destructive = lint.stages.flatMap { stage in
            stage.steps.filter(\.destructive).map { "\(stage.header.versions): \($0.step.summary)" }
        }
        let incompatibility = invocation.arguments.flag("--require-compatible") ? lint.incompatibility : nil
        let status: MigrateExitCode = refused || incompatibility != nil ? .refused : .success
        let message =
            "refused by --deny-destructive: \(destructive.count) step\(destructive.count == 1 ? "" : "s") can lose data"
        let remedy = "have a person review the plan, then run without --deny-destructive"
        if refused {
            console.error("error: \(message)\n" + destructive.map { "  - \($0)\n" }.joined() + "  fix: \(remedy)\n")
        }
        if let incompatibility { console.error("\(incompatibility)\n") }
        switch format {
        case "json":
            var object = JSONOutput.object(parsing: try lint.json())
            object["exitStatus"] = Int(status.rawValue)
            let refusal: [String: Any] = [
                "code": "destructive", "message": message, "details": destructive, "remedy": remedy,
                "cause": JSONNull(),
            ]
            let refusals = (refused ? [refusal] : []) + (incompatibility.map { [JSONOutput.error($0)] } ?? [])
            object["refusals"] = refusals
            if let first = refusals.first { object["error"] = first }
            console.output(JSONOutput.string(object))
        case "markdown":
            console.output(
                (refused
                    ? "> [!CAUTION]\n> **Refused by --deny-destructive:** \(destructive.count) step\(destructive.count == 1 ? "" : "s") can lose data. Fix: \(remedy).\n\n"
                    : "")
                    + (incompatibility.map(CompatibilityRefusal.markdown) ?? "")
                    + lint.markdown)
        default:
            console.output(lint.description + "\n")
        }
        return status
    }
}
