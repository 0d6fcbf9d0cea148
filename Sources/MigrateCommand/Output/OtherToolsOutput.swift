import SchemaMigrations

/// How `status` shows other migration tools' bookkeeping found in a database.
enum OtherToolsOutput {
    /// `managed before by GRDB DatabaseMigrator (grdb_migrations): 2 migrations applied: v1, v2`,
    /// one line per tool; none when there is none.
    static func lines(_ histories: [ForeignMigrationHistory]) -> [String] {
        histories.map { "managed before by \($0.summary) (left alone)" }
    }

    /// `[{"tool": "grdb", "name": …, "tables": […], "recorded": […]}]`.
    static func json(_ histories: [ForeignMigrationHistory]) -> [[String: Any]] {
        histories.map { ["tool": $0.tool.rawValue, "name": $0.tool.displayName, "tables": $0.tables, "recorded": $0.entries, "summary": $0.summary] }
    }
}
