import SchemaMigrations

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The options several subcommands share, and what they mean.
enum SharedOptions {
    static let database = CommandOption.value(
        "--database", "PATH", repeatable: true, required: true,
        help:
            "the database file; repeat it, or give a pattern ('dbs/*.sqlite'), for a fleet: each file migrates on its own"
    )
    static let databasesFrom = CommandOption.value(
        "--databases-from", "FILE",
        help: "a file listing databases, one path a line (never a pattern); - for standard input")
    static let jobs = CommandOption.value(
        "--jobs", "N", help: "how many databases of a fleet to work on at once (default: the number of cores)")
    static let progress = CommandOption.flag(
        "--progress", help: "show progress on standard error even when it is not a terminal")

    /// `--database`, `--databases-from` and `--jobs`: the options that name a fleet.
    static let fleet = [database, databasesFrom, jobs]

    /// `--database` and `--databases-from` are one choice: a variable never adds databases to
    /// those the command line names.
    static let databaseChoice = [database.name, databasesFrom.name]

    /// The longest busy timeout SQLite can wait: its milliseconds are a C `int`.
    static let longestBusyTimeout = 2_147_483.0

    /// `--plan DIR`: required unless the command embeds a Swift plan.
    static func plan(hasSwiftPlan: Bool) -> CommandOption {
        .value(
            "--plan", "DIR", required: !hasSwiftPlan,
            help: hasSwiftPlan
                ? "a JSON plan directory to use instead of the embedded plan"
                : "the JSON plan directory: plan.json and one schema snapshot per version")
    }

    static let to = CommandOption.value("--to", "VERSION", help: "stop at this version instead of the plan's latest")
    static let busyTimeout = CommandOption.value(
        "--busy-timeout", "SECONDS", help: "how long to wait for another connection's lock (default 5)")
    static let denyDestructive = CommandOption.flag(
        "--deny-destructive", help: "refuse (exit 5) when a step can lose data")
    static let requireCompatible = CommandOption.flag(
        "--require-compatible",
        help: "refuse (exit 5) a stage that breaks the previous version's code, which a rolling deploy still runs")
    static let allowDataLoss = CommandOption.flag(
        "--allow-data-loss",
        help:
            "going back to an older version, drop the data the newer versions added (refused otherwise, exit 5); --deny-destructive still refuses"
    )

    static let online = CommandOption.flag(
        "--online", help: "rebuild tables online: the application keeps writing; each stage commits on its own")
    static let chunkTarget = CommandOption.value(
        "--chunk-target", "MS",
        help: "with --online: milliseconds each copy chunk may hold the write lock (default 6, at most 10000)")
    static let pauseFile = CommandOption.value(
        "--pause-file", "PATH", help: "with --online: the copy pauses, holding no lock, while this file exists")
    /// The largest `--chunk-target`, in milliseconds: what the library honours.
    static let longestChunkTarget = 10_000.0

    /// `--load-extension PATH[:ENTRY]`, as the `sqlite3` shell's `.load`: for a database whose
    /// indexes, CHECKs, generated columns, triggers or views need the application's functions or collations.
    static let loadExtension = CommandOption.value(
        "--load-extension", "PATH[:ENTRY]", repeatable: true,
        help:
            "a SQLite extension to load into every connection (repeatable), for a database that needs its application's collations or functions"
    )

    /// The subcommands that open a database (or check declared SQL), each with `--load-extension`
    /// after its own options; `history` reads only the metadata table and needs none.
    static let openingDatabases: Set<String> = [
        "status", "plan", "apply", "revert", "verify", "snapshot", "baseline", "scaffold", "lint", "capture", "test",
    ]

    static func addingLoadExtension(to subcommands: [Subcommand]) -> [Subcommand] {
        subcommands.map { subcommand in
            guard openingDatabases.contains(subcommand.name) else { return subcommand }
            var withExtensions = subcommand
            withExtensions.options.append(loadExtension)
            return withExtensions
        }
    }

    static func format(_ choices: [String]) -> CommandOption {
        .value("--format", "FORMAT", choices: choices, help: "the output format (default \(choices[0]))")
    }
}

extension Invocation {
    /// The migrator for `--plan DIR`, or the embedded Swift plan, with `--to` and `--busy-timeout`.
    /// - Throws: ``CommandFailure`` (exit 2) when the plan cannot be loaded; ``UsageError`` when
    ///   `--to` names a version the plan does not declare.
    func migrator(adjusting adjust: (inout MigrationOptions) -> Void = { _ in }) throws -> Migrator {
        var options = MigrationOptions(
            targetVersion: try arguments.version("--to"), sqlEnvironment: try effectiveSQLEnvironment())
        if let timeout = try busyTimeout() { options.busyTimeout = timeout }
        options.allowDataLoss = arguments.flag("--allow-data-loss")
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
            throw CommandFailure(
                status: MigrateExitCode.planNotLoaded, message: "\(commandName): the plan cannot be loaded\n\(error)",
                error: error)
        }
        if let target = options.targetVersion, !versions.contains(target) {
            throw UsageError(
                "\(arguments.label("--to")) \(target): the plan declares "
                    + versions.map(\.description).joined(separator: ", "), subcommand: arguments.subcommand)
        }
        return migrator
    }

    /// The embedding app's ``Invocation/sqlEnvironment``, then each `--load-extension` (or
    /// `MIGRATE_LOAD_EXTENSION`) in order.
    /// - Throws: ``UsageError`` naming the option for an empty extension path.
    func effectiveSQLEnvironment() throws -> SQLEnvironment {
        let extensions = try arguments.values("--load-extension").map { text in
            do {
                return try SQLExtension(parsing: text)
            } catch {
                throw UsageError(
                    "\(arguments.label("--load-extension")): '\(text)' is not PATH or PATH:ENTRY",
                    subcommand: arguments.subcommand)
            }
        }
        return extensions.isEmpty ? sqlEnvironment : sqlEnvironment.adding(SQLEnvironment(extensions: extensions))
    }

    /// Every database named (``DatabaseList``), as file URLs, in the order given.
    /// - Throws: ``UsageError`` when a pattern matches nothing or the list cannot be read.
    /// A pattern's expansion and each repeat dropped are noted on standard error.
    func databases() throws -> [URL] { try DatabaseList.read(arguments, note: console.error) }

    /// `--jobs`, or the number of cores, for `databaseCount` databases: one database runs alone
    /// whatever `--jobs` says, so the cores are not counted for it (that reads cgroup files).
    /// - Throws: ``UsageError`` naming `--jobs` (or `MIGRATE_JOBS`) when it is not a whole number of at least 1.
    func jobs(databaseCount: Int) throws -> Int {
        guard let text = arguments.value("--jobs") else {
            return databaseCount > 1 ? ProcessInfo.processInfo.activeProcessorCount : 1
        }
        guard let jobs = Int(text), jobs >= 1 else {
            throw UsageError(
                "\(arguments.label("--jobs")): '\(text)' is not a whole number of at least 1",
                subcommand: arguments.subcommand)
        }
        return jobs
    }

    /// `--busy-timeout` in seconds, nil when absent.
    /// - Throws: ``UsageError`` naming it (or `MIGRATE_BUSY_TIMEOUT`) when it is not a number from
    ///   0 to 2147483 (SQLite counts the wait in milliseconds, in a C `int`).
    func busyTimeout() throws -> Double? {
        guard let timeout = try arguments.number("--busy-timeout") else { return nil }
        guard timeout <= SharedOptions.longestBusyTimeout else {
            throw UsageError(
                "\(arguments.label("--busy-timeout")): '\(arguments.value("--busy-timeout") ?? "")' is more than \(Int(SharedOptions.longestBusyTimeout)) seconds, the longest SQLite can wait",
                subcommand: arguments.subcommand)
        }
        return timeout
    }

    /// The online options of `--online`, `--chunk-target` and `--pause-file` (or their variables),
    /// nil without `--online`.
    /// - Throws: ``UsageError`` naming `--chunk-target` (or `MIGRATE_CHUNK_TARGET`) when it is not a
    ///   number of milliseconds above 0 and at most 10000, and naming the option given without `--online`.
    func onlineOptions() throws -> OnlineRebuildOptions? {
        guard arguments.flag("--online") else {
            for name in ["--chunk-target", "--pause-file"] where arguments.value(name) != nil {
                throw UsageError(
                    "\(arguments.label(name)) works only with --online", subcommand: arguments.subcommand,
                    remedy: "add --online, or leave \(name) out")
            }
            return nil
        }
        var online = OnlineRebuildOptions()
        if let text = arguments.value("--chunk-target") {
            guard let target = Double(text), target.isFinite, target > 0, target <= SharedOptions.longestChunkTarget
            else {
                throw UsageError(
                    "\(arguments.label("--chunk-target")): '\(text)' is not a number of milliseconds above 0 and at most \(Int(SharedOptions.longestChunkTarget))",
                    subcommand: arguments.subcommand)
            }
            online.chunkTargetMilliseconds = target
        }
        if let pauseFile = arguments.value("--pause-file") {
            online.shouldPause = { SystemCalls.fileKind(atPath: pauseFile) != .missing }
        }
        return online
    }

    /// Whether to show progress on standard error: on a terminal, or with `--progress`.
    var showsProgress: Bool { arguments.flag("--progress") || console.errorIsTerminal }

    /// Runs `body` on every database of the command line, `--jobs` at a time, with the `[k/N]`
    /// counter when there are several and progress is shown.
    /// - Parameter databases: the databases already read (standard input is read once), or nil to read them.
    func eachDatabase(
        _ databases: [URL]? = nil, missingIsRefused: Bool = true,
        _ body: @escaping @Sendable (URL) throws -> DatabaseOutcome
    ) throws -> [DatabaseOutcome] {
        let databases = try databases ?? self.databases()
        let runner = FleetRunner(
            jobs: try jobs(databaseCount: databases.count),
            counter: databases.count > 1 && showsProgress ? FleetCounter(console: console) : nil,
            missingIsRefused: missingIsRefused)
        return runner.run(databases, body)
    }

    /// `--format`, or the first choice when absent.
    func format(default first: String) -> String { arguments.value("--format") ?? first }
}
