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
            options: [SharedOptions.database, SharedOptions.plan(hasSwiftPlan: hasSwiftPlan), SharedOptions.to,
                      SharedOptions.format(["text", "json"]), SharedOptions.busyTimeout, SharedOptions.databasesFrom, SharedOptions.jobs,
                      SharedOptions.progress],
            alternatives: [SharedOptions.databaseChoice],
            run: run)
    }

    static func run(_ invocation: Invocation) throws -> MigrateExitCode {
        let migrator = try invocation.migrator()
        let outcomes = try invocation.eachDatabase { url in
            outcome(of: try migrator.status(databaseAt: url))
        }
        return FleetOutput(console: invocation.console, json: invocation.format(default: "text") == "json", layout: .table).print(outcomes)
    }

    static func outcome(of status: MigrationStatus) -> DatabaseOutcome {
        let pending = status.pendingStages.map(\.description)
        var lines = ["database: \(status.database)", "current version: \(describeCurrent(status))", "target version:  \(status.targetVersion)"]
        lines += OtherToolsOutput.lines(status.otherTools)
        lines += status.onlineChange.map { OnlineChangeOutput.lines($0) } ?? []
        let summary: String
        if status.isUpToDate {
            lines.append("up to date: nothing to do")
            summary = "up to date at \(status.targetVersion)"
        } else {
            if let current = status.currentVersion, !status.isRecorded {
                lines.append("pending: recording version \(current), found by its tables")
            }
            if !pending.isEmpty {
                lines.append("pending: \(pending.count) stage\(pending.count == 1 ? "" : "s")")
                lines += pending.map { "  " + $0 }
            }
            summary = "pending: \(status.currentVersion.map(\.description) ?? "empty") → \(status.targetVersion) (\(pending.count) stage\(pending.count == 1 ? "" : "s"))"
        }
        var json: [String: Any] = [
            "currentVersion": JSONOutput.version(status.currentVersion), "targetVersion": status.targetVersion.description,
            "recorded": status.isRecorded, "upToDate": status.isUpToDate,
            "stages": status.pendingStages.map { ["from": JSONOutput.version($0.from), "to": $0.to.description, "kind": $0.kind.rawValue] },
        ]
        json["otherTools"] = OtherToolsOutput.json(status.otherTools)
        json["onlineChange"] = OnlineChangeOutput.json(status.onlineChange)
        let online = status.onlineChange.map { "; online change \($0.from) → \($0.to) \($0.phase.rawValue)" } ?? ""
        return DatabaseOutcome(database: status.database, status: status.isUpToDate ? .success : .pending,
                               text: lines.joined(separator: "\n") + "\n", summary: summary + online, json: json)
    }

    /// `2.0.0`, `2.0.0 (no metadata: recognised by its tables)`, `none (empty)`.
    static func describeCurrent(_ status: MigrationStatus) -> String {
        guard let current = status.currentVersion else { return "none (empty: holds none of the plan's tables)" }
        return status.isRecorded ? current.description : "\(current) (no version recorded: recognised by its tables)"
    }
}
