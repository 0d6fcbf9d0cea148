/// What the SQLite library in use can do without a rebuild.
struct SQLiteCapabilities: Sendable {
    /// `ALTER TABLE … DROP COLUMN` (3.35.0).
    var dropColumn: Bool

    static var current: SQLiteCapabilities {
        let version = SQLiteConnection.libraryVersionNumber
        return SQLiteCapabilities(dropColumn: version >= 3_035_000)
    }

    /// Dropping a column rebuilds: used to test the rebuild path. (Renames always use
    /// `RENAME COLUMN`, which every SQLite this package runs on has: 3.25.0, 2018.)
    static let rebuildOnly = SQLiteCapabilities(dropColumn: false)
}
