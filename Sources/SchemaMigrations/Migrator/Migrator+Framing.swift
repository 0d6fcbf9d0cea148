#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Migrator {
    /// Migrates the database `framing` reaches, the whole plan in one transaction, exactly as
    /// ``migrate(databaseAt:)`` migrates a file: the same settings and read-back (steps 1 and 12),
    /// transaction (2 and 11), detection under the lock, checks, custom stages, verification and
    /// metadata rows. This is how the dqlite cluster migration runs on the leader, over the wire.
    /// ``MigrationOptions/transactionScope`` does not apply, and no backup is taken here
    /// (``MigrationOptions/backupURL`` is the caller's: `beforeStages` runs inside the transaction,
    /// before anything is written; `stagesDone` once the stages ran, before `COMMIT`). A migration
    /// that wrote nothing is rolled back, not committed. ``MigrationOptions/requireCompatible``
    /// refuses a breaking stage under the lock, before `beforeStages`.
    /// - Returns: the result; `.upToDate` with no stage and no adoption means nothing was written.
    /// - Throws: `MigrationError` (a SQLite error is wrapped); any other error of the connection
    ///   (the connection lost) as it is, after the framing rolled back.
    package func migrate(
        framedBy framing: some MigrationFraming, beforeStages: () throws -> Void = {},
        stagesDone: (MigrationResult) -> Void = { _ in }
    ) throws -> MigrationResult {
        let plan = try resolvedPlan()
        let target = try plan.target(options.targetVersion)
        let started = Date()
        let stages = TransactionalMigration(plan: plan, framing: framing, progress: RunProgress(options.progress))
        do {
            return try framing.withSettings(version: target.version) {
                try framing.inWriteTransaction(doing: "migration", keeping: { !$0.wroteNothing }) {
                    // Refused under the lock, before `beforeStages` (the backup) and any write.
                    var detected: VersionDetection.State?
                    if options.requireCompatible {
                        let state = try VersionDetection(plan: plan, db: framing.database).detect(trustCookie: false)
                        if let refusal = try MigrationError.incompatible(
                            plan: plan, from: state.version, to: target.version)
                        {
                            throw refusal
                        }
                        detected = state
                    }
                    try beforeStages()
                    let result = try stages.migrate(to: target, started: started, stageLimit: nil, detected: detected)
                    stagesDone(result)
                    return result
                }
            }
        } catch let error as SQLiteError {
            throw MigrationError.wrap(
                error, message: "cannot read the database's version before migrating; nothing was changed")
        }
    }
}

extension MigrationResult {
    /// True when the migration found the database up to date and adopted nothing: its transaction wrote nothing.
    var wroteNothing: Bool { stages.isEmpty && !adopted && outcome == .upToDate }
}

extension Migrator {
    /// The plan's name, as its rows in the metadata table carry it.
    /// - Throws: `MigrationError` when the plan is malformed.
    package func planName() throws -> String { try resolved.get().name }

    /// The metadata table's name.
    package static var metadataTable: String { TableNames.metadata }
}
