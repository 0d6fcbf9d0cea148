extension MigrationStep {
    /// What a step costs, whatever the data: the one classification that the lint, the dry run and
    /// progress read.
    public enum Cost: Sendable, CaseIterable {
        /// Copies every row of the table (a rebuild, or `DROP COLUMN`, which SQLite also rewrites).
        case rebuild
        /// Reads every row without writing them (building an index).
        case scan
        /// Creates a table: O(1), there is nothing in it yet.
        case newTable
        /// Drops a table and frees its rows' pages: O(1) in the schema, but the rows are gone.
        case dropsRows
        /// Changes the schema only, O(1) whatever the table's size.
        case schemaOnly

        /// The lint's class: `rebuild`, `scan`, or `O(1)` for everything that does not read the rows.
        public var name: String {
            switch self {
            case .rebuild: return "rebuild"
            case .scan: return "scan"
            case .newTable, .dropsRows, .schemaOnly: return "O(1)"
            }
        }

        /// The dry run's words, with the rows affected where measured: `rewrites rows: 1000`,
        /// `reads every row to build the index`, `schema only, O(1)`.
        func description(rows: Int64?) -> String {
            switch self {
            case .rebuild: return "rewrites rows" + (rows.map { ": \($0)" } ?? "")
            case .scan: return "reads every row to build the index"
            case .newTable: return "new table"
            case .dropsRows: return "drops rows" + (rows.map { ": \($0)" } ?? "")
            case .schemaOnly: return "schema only, O(1)"
            }
        }
    }

    /// What the step costs, whatever the data.
    public var cost: Cost {
        switch op {
        case _ where rewritesRows: return .rebuild
        case .createIndex: return .scan
        case .createTable: return .newTable
        case .dropTable: return .dropsRows
        default: return .schemaOnly
        }
    }
}
