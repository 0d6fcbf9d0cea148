import Foundation
import SchemaMigrations

/// `snapshot`: writes a JSON plan directory (plan.json and one schema snapshot per version),
/// from the embedded Swift plan or from `--plan DIR` (normalizing it).
enum SnapshotSubcommand {
    static func make(hasSwiftPlan: Bool) -> Subcommand {
        Subcommand(
            name: "snapshot",
            abstract: "Writes a JSON plan directory: plan.json and one schema snapshot per version",
            discussion: """
                From the embedded Swift plan (its custom stages are listed, but only the Swift plan can run \
                them), or from --plan DIR, rewritten in canonical form. Commit the snapshots: a released \
                version must never change (FrozenVersions.changes(in:comparedTo:) tells when one did). \
                --from and --through keep a range of versions, for example the lightweight tail of a plan \
                for the bare migrate command.
                """,
            options: [SharedOptions.plan(hasSwiftPlan: hasSwiftPlan),
                      .value("--output", "DIR", required: true, help: "the directory to write (created if needed)"),
                      .value("--from", "VERSION", help: "the first version to keep"),
                      .value("--through", "VERSION", help: "the last version to keep")],
            run: run)
    }

    static func run(_ invocation: Invocation) throws -> ExitCode {
        let arguments = invocation.arguments
        let from = try arguments.version("--from"), through = try arguments.version("--through")
        let output = URL(fileURLWithPath: arguments.value("--output")!)
        let directory: PlanDirectory
        do {
            if let path = arguments.value("--plan") {
                directory = try PlanDirectory(contentsOf: URL(fileURLWithPath: path))
            } else if let plan = invocation.plan {
                directory = try PlanDirectory(plan: plan)
            } else {
                throw UsageError("missing --plan DIR", subcommand: arguments.subcommand)
            }
        } catch let error as MigrationError {
            throw CommandFailure(status: ExitCode.planNotLoaded, message: "\(invocation.commandName): the plan cannot be loaded\n\(error)", error: error)
        }
        let kept: PlanDirectory
        do {
            kept = try directory.restricted(from: from, through: through)
        } catch let error as MigrationError {
            throw UsageError("--from/--through: \(error.message); \(error.remedy ?? "")", subcommand: arguments.subcommand)
        }
        for url in try kept.write(to: output) {
            invocation.console.output("wrote \(url.path)\n")
        }
        return .success
    }
}
