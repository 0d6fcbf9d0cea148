#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension LocalMigrationFraming {
    /// One migration of a local database (a file the library opens, or a connection the app
    /// lends): the up-to-date fast path, the refusals before anything is written, the backup,
    /// then the stages inside this framing (settings, transaction, metadata), offline or online.
    ///
    /// ```swift
    /// let result = try FileFraming(connection: db).migrate(plan, options: options)
    /// ```
    ///
    /// Follows SQLite's generalized ALTER TABLE procedure, step by step in ``AlterTableProcedure``;
    /// the result is checked against the declared target before commit.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/lang_altertable.html#otheralter>
    /// - Throws: `MigrationError` only: a SQLite error met before the transaction (reading the
    ///   version, an I/O error) is wrapped too, so callers can rely on the error's type.
    func migrate(_ plan: ResolvedPlan, options: MigrationOptions) throws -> MigrationResult {
        do {
            return try migrateUnwrapped(plan, options: options)
        } catch let error as SQLiteError {
            throw MigrationError.wrap(
                error, message: "cannot read the database's version before migrating; nothing was changed")
        }
    }

    private func migrateUnwrapped(_ plan: ResolvedPlan, options: MigrationOptions) throws -> MigrationResult {
        let db = connection
        let started = Date()
        // A file the package opened may come inside the read transaction of its opening check: the
        // up-to-date check reads in it (one shared lock in all), then ends it.
        let heldRead = db.holdsOpeningReadTransaction && !db.isAutocommit
        db.holdsOpeningReadTransaction = false
        guard db.isAutocommit || heldRead else {
            throw MigrationError(
                .unsafeConnection, "the connection is inside a transaction; a migration needs its own",
                remedy: "call migrate(connection:) outside any transaction")
        }
        let upToDate: MigrationResult?
        // The version as the fast path found it: what the estimates before the lock start from.
        let found: VersionDetection.State
        do {
            found = try VersionDetection(plan: plan, db: db).detect()
            upToDate = try upToDateResult(found, plan, options: options, started: started)
        } catch {
            // Ends a transaction that only read: nothing to undo, and the error says what went wrong.
            if heldRead { _ = try? db.execute("ROLLBACK") }
            throw error
        }
        if heldRead { try db.execute("COMMIT") }
        if let upToDate { return upToDate }
        let target = try plan.target(options.targetVersion)
        let chunkTarget = try options.online?.validatedTarget()
        // Refused before the read-only check and the backup: nothing is written, not even beside the file.
        if options.requireCompatible,
            let refusal = try MigrationError.incompatible(plan: plan, from: found.version, to: target.version)
        {
            throw refusal
        }

        if db.isReadOnly {
            throw MigrationError(
                .readOnly,
                "'\(db.path)' is read-only (the file or its directory cannot be written); a migration is pending and nothing was done",
                remedy: "run the migration with write access to the file and its directory")
        }
        try requireSafeConnection()
        if let online = options.online, let chunkTarget {
            if let current = found.version, current > target.version {
                throw MigrationError.onlineBackwards(from: current, to: target.version)
            }
            if let current = found.version {
                try OnlineMigration.refuseCustomCode(plan: plan, from: current, to: target.version)
            }
            let backupURL = try backupURL(options)
            let progress = try runProgress(found, plan, to: target, options: options, backingUp: backupURL != nil)
            try backupURL.map { try backup(to: $0, plan: plan, options: options, progress: progress) }
            var result = try withSettings(version: target.version) {
                try connection.withDefensiveModeOff {
                    try OnlineMigration(
                        plan: plan, db: db, options: options, online: online, chunkTarget: chunkTarget,
                        progress: progress
                    )
                    .run(to: target, started: started)
                }
            }
            result.backupURL = backupURL
            return result
        }
        let backupURL = try backupURL(options)
        let progress = try runProgress(found, plan, to: target, options: options, backingUp: backupURL != nil)
        // The backup is taken under the migration's write lock, once the stages are still pending
        // there: a migration of the same file that took the lock first has finished by then (this
        // one then finds the database current, backs nothing up and writes nothing), and no long
        // read of this one's can make the other's commit wait out its busy timeout.
        // (A database only this connection can reach, in memory, is backed up before the lock.)
        var backedUp = false
        let underLock = !db.path.isEmpty && db.path != ":memory:"
        if let backupURL, !underLock {
            try backup(to: backupURL, plan: plan, options: options, progress: progress)
            backedUp = true
        }
        // Returns the version it detected under the lock, which the stages then take as theirs.
        let backUpIfPending = { () throws -> VersionDetection.State? in
            guard let backupURL, underLock else { return nil }
            let state = try VersionDetection(plan: plan, db: db).detect(trustCookie: false)
            guard state.version != target.version else { return state }
            try backup(to: backupURL, plan: plan, options: options, progress: progress)
            backedUp = true
            return state
        }

        // Steps 1 and 12 of SQLite's procedure (AlterTableProcedure): foreign keys off, read back, and
        // the connection's own settings restored afterwards; steps 2 and 11 around the stages.
        let stages = TransactionalMigration(plan: plan, framing: self, progress: progress)
        var result = try withSettings(version: target.version) {
            try OnlineMigration.clearForOffline(plan: plan, db: db, options: options)
            switch options.transactionScope {
            case .wholePlan:
                return try inWriteTransaction(doing: "migration") {
                    let detected = try backUpIfPending()
                    return try stages.migrate(to: target, started: started, stageLimit: nil, detected: detected)
                }
            case .perStage:
                return try migrateStageByStage(stages, to: target, started: started, first: backUpIfPending)
            }
        }
        result.backupURL = backedUp ? backupURL : nil
        return result
    }

    /// The fast path, with no write: the recorded version is the target and nobody touched the
    /// schema since (an online run first finishes releasing what an interrupted online change set
    /// aside). Nil when the migration has work to do or a refusal to make.
    private func upToDateResult(
        _ found: VersionDetection.State, _ plan: ResolvedPlan, options: MigrationOptions, started: Date
    ) throws -> MigrationResult? {
        let db = connection
        let target = try plan.target(options.targetVersion)
        _ = try options.online?.validatedTarget()
        guard case .recorded(let version) = found, version == target.version,
            try options.online == nil || db.isReadOnly || OnlineState.read(from: db) == nil
        else { return nil }
        return MigrationResult(
            outcome: .upToDate, fromVersion: version, toVersion: version, adopted: false, stages: [],
            duration: Date().timeIntervalSince(started))
    }

    /// One transaction per stage: each commits before the next begins. A failure rolls back its
    /// own stage only, and says which version the database stays at.
    /// - Parameter first: runs at the start of the first stage's transaction (the backup), and
    ///   gives the version it detected there, if it did.
    private func migrateStageByStage(
        _ stages: TransactionalMigration, to target: Schema, started: Date,
        first: () throws -> VersionDetection.State?
    ) throws -> MigrationResult {
        var done: MigrationResult?
        while true {
            let next: MigrationResult
            do {
                next = try inWriteTransaction(doing: "migration") {
                    let detected = done == nil ? try first() : nil
                    return try stages.migrate(
                        to: target, started: started, stageLimit: 1, detected: detected, continuing: done != nil)
                }
            } catch var error as MigrationError {
                if let done {
                    if error.rolledBack == .everything { error.say(rolledBack: .thisStage) }
                    error.details.append("the stages before it were committed: the database stays at \(done.toVersion)")
                }
                throw error
            }
            let result = done.map { $0.followed(by: next, started: started) } ?? next
            if next.stages.isEmpty || next.toVersion == target.version { return result }
            done = result
        }
    }

    /// Where to back the database up: ``MigrationOptions/backupURL``, when one is set and the
    /// database holds something. A new or empty file (no table, index, view or trigger, so no row
    /// either) has nothing a backup could bring back, and the migration only creates its schema.
    private func backupURL(_ options: MigrationOptions) throws -> URL? {
        guard let url = options.backupURL else { return nil }
        return try connection.scalar("SELECT count(*) FROM sqlite_schema")?.int64Value == 0 ? nil : url
    }

    /// The run's progress (nil without a callback), counting the steps it will take as the
    /// database is now: the backup, then the tables created or each pending stage's steps. The
    /// migration counts again under the write lock, where the count is final.
    private func runProgress(
        _ found: VersionDetection.State, _ plan: ResolvedPlan, to target: Schema, options: MigrationOptions,
        backingUp: Bool
    ) throws -> RunProgress? {
        guard options.progress != nil else { return nil }
        var steps = backingUp ? 1 : 0
        switch found {
        case .empty:
            steps += target.entities.count
        case .recorded(let current), .unversioned(let current):
            // An estimate only: a stage the planner refuses is refused, in the same words, when the
            // migration plans it under the lock, so its error is not the estimate's to throw.
            let pending = try? plan.plannedStages(
                from: current, to: target.version, planner: options.online == nil ? nil : OnlineMigration.planner)
            steps += (pending ?? []).map(RunProgress.steps(of:)).reduce(0, +)
        }
        return RunProgress(options.progress, total: steps)
    }

    /// Backs the database up to `url`, the run's first step.
    private func backup(to url: URL, plan: ResolvedPlan, options: MigrationOptions, progress: RunProgress?) throws {
        do {
            // SQLite refuses a backup whose source connection is in a write transaction: under the
            // migration's lock, a second connection reads the file, whose committed pages are
            // exactly what the migration starts from (this one has written nothing yet).
            let source =
                connection.isAutocommit
                ? connection
                : try SQLiteConnection(
                    path: connection.path, mode: .readOnly, busyTimeout: connection.busyTimeout, vfs: options.vfsName)
            try source.backup(
                toPath: url.path,
                progress: BackupProgress.reporter(
                    to: progress, path: url.path, target: options.targetVersion ?? plan.latest.version))
        } catch let error as SQLiteError {
            throw MigrationError(
                .sqlite, "cannot back up the database to '\(url.path)'; nothing was migrated",
                remedy: "choose a writable backup path", sqliteError: error)
        }
    }
}
