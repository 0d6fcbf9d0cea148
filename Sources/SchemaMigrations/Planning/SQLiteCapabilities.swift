/// What the SQLite library in use can do without a rebuild.
struct SQLiteCapabilities: Sendable {
    /// `ALTER TABLE … DROP COLUMN` (3.35.0).
    var dropColumn: Bool
    /// Whether an index added to an existing table makes it rebuild (so an online change builds
    /// it in the shadow table, chunk by chunk, rather than in one long `CREATE INDEX`).
    var rebuildsForAddedIndexes = false

    static var current: SQLiteCapabilities {
        let version = SQLiteConnection.libraryVersionNumber
        return SQLiteCapabilities(dropColumn: version >= 3_035_000)
    }

    /// Dropping a column rebuilds: used to test the rebuild path. (Renames always use
    /// `RENAME COLUMN`, which every SQLite this package runs on has: 3.25.0, 2018.)
    static let rebuildOnly = SQLiteCapabilities(dropColumn: false)

    /// An online change: a dropped column and an added index rebuild the table (through the
    /// shadow, chunk by chunk) instead of rewriting it or building the index under one lock.
    static let online = SQLiteCapabilities(dropColumn: false, rebuildsForAddedIndexes: true)
}
