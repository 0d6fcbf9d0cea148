import SchemaMigrations

/// `status`: the version each database is at and the stages pending; exit 3 when some are.
enum StatusSubcommand {
    static func make(hasSwiftPlan: Bool) -> Subcommand {
        Subcommand(
            name: "status",
            abstract: "Shows the version a database is at and the stages pending (exit 3 when some are)",
            discussion: """
                Reads the database without writing. An online change in progress (apply --online) is shown \
                with its stage, phase (copying or releasing), each table's copy (the last rowid copied against \
                the table's largest), and the run that owns it: host:pid, whether it is running, and its heartbeat.
                Exit status: 0 up to date, 3 migrations pending, 4 drift, 5 refused.
                """,
            options: [
                SharedOptions.database, SharedOptions.plan(hasSwiftPlan: hasSwiftPlan), SharedOptions.to,
                SharedOptions.format(["text", "json"]), SharedOptions.busyTimeout, SharedOptions.databasesFrom,
                SharedOptions.jobs,
                SharedOptions.progress,
            ],
            alternatives: [SharedOptions.databaseChoice],
            run: run)
    }

    static func run(_ invocation: Invocation) throws -> MigrateExitCode {
        let migrator = try invocation.migrator()
        let outcomes = try invocation.eachDatabase { url in
            outcome(of: try migrator.status(databaseAt: url))
        }
        return FleetOutput(
            console: invocation.console, json: invocation.format(default: "text") == "json", layout: .table
        ).print(outcomes)
    }

    static func outcome(of status: MigrationStatus) -> DatabaseOutcome {
        var json: [String: Any] = [
            "currentVersion": JSONOutput.version(status.currentVersion),
            "targetVersion": status.targetVersion.description,
            "recorded": status.isRecorded, "upToDate": status.isUpToDate,
            "stages": status.pendingStages.map {
                ["from": JSONOutput.version($0.from), "to": $0.to.description, "kind": $0.kindName]
            },
        ]
        json["otherTools"] = OtherToolsOutput.json(status.otherTools)
        json["onlineChange"] = OnlineChangeOutput.json(status.onlineChange)
        json["environmentNeeds"] = status.environmentNeeds
        let online = status.onlineChange.map { "; online change \($0.from) → \($0.to) \($0.phase.rawValue)" } ?? ""
        return DatabaseOutcome(
            database: status.database, status: status.isUpToDate ? .success : .pending,
            text: status.description + "\n", summary: status.summary + online, json: json)
    }
}
