import SchemaMigrations

/// `verify`: the live schema of each database must match the version it records; exit 4 when not.
enum VerifySubcommand {
    static func make(hasSwiftPlan: Bool) -> Subcommand {
        Subcommand(
            name: "verify",
            abstract: "Checks that the live schema matches the version the database records (exit 4 when not)",
            discussion: """
                Introspects every table of the plan (columns, types, NOT NULL, indexes) and compares it with \
                the declared version, whatever PRAGMA schema_version says. Reads without writing. A database \
                with no version recorded passes when its tables match a declared version.
                """,
            options: [
                SharedOptions.database, SharedOptions.plan(hasSwiftPlan: hasSwiftPlan),
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
            let status = try migrator.verify(databaseAt: url)
            var outcome = StatusSubcommand.outcome(of: status)
            let verdict: String
            switch (status.currentVersion, status.isRecorded) {
            case (nil, _): verdict = "holds none of the plan's tables: nothing to verify"
            case (let version?, true): verdict = "the schema matches version \(version), as recorded"
            case (let version?, false): verdict = "no version recorded; the tables match version \(version)"
            }
            var pending = status.pendingStages.map(\.description)
            if let current = status.currentVersion, !status.isRecorded {
                pending.insert("recording version \(current) (apply records it)", at: 0)
            }
            outcome.text =
                "database: \(status.database)\n\(verdict)\n"
                + (pending.isEmpty ? "" : "pending: \(pending.joined(separator: ", "))\n")
            outcome.summary = verdict
            outcome.json["matches"] = true
            outcome.status = .success
            return outcome
        }
        return FleetOutput(
            console: invocation.console, json: invocation.format(default: "text") == "json", layout: .table
        ).print(outcomes)
    }
}
