import Foundation
import SchemaMigrations

/// The options several subcommands share, and what they mean.
enum SharedOptions {
    static let database = Option.value("--database", "PATH", repeatable: true, required: true,
                                       help: "the database file; repeat it for a fleet: each file migrates on its own")

    /// `--plan DIR`: required unless the command embeds a Swift plan.
    static func plan(hasSwiftPlan: Bool) -> Option {
        .value("--plan", "DIR", required: !hasSwiftPlan,
               help: hasSwiftPlan ? "a JSON plan directory to use instead of the embedded plan" : "the JSON plan directory: plan.json and one schema snapshot per version")
    }

    static let to = Option.value("--to", "VERSION", help: "stop at this version instead of the plan's latest")
    static let busyTimeout = Option.value("--busy-timeout", "SECONDS", help: "how long to wait for another connection's lock (default 5)")
    static let denyDestructive = Option.flag("--deny-destructive", help: "refuse (exit 5) when a step can lose data")

    static func format(_ choices: [String]) -> Option {
        .value("--format", "FORMAT", choices: choices, help: "the output format (default \(choices[0]))")
    }
}

extension Invocation {
    /// The migrator for `--plan DIR`, or the embedded Swift plan, with `--to` and `--busy-timeout`.
    /// - Throws: ``CommandFailure`` (exit 2) when the plan cannot be loaded; ``UsageError`` when
    ///   `--to` names a version the plan does not declare.
    func migrator(adjusting adjust: (inout MigrationOptions) -> Void = { _ in }) throws -> Migrator {
        var options = MigrationOptions(targetVersion: try arguments.version("--to"))
        if let timeout = try arguments.number("--busy-timeout") { options.busyTimeout = timeout }
        adjust(&options)
        let migrator: Migrator
        let versions: [Schema.Version]
        do {
            if let directory = arguments.value("--plan") {
                migrator = try Migrator(planDirectory: URL(fileURLWithPath: directory), options: options)
            } else if let plan {
                migrator = Migrator(plan: plan, options: options)
            } else {
                throw UsageError("missing --plan DIR", subcommand: arguments.subcommand)
            }
            versions = try migrator.schemas().map(\.version)
        } catch let error as MigrationError {
            throw CommandFailure(status: ExitCode.planNotLoaded, message: "\(commandName): the plan cannot be loaded\n\(error)")
        }
        if let target = options.targetVersion, !versions.contains(target) {
            throw UsageError("--to \(target): the plan declares " + versions.map(\.description).joined(separator: ", "), subcommand: arguments.subcommand)
        }
        return migrator
    }

    /// Every `--database`, as file URLs, in the order given.
    var databases: [URL] { arguments.values("--database").map { URL(fileURLWithPath: $0) } }

    /// `--format`, or the first choice when absent.
    func format(default first: String) -> String { arguments.value("--format") ?? first }
}
