import Foundation

extension MigrationReport {
    /// The report as Markdown, for a pull request: versions, refusals and warnings first
    /// (destructive steps leading), a table of each stage's steps with their cost and measured
    /// impact, and the SQL in a collapsed block.
    ///
    /// ```swift
    /// try report.markdown.write(toFile: "migration.md", atomically: true, encoding: .utf8)
    /// ```
    ///
    /// A pull request is no place for production data: this form gives counts only, never a value
    /// read from the database; ``markdown(showingValues:)`` shows sample values, escaped.
    public var markdown: String { markdown(showingValues: false) }

    /// The report as Markdown; with `showingValues`, the values the dry run read from the
    /// database (duplicates a uniqueness constraint meets, rows holding NULL) are shown, escaped
    /// so that they can neither format the page nor inject HTML.
    public func markdown(showingValues: Bool) -> String {
        var lines: [String] = []
        let name = database.split(separator: "/").last.map(String.init) ?? database
        lines.append("### Migration of `\(name)`: \(currentVersion.map(\.description) ?? "empty") → \(targetVersion)")
        lines.append("")
        lines.append("| | |")
        lines.append("|---|---|")
        lines.append("| Database | `\(database)` |")
        lines.append("| Current version | \(currentVersion.map { $0.description + (unversioned ? " (recognised by its tables; no metadata yet)" : "") } ?? "none (empty)") |")
        lines.append("| Target version | \(targetVersion) |")
        lines.append("| Stages | \(stages.count) |")
        lines.append("")
        if isUpToDate {
            lines.append("Up to date: nothing to do.")
            return lines.joined(separator: "\n") + "\n"
        }
        for refusal in refusals {
            lines.append("> [!CAUTION]")
            lines.append("> **Refused:** \(MigrationReport.escape(refusal.message))" + (refusal.remedy.map { " Fix: \(MigrationReport.escape($0))" } ?? ""))
            if showingValues || refusal.code != .dataViolation {
                lines += refusal.details.map { "> - \(MigrationReport.escapeValue($0))" }
            } else if !refusal.details.isEmpty {
                lines.append("> - values from the database not shown (run with --show-values to see them)")
            }
            lines.append("")
        }
        if !warnings.isEmpty {
            lines.append("> [!WARNING]")
            lines += warnings.map { "> - \(MigrationReport.escape($0))" }
            lines.append("")
        }
        for stage in stages {
            lines.append("#### Stage \(stage.from.map { "\($0) → " } ?? "create ")\(stage.to) (\(stage.kind.rawValue))")
            lines.append("")
            lines.append("| # | Step | Cost | Impact |")
            lines.append("|---|---|---|---|")
            if stage.kind == .custom { lines.append("| 0 | `willMigrate` runs (database at \(stage.from.map(\.description) ?? "-")) | your code | |") }
            for (index, step) in stage.steps.enumerated() {
                let cost = step.costDescription + (step.step.destructive ? ", **destructive**" : "")
                let impact = (step.impact?.lines(showingValues: showingValues) ?? []).map(MigrationReport.escapeValue).joined(separator: "<br>")
                lines.append("| \(index + 1) | \(MigrationReport.escape(step.step.summary)) | \(cost) | \(impact) |")
            }
            if stage.kind == .custom { lines.append("| \(stage.steps.count + 1) | `didMigrate` runs (database at \(stage.to)) | your code | |") }
            lines.append("")
            lines.append("<details><summary>SQL</summary>")
            lines.append("")
            lines.append("```sql")
            lines += stage.steps.flatMap(\.sql).map { $0 + ";" }
            lines.append("```")
            lines.append("")
            lines.append("</details>")
            lines.append("")
        }
        return lines.joined(separator: "\n")
    }

    /// Text that may hold values from the database, safe anywhere in Markdown: HTML's special
    /// characters as entities, Markdown's punctuation backslash-escaped, newlines flattened.
    static func escapeValue(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\n", "\r", "\r\n": out += " "
            case "\\", "`", "*", "_", "[", "]", "|", "#", "~", "!": out += "\\" + String(character)
            default: out.append(character)
            }
        }
        return out
    }

    /// Text safe in a Markdown table cell: pipes escaped, newlines flattened.
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }
}
