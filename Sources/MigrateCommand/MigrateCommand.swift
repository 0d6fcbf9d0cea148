import SchemaMigrations

#if canImport(Glibc)
    import Glibc
#endif
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The `migrate` command as a library: `status`, `plan`, `apply`, `verify`, `snapshot`,
/// `history`, `lint`, `baseline`, `scaffold` and `help`, with the exit statuses deploy pipelines
/// rely on (``MigrateExitCode``).
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
    ///
    /// Built when read: a run builds only the subcommand it runs (the built-in ones hold every
    /// option's help, which a command that starts, finds the database up to date and ends does
    /// not print), unless this list was set.
    public var subcommands: [Subcommand] {
        get {
            assignedSubcommands ?? ClusterSubcommands.noting(
                BuiltInSubcommands.all(hasSwiftPlan: builtInsHaveSwiftPlan))
                + extraSubcommands
        }
        set { assignedSubcommands = newValue }
    }
    /// Whether the built-in subcommands were made for a Swift plan (`--plan` optional): fixed at `init`.
    private let builtInsHaveSwiftPlan: Bool
    /// The app's subcommands given to `init`, listed after the built-in ones.
    private let extraSubcommands: [Subcommand]
    /// The list ``subcommands`` was set to, if it was.
    private var assignedSubcommands: [Subcommand]?
    /// The app's collations, functions and extensions, given to every connection the command
    /// opens (each `--load-extension` is added after them): a database that needs them is read and
    /// migrated as the app reads it.
    public var sqlEnvironment: SQLEnvironment

    /// - Parameters:
    ///   - plan: the app's Swift plan; nil to require `--plan DIR`.
    ///   - name: the name in help and messages; by default the executable's file name.
    ///   - sqlEnvironment: the app's collations, functions and extensions
    ///     (`SQLEnvironment`).
    ///   - extraSubcommands: the app's own subcommands, listed after the built-in ones.
    public init(
        plan: (any SchemaMigrationPlan.Type)? = nil, name: String? = nil, sqlEnvironment: SQLEnvironment = .none,
        extraSubcommands: [Subcommand] = []
    ) {
        self.plan = plan
        self.name = name ?? CommandLine.arguments.first.map(MigrateCommand.executableName(of:)) ?? "migrate"
        self.sqlEnvironment = sqlEnvironment
        self.builtInsHaveSwiftPlan = plan != nil
        self.extraSubcommands = extraSubcommands
    }

    /// The subcommand named `name` in ``subcommands`` (the first one, should two have it), building
    /// no other.
    func subcommand(named name: String) -> Subcommand? {
        if let assignedSubcommands { return assignedSubcommands.first { $0.name == name } }
        if let builtIn = BuiltInSubcommands.named(name, hasSwiftPlan: builtInsHaveSwiftPlan) {
            return ClusterSubcommands.noting([builtIn])[0]
        }
        return extraSubcommands.first { $0.name == name }
    }

    /// Runs the command on the process's arguments and exits with its status.
    ///
    /// ```swift
    /// MigrateCommand.main(plan: AppMigrationPlan.self,
    ///                     sqlEnvironment: SQLEnvironment(collations: [SQLCollation("unicase", AppText.compareFolded)]))
    /// ```
    public static func main(
        plan: (any SchemaMigrationPlan.Type)? = nil, sqlEnvironment: SQLEnvironment = .none,
        extraSubcommands: [Subcommand] = []
    ) -> Never {
        // Swift on Linux reads a process's arguments from /proc/self/cmdline: without /proc there
        // are none, not even argv[0], and every command would read as a bare `migrate`.
        guard CommandLine.argc > 0 else {
            Console.standard.error(
                "error: cannot read the command line: /proc is not mounted (Swift reads a process's arguments from /proc/self/cmdline on Linux)\n  fix: mount proc in the container (every container runtime does by default)\n"
            )
            SystemCalls.exitProcess(MigrateExitCode.usageError.rawValue)
        }
        let status = MigrateCommand(plan: plan, sqlEnvironment: sqlEnvironment, extraSubcommands: extraSubcommands).run(
            Array(CommandLine.arguments.dropFirst()), environment: processEnvironment())
        SystemCalls.exitProcess(status.rawValue)
    }

    /// The executable's file name in `path` (`argv[0]`), as `URL(fileURLWithPath:).lastPathComponent`
    /// gives it; a plain last component is taken as it is, without parsing a URL.
    static func executableName(of path: String) -> String {
        let scalars = path.unicodeScalars
        let last = String(scalars[(scalars.lastIndex(of: "/").map(scalars.index(after:)) ?? scalars.startIndex)...])
        if !last.isEmpty && last != "." && last != ".." { return last }
        return URL(fileURLWithPath: path).lastPathComponent
    }

    /// The process's environment, as `ProcessInfo.processInfo.environment` reads it (each
    /// `NAME=value` entry split at its first `=`, a later entry winning), without instantiating
    /// `ProcessInfo`: every run of the command reads it, for its `MIGRATE_*` variables.
    static func processEnvironment() -> [String: String] {
        #if canImport(Glibc)
            var environment: [String: String] = [:]
            var entry: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = environ  // NULL after clearenv(3)
            while let pointer = entry?.pointee {
                let bytes = UnsafeBufferPointer(
                    start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: strlen(pointer))
                // The first `=` byte splits the entry where ProcessInfo's first `=` Character does,
                // unless a non-ASCII scalar beside it could join it in one Character: then as ProcessInfo.
                if let delimiter = bytes.firstIndex(of: UInt8(ascii: "=")),
                    delimiter == 0 || bytes[delimiter - 1] < 0x80,
                    delimiter + 1 == bytes.count || bytes[delimiter + 1] < 0x80
                {
                    environment[String(decoding: UnsafeBufferPointer(rebasing: bytes[..<delimiter]), as: UTF8.self)] =
                        String(decoding: UnsafeBufferPointer(rebasing: bytes[(delimiter + 1)...]), as: UTF8.self)
                } else {
                    let text = String(cString: pointer)
                    if let delimiter = text.firstIndex(of: "=") {
                        environment[String(text[..<delimiter])] = String(text[text.index(after: delimiter)...])
                    }
                }
                entry = entry! + 1
            }
            return environment
        #else
            return ProcessInfo.processInfo.environment
        #endif
    }

    /// The command's version, printed by `--version`.
    public static let version = "0.9.0"

    /// The SQLite library's version: `3.40.1`.
    static var sqliteVersion: String {
        let number = SQLiteConnection.libraryVersionNumber
        return "\(number / 1_000_000).\(number / 1000 % 1000).\(number % 1000)"
    }

    /// Runs the command on `arguments` (without the executable's name).
    /// - Parameters:
    ///   - arguments: the command line after the executable's name (`["apply", "--database", "app.sqlite"]`).
    ///   - console: where output and errors go.
    ///   - environment: where options not on the command line come from (`MIGRATE_DATABASE`…).
    /// - Returns: the exit status; output and errors went to `console`. With `--format json`
    ///   (or `MIGRATE_FORMAT=json`), every status prints one JSON object, usage errors included.
    public func run(
        _ arguments: [String], console: Console = .standard,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> MigrateExitCode {
        // The help and the list of names are made only when printed: they need every subcommand.
        func help() -> HelpText {
            HelpText(
                commandName: name, subcommands: subcommands,
                planDescription: plan.map { "the plan '\($0.name)' it embeds (or a JSON plan directory: --plan DIR)" }
                    ?? "a JSON plan directory (--plan DIR)")
        }
        func names() -> [String] { subcommands.map(\.name) + ["help"] }
        let errors = CommandErrorOutput(
            console: console, json: EnvironmentDefaults.format(in: arguments, environment: environment) == "json")
        guard let first = arguments.first else {
            return errors.usage(
                UsageError("missing subcommand", remedy: "one of: " + names().joined(separator: ", ")),
                usage: help().general)
        }
        switch first {
        case "--help", "-h":
            console.output(help().general)
            return .success
        case "--version":
            console.output(
                "\(name) \(MigrateCommand.version) (SchemaMigrations, SQLite \(MigrateCommand.sqliteVersion))\n")
            return .success
        case "help":
            return showHelp(Array(arguments.dropFirst()), help: help(), errors: errors, console: console)
        default:
            break
        }
        guard var subcommand = subcommand(named: first) else {
            return errors.usage(
                UsageError(
                    "unknown subcommand '\(first)'",
                    remedy: Suggestion.remedy(for: first, among: names() + ["--version", "--help"])),
                usage: help().general)
        }
        let words = Array(arguments.dropFirst())
        do {
            if try ClusterSubcommands.chosen(by: words, environment: environment, for: subcommand) {
                subcommand = ClusterSubcommands.variant(of: subcommand, hasSwiftPlan: plan != nil)
            }
        } catch let error as UsageError {
            return errors.usage(error, usage: help().usage(of: subcommand))
        } catch {
            return errors.failure(MigrateExitCode(forAny: error), message: "\(error)", error: error)
        }
        if words.contains("--help") || words.contains("-h") {
            console.output(help().usage(of: subcommand))
            return .success
        }
        do {
            let parsed = try ArgumentParser.parse(words, for: subcommand, environment: environment)
            return try subcommand.run(
                Invocation(
                    arguments: parsed, console: console, commandName: name, plan: plan, environment: environment,
                    sqlEnvironment: sqlEnvironment))
        } catch let error as UsageError {
            return errors.usage(
                error, usage: help().usage(of: error.subcommand.flatMap { self.subcommand(named: $0) } ?? subcommand))
        } catch let failure as CommandFailure {
            return errors.failure(failure.status, message: failure.message, error: failure.error)
        } catch {
            return errors.failure(MigrateExitCode(forAny: error), message: "\(error)", error: error)
        }
    }

    private func showHelp(_ words: [String], help: HelpText, errors: CommandErrorOutput, console: Console)
        -> MigrateExitCode
    {
        // `help --help`, `help plan --help`: help all the same
        let words = words.filter { $0 != "--help" && $0 != "-h" }
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
                return errors.usage(
                    UsageError(
                        "unknown subcommand '\(words[0])'",
                        remedy: Suggestion.remedy(for: words[0], among: subcommands.map(\.name))),
                    usage: help.general)
            }
            console.output(help.usage(of: subcommand))
            return .success
        default:
            return errors.usage(
                UsageError("help takes one subcommand, not '\(words.joined(separator: " "))'"), usage: help.general)
        }
    }
}

/// A subcommand's early end with a status and a message for standard error (the plan cannot be
/// loaded, a backup path is taken): thrown, and printed by ``MigrateCommand/run(_:console:)``.
struct CommandFailure: Error {
    var status: MigrateExitCode
    var message: String
    /// The error underneath, for the JSON form.
    var error: Error? = nil
}
