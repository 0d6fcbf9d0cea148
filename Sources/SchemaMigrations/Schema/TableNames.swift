/// Names this package reserves in every database it migrates.
enum TableNames {
    /// The package's metadata table: versions, hashes, snapshots and history, keyed by plan name.
    static let metadata = "_schema_migrations"
    /// The differences `baseline` accepted, per plan: drift checks and verification tolerate them.
    static let acceptedDifferences = "_schema_migrations_accepted"
    /// Prefix of the new table built during a rebuild, before it takes the old one's name.
    static let temporaryPrefix = "_sm_new_"
}
