import SchemaMigrations

/// `revert`: takes each database back to the version it was at before its last `apply`, as its
/// history says, the way `apply --to` that version would: a backup first, each stage reversed.
enum RevertSubcommand {
    static func make(hasSwiftPlan: Bool) -> Subcommand {
        Subcommand(
            name: "revert",
            abstract: "Takes a database back to the version it was at before the last apply, as its history says",
            discussion: """
                The version comes from the history (_schema_migrations): the stages the last apply recorded \
                back to back are undone together, newest first, each reversed from the declarations (renames \
                undone, what the newer version added dropped, what it dropped added again with its default), \
                in one transaction, recorded as revert. The backup is apply's: --backup PATH, or beside the \
                database as DATABASE.backup-YYYYMMDDTHHMMSSZ, or --no-backup.
                Refused (exit 5), with nothing written: when there is nothing to revert (no history, or its \
                last entry is a revert, a create, an adopt or a baseline); when the way back passes a custom \
                stage that declares no way back; when it would drop data the newer versions added, unless \
                --allow-data-loss; with --deny-destructive, when a step can lose data. To go to a given \
                version, use apply --to VERSION.
                """,
            options: [
                SharedOptions.database, SharedOptions.plan(hasSwiftPlan: hasSwiftPlan),
                .value("--backup", "PATH", help: "where to back the database up before writing"),
                .flag("--no-backup", help: "write without a backup"),
                SharedOptions.denyDestructive, SharedOptions.allowDataLoss, SharedOptions.busyTimeout,
                SharedOptions.progress, SharedOptions.format(["text", "json"]),
                .value(
                    "--transaction", "SCOPE", choices: ["plan", "stage"],
                    help: "one transaction for the whole way back (default), or one per stage"),
                SharedOptions.databasesFrom, SharedOptions.jobs,
            ],
            alternatives: [SharedOptions.databaseChoice, ["--backup", "--no-backup"]],
            run: { try ApplySubcommand.run($0, reverting: true) })
    }
}
