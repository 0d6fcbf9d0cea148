/// The differences a baseline accepted between a database and the version it was recorded at,
/// kept per plan in `"_schema_migrations_accepted"`, so that drift checks, `verify` and the check
/// after a migration tolerate them (until a migration resolves one: it is then simply absent).
///
/// ```sql
/// CREATE TABLE "_schema_migrations_accepted" ("plan" TEXT NOT NULL, "difference" TEXT NOT NULL)
/// ```
///
/// Each row holds one ``SchemaDifference`` encoded (``SchemaDifference/encoded()``), so that
/// rewording a sentence leaves what was accepted as it was. Baselines recorded by earlier
/// releases hold the difference's sentence instead: such a row accepts the difference that
/// renders as that sentence.
struct AcceptedDifferences {
    /// The differences stored encoded.
    var differences: Set<SchemaDifference> = []
    /// The sentences earlier releases stored.
    var sentences: Set<String> = []

    static let createSQL = """
        CREATE TABLE IF NOT EXISTS "\(TableNames.acceptedDifferences)" ("plan" TEXT NOT NULL, "difference" TEXT NOT NULL)
        """

    /// The differences among `differences` that no baseline accepted.
    ///
    /// - Parameter sentence: how this release words a difference; only the rows of earlier
    ///   releases are matched by it.
    func unaccepted(
        _ differences: [SchemaDifference],
        renderedAs sentence: (SchemaDifference) -> String = { $0.description }
    ) -> [SchemaDifference] {
        differences.filter { difference in
            !self.differences.contains(difference) && (sentences.isEmpty || !sentences.contains(sentence(difference)))
        }
    }

    /// The accepted differences of `plan`; empty when no baseline accepted any.
    static func load(from db: any SQLQuerying, plan: String) throws -> AcceptedDifferences {
        var accepted = AcceptedDifferences()
        let table = TableNames.acceptedDifferences
        guard try db.scalar("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?", [.text(table)]) != nil
        else {
            return accepted
        }
        let stored = try db.rows("SELECT \"difference\" FROM \"\(table)\" WHERE \"plan\" = ?", [.text(plan)])
        for text in stored.compactMap({ $0.first?.stringValue }) {
            if let difference = SchemaDifference(encoded: text) {
                accepted.differences.insert(difference)
            } else {
                accepted.sentences.insert(text)
            }
        }
        return accepted
    }

    /// Replaces the accepted differences of `plan`; call inside the baseline's transaction.
    static func save(_ differences: [SchemaDifference], to db: any SQLQuerying, plan: String) throws {
        guard !differences.isEmpty else { return }
        try db.execute(createSQL)
        try db.execute("DELETE FROM \"\(TableNames.acceptedDifferences)\" WHERE \"plan\" = ?", [.text(plan)])
        for difference in differences {
            try db.execute(
                "INSERT INTO \"\(TableNames.acceptedDifferences)\" (\"plan\", \"difference\") VALUES (?, ?)",
                [.text(plan), .text(try difference.encoded())])
        }
    }
}
