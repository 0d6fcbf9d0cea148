import SchemaMigrations

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `apply`: migrates each database, all or nothing, after a backup.
enum ApplySubcommand {
    static func make(hasSwiftPlan: Bool) -> Subcommand {
        Subcommand(
            name: "apply",
            abstract:
                "Migrates: a backup first, then the pending stages in one transaction, or with --online while the application writes",
            discussion: """
                The backup (SQLite's online backup API) goes to --backup PATH, or beside the database as \
                DATABASE.backup-YYYYMMDDTHHMMSSZ; with several databases --backup names a directory. It is \
                kept only when the migration wrote something. On any failure everything is rolled back: the \
                database is left as it was, at its old version (exit 1). When another connection holds a \
                lock, apply waits --busy-timeout seconds, then exits 1 naming the lock.
                Progress goes to standard error when it is a terminal, or with --progress: each step, rows \
                copied by a rebuild and pages of the backup with a percentage and an estimate of the time \
                left, and, for a fleet, a [k/N] counter with each database's full path.
                A fleet (--database repeated or a pattern, --databases-from FILE) runs --jobs databases at \
                once, each on its own and all or nothing; the summary lists each database's status, time \
                and backup.
                A missing file is refused (exit 5) unless --create is given: then it is created at the \
                latest version. --transaction stage commits after each stage (a failure keeps the stages \
                before it); plan, the default, is all or nothing.
                With --online, table rebuilds run as online changes: a shadow table kept in step by triggers, \
                filled in chunks that each hold the write lock about --chunk-target milliseconds, swapped in by \
                one short cut-over; each stage commits on its own. A stage that cannot run online (data checks \
                over whole tables, a table rename, a foreign-key change, a WITHOUT ROWID table) runs offline in \
                one transaction; a plan with a custom stage is refused (exit 5) before anything is written. \
                plan --online shows which is which. A killed run is resumed by the next apply --online.
                --require-compatible refuses (exit 5), before anything is written or backed up, a pending \
                stage that breaks the code of the version it starts from, which instances not yet updated \
                still run: a column it reads renamed or dropped, a NOT NULL column its inserts leave out, ….
                --to a version older than the database's takes it back: each stage in between reversed from \
                the declarations, newest first, in one transaction (recorded as revert). A way back that would \
                drop data the newer versions added is refused (exit 5) unless --allow-data-loss; one past a \
                custom stage that declares no way back is refused, as is --online.
                """,
            options: [
                SharedOptions.database, SharedOptions.plan(hasSwiftPlan: hasSwiftPlan), SharedOptions.to,
                .value("--backup", "PATH", help: "where to back the database up before writing"),
                .flag("--no-backup", help: "write without a backup"),
                SharedOptions.denyDestructive, SharedOptions.requireCompatible, SharedOptions.allowDataLoss,
                SharedOptions.busyTimeout, SharedOptions.progress, SharedOptions.format(["text", "json"]),
                .flag("--create", help: "create a missing database at the latest version (default: refuse it)"),
                .value(
                    "--transaction", "SCOPE", choices: ["plan", "stage"],
                    help: "one transaction for the whole plan (default), or one per stage"),
                SharedOptions.online, SharedOptions.chunkTarget, SharedOptions.pauseFile,
                SharedOptions.databasesFrom, SharedOptions.jobs,
            ],
            alternatives: [SharedOptions.databaseChoice, ["--backup", "--no-backup"]],
            run: run)
    }

    static func run(_ invocation: Invocation) throws -> MigrateExitCode {
        try run(invocation, reverting: false)
    }

    /// Applies, or with `reverting` takes each database back to the version its history says it
    /// was at before the last apply (``Migrator/revertTarget(databaseAt:)``).
    static func run(_ invocation: Invocation, reverting: Bool) throws -> MigrateExitCode {
        let arguments = invocation.arguments
        let databases = try invocation.databases()
        let backups = try BackupLocation(arguments: arguments, databaseCount: databases.count)
        let console = invocation.console
        let jobs = try invocation.jobs(databaseCount: databases.count)
        // Step by step progress for one database at a time; a parallel fleet shows its counter only.
        let showsSteps = invocation.showsProgress && (databases.count == 1 || jobs == 1)
        let online = try invocation.onlineOptions()
        let configured = try invocation.migrator { options in
            if arguments.value("--transaction") == "stage" { options.transactionScope = .perStage }
            options.online = online
            options.requireCompatible = arguments.flag("--require-compatible")
        }
        let outcomes = try invocation.eachDatabase(databases, missingIsRefused: !arguments.flag("--create")) { url in
            var planned = configured
            if reverting { planned.options.targetVersion = try planned.revertTarget(databaseAt: url) }
            if arguments.flag("--deny-destructive") {
                let report = try planned.plan(databaseAt: url)
                if report.hasDestructiveSteps {
                    let refusal = DestructiveSteps.json(report)
                    return DatabaseOutcome(
                        database: url.path, status: .refused, text: "", summary: DestructiveSteps.message(report),
                        json: ["error": refusal, "refusals": [refusal]], message: DestructiveSteps.refusal(report))
                }
            }
            var migrator = planned
            let exists = FileManager.default.fileExists(atPath: url.path)
            // Asked of the library even for a file --create makes: it backs up only a database that holds something.
            let backup = try backups.url(for: url)
            migrator.options.backupURL = backup
            if showsSteps { migrator.options.progress = ProgressPrinter(console: console, database: url.path).callback }
            do {
                let result = try migrator.migrate(databaseAt: url)
                if result.outcome == .upToDate, let written = result.backupURL {
                    try? FileManager.default.removeItem(at: written)
                }
                return outcome(of: result, database: url.path, backupAsked: backups.isExplicit ? backup : nil)
            } catch {
                // Nothing was written: a backup of the unchanged database is not worth keeping.
                // Removing it, or the file --create made, is tidiness only: `error` is what the
                // user must see, a backup left behind is never read again (each has its own time
                // stamp), and a file left empty is created anew by the next --create.
                if let backup { try? FileManager.default.removeItem(at: backup) }
                if !exists { try? FileManager.default.removeItem(at: url) }  // --create made it; leave nothing behind
                throw error
            }
        }
        return FleetOutput(console: console, json: invocation.format(default: "text") == "json", layout: .table).print(
            outcomes)
    }

    /// - Parameter backupAsked: the backup `--backup PATH` asked for: when the database held
    ///   nothing to back up (a new or empty file), the output says that none was written.
    static func outcome(of result: MigrationResult, database: String, backupAsked: URL?) -> DatabaseOutcome {
        let keptBackup = result.outcome == .upToDate ? nil : result.backupURL
        var lines = ["database: \(database)", result.description]
        if let keptBackup { lines.append("backup: \(keptBackup.path)") }
        if let backupAsked, keptBackup == nil, result.outcome == .created {
            lines.append("backup: none written to \(backupAsked.path): the database was empty, nothing to back up")
        }
        var json: [String: Any] = [
            "outcome": result.outcome.rawValue, "fromVersion": JSONOutput.version(result.fromVersion),
            "currentVersion": result.toVersion.description, "targetVersion": result.toVersion.description,
            "adopted": result.adopted, "durationMs": (result.duration * 1_000_000).rounded() / 1000,
            "stages": result.stages.map(JSONOutput.stage),
        ]
        json["backup"] = keptBackup?.path
        return DatabaseOutcome(
            database: database, status: .success, text: lines.joined(separator: "\n") + "\n",
            summary: result.summary, json: json, backup: keptBackup?.path)
    }
}
