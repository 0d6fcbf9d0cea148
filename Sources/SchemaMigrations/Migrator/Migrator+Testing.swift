#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What the testing library (`SchemaMigrationsTesting`) needs of a migrator beyond its public API:
/// the declared versions, a database opened as every entry point opens one, and the data API over
/// a database outside any migration.
extension Migrator {
    /// The versions the plan declares, oldest first.
    /// - Throws: `MigrationError` when the plan is malformed.
    package func declaredVersions() throws -> [Schema.Version] { try resolved.get().declared.map(\.version) }

    /// The database at `url`, opened with the options' busy timeout, VFS and SQL environment.
    package func openDatabase(_ url: URL, readOnly: Bool) throws -> SQLiteConnection {
        try open(url, mode: readOnly ? .readOnly : .readWrite)
    }

    /// The data API of custom stages (``MigrationContext``) over `db`, at `version`'s stored schema,
    /// outside any migration: the caller owns the transaction.
    /// - Throws: `MigrationError` with code `invalidPlan` for a version the plan does not declare.
    package func context(on db: SQLiteConnection, at version: Schema.Version) throws -> MigrationContext {
        let schema = try resolvedPlan().target(version)
        return MigrationContext(schema: schema, db: db, stage: (version, version), progress: nil)
    }
}
