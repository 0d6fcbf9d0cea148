extension MigrationStatus: CustomStringConvertible {
    /// The status as `migrate status` prints it: the versions, other tools' bookkeeping, an online
    /// change in progress, then what is pending.
    ///
    /// ```
    /// database: trips.sqlite
    /// current version: 1.0.0
    /// target version:  2.0.0
    /// pending: 1 stage
    ///   1.0.0 → 2.0.0 (lightweight)
    /// ```
    public var description: String {
        var lines = [
            "database: \(database)", "current version: \(currentDescription)", "target version:  \(targetVersion)",
        ]
        lines += otherTools.map { "managed before by \($0.summary) (left alone)" }
        lines += onlineChange.map { [$0.description] } ?? []
        if isUpToDate {
            lines.append("up to date: nothing to do")
        } else {
            if let current = currentVersion, !isRecorded {
                lines.append("pending: recording version \(current), found by its tables")
            }
            if !pendingStages.isEmpty {
                lines.append("pending: \(counted(pendingStages.count, "stage"))")
                lines += pendingStages.map { "  \($0)" }
            }
            lines += environmentNeeds.map { "needs: " + $0 }
        }
        return lines.joined(separator: "\n")
    }

    /// In one line: `up to date at 2.0.0`, `pending: 1.0.0 → 2.0.0 (1 stage)`.
    package var summary: String {
        guard !isUpToDate else { return "up to date at \(targetVersion)" }
        return
            "pending: \(currentVersion.map(\.description) ?? "empty") → \(targetVersion) (\(counted(pendingStages.count, "stage")))"
    }

    /// `2.0.0`, `2.0.0 (no version recorded: recognised by its tables)`, `none (empty: …)`.
    private var currentDescription: String {
        guard let current = currentVersion else { return "none (empty: holds none of the plan's tables)" }
        return isRecorded ? current.description : "\(current) (no version recorded: recognised by its tables)"
    }
}
