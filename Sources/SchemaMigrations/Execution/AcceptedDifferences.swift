/// The differences a baseline accepted between a database and the version it was recorded at,
/// kept per plan in `"_schema_migrations_accepted"`, so that drift checks, `verify` and the check
/// after a migration tolerate them (until a migration resolves one: it is then simply absent).
///
/// ```sql
/// CREATE TABLE "_schema_migrations_accepted" ("plan" TEXT NOT NULL, "difference" TEXT NOT NULL)
/// ```
struct AcceptedDifferences {
    let db: any SQLQuerying
    let plan: String

    static let createSQL = """
        CREATE TABLE IF NOT EXISTS "\(TableNames.acceptedDifferences)" ("plan" TEXT NOT NULL, "difference" TEXT NOT NULL)
        """

    /// The accepted differences of the plan; empty when no baseline accepted any.
    func load() throws -> Set<String> {
        guard try db.scalar("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?", [.text(TableNames.acceptedDifferences)]) != nil else { return [] }
        return Set(try db.rows("SELECT \"difference\" FROM \"\(TableNames.acceptedDifferences)\" WHERE \"plan\" = ?", [.text(plan)])
            .compactMap { $0.first?.stringValue })
    }

    /// Replaces the plan's accepted differences; call inside the baseline's transaction.
    func save(_ differences: [String]) throws {
        guard !differences.isEmpty else { return }
        try db.execute(AcceptedDifferences.createSQL)
        try db.execute("DELETE FROM \"\(TableNames.acceptedDifferences)\" WHERE \"plan\" = ?", [.text(plan)])
        for difference in differences {
            try db.execute("INSERT INTO \"\(TableNames.acceptedDifferences)\" (\"plan\", \"difference\") VALUES (?, ?)", [.text(plan), .text(difference)])
        }
    }
}
