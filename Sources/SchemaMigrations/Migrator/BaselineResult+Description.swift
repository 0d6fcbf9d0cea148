extension BaselineResult: CustomStringConvertible {
    /// The result as `migrate baseline` prints it: the version recorded, then each difference accepted.
    ///
    /// ```
    /// database: legacy.sqlite
    /// recorded version 1.0.0 (baseline)
    /// accepted 1 difference, kept as the database has them:
    ///   - Trip has a column legacy that version 1.0.0 does not declare
    /// ```
    public var description: String {
        var lines = ["database: \(database)", "recorded version \(version) (baseline)"]
        if acceptedDifferences.isEmpty {
            lines.append("no differences: the database matches version \(version)")
        } else {
            lines.append("accepted \(counted(acceptedDifferences.count, "difference")), kept as the database has them:")
            lines += acceptedDifferences.map { "  - \($0)" }
        }
        return lines.joined(separator: "\n")
    }
}
