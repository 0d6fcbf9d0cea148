#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

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
    /// read from the database; ``markdown(showingValues:)`` shows sample values, escaped. Every
    /// name (a file's, a table's, a view's) is escaped too.
    public var markdown: String { markdown(showingValues: false) }

    /// The report as Markdown; with `showingValues`, the values the dry run read from the
    /// database (duplicates a uniqueness constraint meets, rows holding NULL) are shown, escaped
    /// so that they can neither format the page nor inject HTML.
    public func markdown(showingValues: Bool) -> String {
        var lines: [String] = []
        let name = database.split(separator: "/").last.map(String.init) ?? database
        lines.append(
            "### Migration of \(MigrationReport.markdownCode(name)): \(currentVersion.map(\.description) ?? "empty") → \(targetVersion)"
        )
        lines.append("")
        lines.append("| | |")
        lines.append("|---|---|")
        lines.append("| Database | \(MigrationReport.markdownCode(database, inTableCell: true)) |")
        lines.append(
            "| Current version | \(currentVersion.map { $0.description + (unversioned ? " (recognised by its tables; no metadata yet)" : "") } ?? "none (empty)") |"
        )
        lines.append("| Target version | \(targetVersion) |")
        lines.append("| Stages | \(stages.count) |")
        lines.append("")
        if isUpToDate {
            lines.append("Up to date: nothing to do.")
            return lines.joined(separator: "\n") + "\n"
        }
        for refusal in refusals {
            lines.append("> [!CAUTION]")
            lines.append(
                "> **Refused:** \(MigrationReport.markdownEscaped(refusal.message))"
                    + (refusal.remedy.map { " Fix: \(MigrationReport.markdownEscaped($0))" } ?? ""))
            if showingValues || refusal.code != .dataViolation {
                lines += refusal.details.map { "> - \(MigrationReport.markdownEscaped($0))" }
            } else if !refusal.details.isEmpty {
                lines.append("> - values from the database not shown (run with --show-values to see them)")
            }
            lines.append("")
        }
        if !warnings.isEmpty {
            lines.append("> [!WARNING]")
            lines += warnings.map { "> - \(MigrationReport.markdownEscaped($0))" }
            lines.append("")
        }
        if let online {
            lines.append("#### Online")
            lines.append("")
            // A stage's phases ("  1. prepare …") as an ordered list under the stage's item.
            lines += online.lines.map { line in
                guard line.hasPrefix("  "), let dot = line.firstIndex(of: ".") else {
                    return "- " + MigrationReport.markdownEscaped(line)
                }
                return line[...dot] + " "
                    + MigrationReport.markdownEscaped(String(line[line.index(after: dot)...].dropFirst()))
            }
            lines.append("")
        }
        for stage in stages {
            lines.append("#### Stage \(stage.header.versions) (\(stage.header.kindName))")
            lines.append("")
            lines += stage.compatibility.markdown(
                previous: stage.header.from, escape: MigrationReport.markdownEscaped)
            lines.append("| # | Step | Cost | Impact |")
            lines.append("|---|---|---|---|")
            if stage.header.kind == .custom {
                lines.append(
                    "| 0 | `willMigrate` runs (database at \(stage.header.from.map(\.description) ?? "-")) | your code | |"
                )
            }
            // Numbered in the order things run: didMigrate between the steps and the finalizing ones.
            let custom = stage.header.kind == .custom
            let codeAt = stage.steps.firstIndex(where: \.runsAfterDidMigrate) ?? stage.steps.count
            for (index, step) in stage.steps.enumerated() {
                if custom && index == codeAt {
                    lines.append(
                        "| \(index + 1) | `didMigrate` runs (database at \(stage.header.to)) | your code | |")
                }
                let number = index + (custom && index >= codeAt ? 2 : 1)
                let cost =
                    step.costDescription + (step.step.destructive ? ", **destructive**" : "")
                    + (step.compatibility.isEmpty ? "" : ", **breaking**")
                let impact = (step.impact?.lines(showingValues: showingValues) ?? []).map(
                    MigrationReport.markdownEscaped
                ).joined(separator: "<br>")
                lines.append(
                    "| \(number) | \(MigrationReport.markdownEscaped(step.step.summary)) | \(cost) | \(impact) |")
            }
            if custom && codeAt == stage.steps.count {
                lines.append(
                    "| \(stage.steps.count + 1) | `didMigrate` runs (database at \(stage.header.to)) | your code | |")
            }
            lines.append("")
            lines.append("<details><summary>SQL</summary>")
            lines.append("")
            // A fence longer than any run of backticks in the SQL (a quoted name may hold some).
            let sql = stage.steps.enumerated().flatMap { index, step in
                (custom && index == codeAt ? ["-- didMigrate runs"] : []) + step.sql.map { $0 + ";" }
            }
            let fence = String(
                repeating: "`", count: max(3, MigrationReport.longestBacktickRun(in: sql.joined(separator: "\n")) + 1))
            lines.append(fence + "sql")
            lines += sql
            lines.append(fence)
            lines.append("")
            lines.append("</details>")
            lines.append("")
        }
        return lines.joined(separator: "\n")
    }

    /// Text that may hold names and values from the database, safe anywhere in Markdown, table
    /// cells included: HTML's special characters as entities, Markdown's punctuation
    /// backslash-escaped (an underscore inside a word, which cannot format, is left as it is),
    /// newlines flattened.
    ///
    /// ```swift
    /// MigrationReport.markdownEscaped("<img src=x>|**boom**")   // &lt;img src=x&gt;\|\*\*boom\*\*
    /// ```
    package static func markdownEscaped(_ text: String) -> String {
        var out = ""
        let characters = Array(text)
        for (index, character) in characters.enumerated() {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\n", "\r", "\r\n": out += " "
            case "_"
            where index > 0 && index < characters.count - 1
                && characters[index - 1].isLetterOrDigit && characters[index + 1].isLetterOrDigit:
                out.append(character)
            case "\\", "`", "*", "_", "[", "]", "|", "#", "~", "!": out += "\\" + String(character)
            default: out.append(character)
            }
        }
        return out
    }

    /// A name as Markdown code (`` `app.sqlite` ``), whatever it holds: the fence is longer than
    /// any run of backticks in it, newlines are flattened, and in a table cell pipes are escaped.
    package static func markdownCode(_ text: String, inTableCell: Bool = false) -> String {
        var text = text.replacing("\r\n", with: " ").replacing("\n", with: " ").replacing("\r", with: " ")
        if inTableCell { text = text.replacing("|", with: "\\|") }
        let fence = String(repeating: "`", count: longestBacktickRun(in: text) + 1)
        let padding = text.hasPrefix("`") || text.hasSuffix("`") ? " " : ""
        return fence + padding + text + padding + fence
    }

    /// The length of the longest run of backticks in `text`.
    static func longestBacktickRun(in text: String) -> Int {
        var longest = 0
        var run = 0
        for character in text {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        return longest
    }
}

extension Character {
    fileprivate var isLetterOrDigit: Bool { isLetter || isNumber }
}
