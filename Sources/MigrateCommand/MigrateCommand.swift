import Foundation
import SchemaMigrations

/// The `migrate` command as a library: `status`, `plan`, `apply`, `verify`, `snapshot` and
/// `help`, with the exit statuses deploy pipelines rely on (``ExitCode``).
///
/// An app embeds it in an executable of its own, with its Swift plan (custom stages included),
/// so that its pipeline needs no `--plan`:
///
/// ```swift
/// // Sources/trips-migrate/main.swift
/// import MigrateCommand
/// import TripsModel
///
/// MigrateCommand.main(plan: TripsMigrationPlan.self)
/// ```
///
/// Without a Swift plan (the package's own `migrate` executable), every subcommand reads a JSON
/// plan directory given with `--plan DIR`.
public struct MigrateCommand: Sendable {
    /// The embedded Swift plan, if any.
    public var plan: (any SchemaMigrationPlan.Type)?
    /// The command's name in help and messages.
    public var name: String
    /// The subcommands: the built-in ones, then the app's.
    public var subcommands: [Subcommand]

    /// - Parameters:
    ///   - plan: the app's Swift plan; nil to require `--plan DIR`.
    ///   - name: the name in help and messages; by default the executable's file name.
    ///   - extraSubcommands: the app's own subcommands, listed after the built-in ones.
    public init(plan: (any SchemaMigrationPlan.Type)? = nil, name: String? = nil, extraSubcommands: [Subcommand] = []) {
        self.plan = plan
        self.name = name ?? CommandLine.arguments.first.map { URL(fileURLWithPath: $0).lastPathComponent } ?? "migrate"
        self.subcommands = BuiltInSubcommands.all(hasSwiftPlan: plan != nil) + extraSubcommands
    }

    /// Runs the command on the process's arguments and exits with its status.
    public static func main(plan: (any SchemaMigrationPlan.Type)? = nil, extraSubcommands: [Subcommand] = []) -> Never {
        let status = MigrateCommand(plan: plan, extraSubcommands: extraSubcommands).run(Array(CommandLine.arguments.dropFirst()))
        exit(status.rawValue)
    }

    /// Runs the command on `arguments` (without the executable's name).
    /// - Returns: the exit status; output and errors went to `console`.
    public func run(_ arguments: [String], console: Console = .standard) -> ExitCode {
        let help = HelpText(commandName: name, subcommands: subcommands,
                            planDescription: plan.map { "the plan '\($0.name)' it embeds (or a JSON plan directory: --plan DIR)" } ?? "a JSON plan directory (--plan DIR)")
        guard let first = arguments.first else {
            console.error("error: missing subcommand\n\n" + help.general)
            return .usageError
        }
        if first == "--help" || first == "-h" {
            console.output(help.general)
            return .success
        }
        if first == "help" {
            return showHelp(Array(arguments.dropFirst()), help: help, console: console)
        }
        guard let subcommand = subcommands.first(where: { $0.name == first }) else {
            console.error("error: unknown subcommand '\(first)'\n\n" + help.general)
            return .usageError
        }
        let words = Array(arguments.dropFirst())
        if words.contains("--help") || words.contains("-h") {
            console.output(help.usage(of: subcommand))
            return .success
        }
        do {
            let parsed = try ArgumentParser.parse(words, for: subcommand)
            return try subcommand.run(Invocation(arguments: parsed, console: console, commandName: name, plan: plan))
        } catch let error as UsageError {
            console.error("\(error)\n\n" + help.usage(of: subcommands.first { $0.name == error.subcommand } ?? subcommand))
            return .usageError
        } catch let failure as CommandFailure {
            console.error(failure.message.hasSuffix("\n") ? failure.message : failure.message + "\n")
            return failure.status
        } catch {
            console.error("\(error)\n")
            return ExitCode(forAny: error)
        }
    }

    private func showHelp(_ words: [String], help: HelpText, console: Console) -> ExitCode {
        switch words.count {
        case 0:
            console.output(help.general)
            return .success
        case 1:
            guard let subcommand = subcommands.first(where: { $0.name == words[0] }) else {
                if words[0] == "help" {
                    console.output(help.general)
                    return .success
                }
                console.error("error: unknown subcommand '\(words[0])'\n\n" + help.general)
                return .usageError
            }
            console.output(help.usage(of: subcommand))
            return .success
        default:
            console.error("error: help takes one subcommand, not '\(words.joined(separator: " "))'\n\n" + help.general)
            return .usageError
        }
    }
}

/// A subcommand's early end with a status and a message for standard error (the plan cannot be
/// loaded, a backup path is taken): thrown, and printed by ``MigrateCommand/run(_:console:)``.
struct CommandFailure: Error {
    var status: ExitCode
    var message: String
}
