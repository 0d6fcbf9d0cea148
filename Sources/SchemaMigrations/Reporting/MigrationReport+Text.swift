extension MigrationReport: CustomStringConvertible {
    /// The report for a person at a terminal, as `migrate plan` prints it: versions, refusals and
    /// warnings (destructive steps first), then each stage's steps with their cost, measured impact and SQL.
    public var description: String {
        var lines: [String] = []
        lines.append("database: \(database)")
        lines.append(
            "current version: \(currentVersion.map { $0.description + (unversioned ? " (recognised by its tables; no metadata yet)" : "") } ?? "none (empty)")"
        )
        lines.append("target version:  \(targetVersion)")
        if isUpToDate {
            lines.append("up to date: nothing to do")
            return lines.joined(separator: "\n")
        }
        for refusal in refusals {
            lines.append("REFUSED: " + refusal.explanation)
        }
        for warning in warnings {
            lines.append("WARNING: \(warning)")
        }
        if let online {
            lines.append("")
            lines += online.lines
        }
        for stage in stages {
            lines.append("")
            let header = stage.header
            lines.append("stage \(header.versions) (\(header.kindName)), \(counted(stage.steps.count, "step"))")
            lines += stage.compatibility.lines(previous: header.from)
            if header.kind == .custom {
                lines.append(
                    "  0. willMigrate runs (database at \(header.from.map(\.description) ?? "-")); checks on the data run after it"
                )
            }
            // Numbered in the order things run: didMigrate between the steps and the finalizing ones.
            let codeAt = stage.steps.firstIndex(where: \.runsAfterDidMigrate) ?? stage.steps.count
            for (index, step) in stage.steps.enumerated() {
                if header.kind == .custom && index == codeAt {
                    lines.append("  \(index + 1). didMigrate runs (database at \(header.to))")
                }
                let number = index + (header.kind == .custom && index >= codeAt ? 2 : 1)
                lines.append(
                    "  \(number). \(step.step.summary) [\(step.costDescription)\(step.step.destructive ? ", destructive" : "")\(step.compatibility.isEmpty ? "" : ", breaking")]"
                )
                lines += (step.impact?.lines ?? []).map { "       impact: \($0)" }
                if !step.carriedOver.isEmpty {
                    lines.append("       keeps: " + step.carriedOver.joined(separator: ", "))
                }
                lines += step.removes.map { "       removes: \($0)" }
                lines += step.sql.map { "       \($0);" }
            }
            if header.kind == .custom && codeAt == stage.steps.count {
                lines.append("  \(stage.steps.count + 1). didMigrate runs (database at \(header.to))")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// ``description`` with a final newline.
    @available(*, deprecated, renamed: "description")
    public var text: String { description + "\n" }
}
