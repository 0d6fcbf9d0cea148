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
}
