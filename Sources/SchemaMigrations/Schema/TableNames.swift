/// Names this package reserves in every database it migrates.
enum TableNames {
    /// The package's metadata table: versions, hashes, snapshots and history, keyed by plan name.
    static let metadata = "_schema_migrations"
    /// The differences `baseline` accepted, per plan: drift checks and verification tolerate them.
    static let acceptedDifferences = "_schema_migrations_accepted"
    /// Prefix of the new table built during a rebuild, before it takes the old one's name.
    static let temporaryPrefix = "_sm_new_"
    /// Prefix of an online change's objects: the shadow table (`_sm_online_Trip`), its indexes
    /// (`_sm_online_ix1_Trip`) and the triggers on the source table (`_sm_online_Trip_insert`).
    static let onlinePrefix = "_sm_online_"
    /// Prefix of the table an online cut-over set aside, emptied in chunks and dropped afterwards.
    static let releasedPrefix = "_sm_old_"
    /// The online change in progress on this database, if any (at most one row).
    static let onlineState = "_schema_migrations_online"

    /// The index an online copy puts on the table it copies (`_sm_online_Trip_blobguard`), an
    /// expression index with no entries (`((0)) WHERE 0`). SQLite refuses to open a column of a
    /// table with an expression index for incremental blob writes (`sqlite3_blob_open`: "cannot
    /// open indexed column for writing"), the one write no trigger sees; reads still open.
    static func blobGuard(on table: String) -> String { onlinePrefix + table + "_blobguard" }

    /// The guard's statement on `table`, exactly as the copy writes it.
    static func blobGuardSQL(on table: String) -> String {
        "CREATE INDEX \(SQL.quoteIdentifier(blobGuard(on: table))) ON \(SQL.quoteIdentifier(table)) ((0)) WHERE 0"
    }

    /// Whether an index is an online copy's guard on `table` (its name and its statement both):
    /// the package's own, never part of the table as the application or a declaration sees it.
    static func isBlobGuard(_ index: String, sql: String?, on table: String) -> Bool {
        index == blobGuard(on: table) && sql == blobGuardSQL(on: table)
    }
}
