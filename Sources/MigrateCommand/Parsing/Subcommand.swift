import SchemaMigrations

/// One subcommand: its name, its help, the options it accepts, and what it runs.
///
/// An app that embeds the command can add its own, parsed and helped like the built-in ones:
///
/// ```swift
/// let seed = Subcommand(name: "seed", abstract: "Fills a database with demo rows",
///                       options: [.value("--database", "PATH", required: true, help: "the database file")]) { invocation in
///     try Seeder.fill(invocation.arguments.value("--database")!)
///     return .success
/// }
/// MigrateCommand.main(plan: AppMigrationPlan.self, extraSubcommands: [seed])
/// ```
public struct Subcommand: Sendable {
    /// The word that selects it: `plan`.
    public var name: String
    /// One line for the command's help.
    public var abstract: String
    /// More help, shown by `help NAME` and `NAME --help` after the options.
    public var discussion: String
    /// The options it accepts (`--help` is always accepted).
    public var options: [CommandOption]
    /// Options that are one choice (`--database` and `--databases-from`; `--backup` and
    /// `--no-backup`): the environment fills them only when the command line gives none of them.
    public var alternatives: [[String]]
    /// What it does; returns the exit status. A thrown ``UsageError`` exits 2 with the usage;
    /// a thrown `MigrationError` exits with the status its code maps to (``MigrateExitCode/init(for:)``).
    public var run: @Sendable (Invocation) throws -> MigrateExitCode

    /// A subcommand named `name`, with its help text, options, the options that are one choice, and what it does.
    public init(
        name: String, abstract: String, discussion: String = "", options: [CommandOption],
        alternatives: [[String]] = [],
        run: @escaping @Sendable (Invocation) throws -> MigrateExitCode
    ) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.options = options
        self.alternatives = alternatives
        self.run = run
    }
}

/// Everything a subcommand runs with.
public struct Invocation: Sendable {
    /// Its options, parsed.
    public var arguments: ParsedArguments
    /// Where its output goes.
    public var console: Console
    /// The command's name, for messages: `migrate`, or the embedding executable's name.
    public var commandName: String
    /// The Swift plan the command embeds, if any.
    public var plan: (any SchemaMigrationPlan.Type)?
    /// The environment the command runs in (standard input is read for `--databases-from -`).
    public var environment: [String: String]
    /// The embedding app's collations, functions and extensions (``MigrateCommand/sqlEnvironment``);
    /// the built-in subcommands add each `--load-extension` to it.
    public var sqlEnvironment: SQLEnvironment

    /// What a subcommand runs with: its parsed arguments, where it writes, its plan (nil for a JSON plan directory), its environment and SQL environment.
    public init(
        arguments: ParsedArguments, console: Console, commandName: String, plan: (any SchemaMigrationPlan.Type)?,
        environment: [String: String] = [:], sqlEnvironment: SQLEnvironment = .none
    ) {
        self.arguments = arguments
        self.console = console
        self.commandName = commandName
        self.plan = plan
        self.environment = environment
        self.sqlEnvironment = sqlEnvironment
    }
}
