/// The command's help: the general usage (subcommands, exit statuses) and each subcommand's.
struct HelpText {
    let commandName: String
    let subcommands: [Subcommand]
    /// What the command migrates with, in words: the embedded plan, or `--plan DIR`.
    let planDescription: String

    /// `usage: migrate <subcommand> [options]`, the subcommands, and the exit statuses.
    var general: String {
        let width = (subcommands.map(\.name.count) + [4]).max()! + 2
        var lines = [
            "usage: \(commandName) <subcommand> [options]",
            "",
            "Migrates SQLite databases between the schema versions of \(planDescription).",
            "",
            "subcommands:",
        ]
        lines += subcommands.map { "  " + $0.name.paddedRight(toWidth: width) + $0.abstract }
        lines.append("  " + "help".paddedRight(toWidth: width) + "Shows this help, or a subcommand's: help SUBCOMMAND")
        lines += ["", "exit status:"] + HelpText.exitStatuses.map { "  \($0.0.rawValue)  \($0.1)" }
        lines += [
            "",
            "Run '\(commandName) help SUBCOMMAND' or '\(commandName) SUBCOMMAND --help' for a subcommand's options,",
            "'\(commandName) --version' for the version. Every option can also come from the environment",
            "(--plan from MIGRATE_PLAN, --no-backup from MIGRATE_NO_BACKUP=1…); the command line wins.",
            "--format json prints one JSON object whatever the exit status.",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// `usage: migrate plan --database PATH... [--to VERSION] …`, the abstract, the options, the discussion.
    func usage(of subcommand: Subcommand) -> String {
        let options = subcommand.options + [.flag("--help", help: "shows this help")]
        let width = options.map { $0.name.count + ($0.valueName.map { $0.count + 1 } ?? 0) }.max()! + 2
        var lines = [
            "usage: \(commandName) \(subcommand.name) " + subcommand.options.map(\.usage).joined(separator: " "), "",
            subcommand.abstract, "", "options:",
        ]
        for option in options {
            let label = option.name + (option.valueName.map { " " + $0 } ?? "")
            let variable =
                option.name == "--help"
                ? "" : " [$\(EnvironmentDefaults.variable(for: option))\(option.takesValue ? "" : "=1")]"
            lines.append(
                "  " + label.paddedRight(toWidth: width) + option.help + (option.isRepeatable ? " (repeatable)" : "")
                    + variable)
        }
        lines += ["", HelpText.environmentRules(subcommand)]
        if subcommand.options.contains(where: { $0.name == "--databases-from" }) { lines += ["", HelpText.fleetRules] }
        if !subcommand.discussion.isEmpty { lines += ["", subcommand.discussion] }
        return lines.joined(separator: "\n") + "\n"
    }

    /// How variables and the command line combine, for a subcommand's help.
    static func environmentRules(_ subcommand: Subcommand) -> String {
        let choices = subcommand.alternatives.map { $0.joined(separator: " and ") }.joined(separator: "; ")
        return "Each option can be set by the environment variable in brackets; the command line wins: a variable "
            + "only fills an option the command line leaves out"
            + (choices.isEmpty
                ? "" : ", and options that are one choice (\(choices)) only when the command line gives none of them")
            + ". An empty variable is unset. A flag's variable is \(EnvironmentDefaults.on.joined(separator: ", ")) (set) or "
            + "\(EnvironmentDefaults.off.joined(separator: ", ")) (unset), in any case; any other value is a usage error."
    }

    /// How a fleet's paths are read, for the help of subcommands that take one.
    static let fleetRules = """
        A path that exists is that file, whatever characters it holds. Only a --database that is no file and \
        holds *, ? or [ is a pattern: the command expands it, sorted, and lists the files it matched on \
        standard error. The lines of --databases-from are paths, never patterns. Each file is worked on once: \
        the same file named again (the same path, a link, dir/../) is dropped with a note.
        """

    static let exitStatuses: [(MigrateExitCode, String)] = [
        (.success, "done, or nothing to do"),
        (.failed, "the migration failed and was rolled back: the database is as it was"),
        (.usageError, "usage error, or the plan cannot be loaded"),
        (.pending, "migrations pending (status)"),
        (.drift, "the live schema does not match the version the database records (verify, apply)"),
        (
            .refused,
            "refused: newer or unknown version, not a database, a change the plan cannot make safely, --deny-destructive, --require-compatible"
        ),
        (.locked, "another connection held the lock past --busy-timeout: nothing was done, retry"),
    ]
}
