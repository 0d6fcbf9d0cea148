import SchemaMigrations

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `history`: every stage each database went through, as its metadata table records it: from,
/// to, kind, when, how long. Read-only.
enum HistorySubcommand {
    static func make(hasSwiftPlan: Bool) -> Subcommand {
        Subcommand(
            name: "history",
            abstract: "Shows every stage applied to a database: from, to, kind, when, how long",
            discussion: """
                Reads the table _schema_migrations without writing. With a plan (embedded, or --plan DIR) only \
                that plan's stages are shown; the bare command without --plan shows every plan the file holds. \
                Kinds: lightweight, custom, revert (a stage taken back, from the newer version to the older), \
                create (the latest schema created in an empty database), adopt (an unversioned database \
                recognised by its tables). Exit status: 0, or 5 when a file is not a database.
                """,
            options: [
                SharedOptions.database, SharedOptions.plan(hasSwiftPlan: true),
                SharedOptions.format(["text", "json", "markdown"]), SharedOptions.busyTimeout,
                SharedOptions.databasesFrom, SharedOptions.jobs,
            ],
            alternatives: [SharedOptions.databaseChoice],
            run: run)
    }

    static func run(_ invocation: Invocation) throws -> MigrateExitCode {
        let planned: Migrator? =
            invocation.plan != nil || invocation.arguments.value("--plan") != nil ? try invocation.migrator() : nil
        let timeout = try invocation.busyTimeout() ?? 5
        let format = invocation.format(default: "text")
        let outcomes = try invocation.eachDatabase { url in
            let stages =
                try planned?.history(databaseAt: url) ?? Migrator.history(databaseAt: url, busyTimeout: timeout)
            let text =
                format == "markdown" ? markdown(stages, database: url.path) : self.text(stages, database: url.path)
            let summary =
                stages.last.map {
                    "at \($0.to): \(stages.count) stage\(stages.count == 1 ? "" : "s") recorded, the last \(timestamp($0.appliedAt))"
                }
                ?? "no stage recorded"
            return DatabaseOutcome(
                database: url.path, status: .success, text: text, summary: summary,
                json: ["history": stages.map(json)])
        }
        return FleetOutput(console: invocation.console, json: format == "json", layout: .details).print(outcomes)
    }

    static func json(_ stage: AppliedStage) -> [String: Any] {
        [
            "plan": stage.plan, "seq": stage.sequence, "from": JSONOutput.version(stage.from),
            "to": stage.to.description, "kind": stage.kind,
            "appliedAt": timestamp(stage.appliedAt), "durationMs": (stage.duration * 1000 * 1000).rounded() / 1000,
        ]
    }

    /// `2026-11-22T15:30:00.123Z`.
    static func timestamp(_ date: Date) -> String {
        SystemCalls.iso8601UTC(date)
    }

    static func rows(_ stages: [AppliedStage]) -> [[String]] {
        let several = Set(stages.map(\.plan)).count > 1
        return [(several ? ["PLAN"] : []) + ["SEQ", "FROM", "TO", "KIND", "APPLIED AT (UTC)", "DURATION"]]
            + stages.map { stage in
                (several ? [stage.plan] : []) + stage.cells
            }
    }

    static func text(_ stages: [AppliedStage], database: String) -> String {
        guard !stages.isEmpty else {
            return "database: \(database)\nno stage recorded (the plan never ran on this database)\n"
        }
        let rows = rows(stages)
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max()! + 2 }
        let lines = rows.map { row in
            zip(row.dropLast(), widths).map { $0.paddedRight(toWidth: $1) }.joined() + row[row.count - 1]
        }
        return "database: \(database)\n" + lines.joined(separator: "\n") + "\n"
    }

    static func markdown(_ stages: [AppliedStage], database: String) -> String {
        let name = URL(fileURLWithPath: database).lastPathComponent
        let heading = "### History of \(MigrationReport.markdownCode(name))\n\n"
        guard !stages.isEmpty else { return heading + "No stage recorded.\n" }
        let rows = rows(stages).map { $0.map(MigrationReport.markdownEscaped) }
        return heading + "| " + rows[0].joined(separator: " | ") + " |\n|"
            + String(repeating: "---|", count: rows[0].count) + "\n"
            + rows.dropFirst().map { "| " + $0.joined(separator: " | ") + " |" }.joined(separator: "\n") + "\n"
    }
}
