import SchemaMigrations

/// How `status` writes other migration tools' bookkeeping found in a database as JSON.
enum OtherToolsOutput {
    /// `[{"tool": "grdb", "name": …, "tables": […], "recorded": […]}]`.
    static func json(_ histories: [ForeignMigrationHistory]) -> [[String: Any]] {
        histories.map {
            [
                "tool": $0.tool.rawValue, "name": $0.tool.displayName, "tables": $0.tables, "recorded": $0.entries,
                "summary": $0.summary,
            ]
        }
    }
}
