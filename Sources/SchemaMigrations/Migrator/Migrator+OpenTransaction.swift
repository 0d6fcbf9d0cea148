#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Migrator {
    /// Migrates a database reached through `db`, a connection its caller has already put in a
    /// write transaction with foreign keys off (SQLite's steps 1 and 2); the caller commits or
    /// rolls back. This is how the dqlite cluster migration runs the stages on the leader, over
    /// the wire, exactly as ``migrate(databaseAt:)`` runs them on a file: the same detection under
    /// the lock, checks, custom stages, verification and metadata rows. The whole plan is one
    /// transaction (``MigrationOptions/transactionScope`` does not apply) and no backup is taken
    /// here (``MigrationOptions/backupURL`` is the caller's).
    /// - Returns: the result; `.upToDate` with no stage and no adoption means nothing was written.
    /// - Throws: `MigrationError` (a SQLite error is wrapped); any other error of the connection
    ///   (the connection lost) as it is. The caller must then roll back.
    package func migrate(inOpenTransactionOn db: any MigrationDatabase) throws -> MigrationResult {
        let plan = try resolvedPlan()
        let target = try plan.target(options.targetVersion)
        do {
            return try TransactionalMigration(plan: plan, db: db, progress: options.progress).migrate(to: target, started: Date(), stageLimit: nil)
        } catch let error as SQLiteError {
            throw MigrationError.wrap(error, message: "cannot read the database's version before migrating; nothing was changed")
        }
    }
}

extension Migrator {
    /// The plan's name, as its rows in the metadata table carry it.
    /// - Throws: `MigrationError` when the plan is malformed.
    package func planName() throws -> String { try resolved.get().name }

    /// The metadata table's name.
    package static var metadataTable: String { TableNames.metadata }
}
