import Foundation

/// One migration of one database: detection, planning, and the stages, in a transaction.
///
/// Follows SQLite's generalized ALTER TABLE procedure, step by step in ``AlterTableProcedure``;
/// the result is checked against the declared target before commit.
///
/// Related SQLite documentation: <https://www.sqlite.org/lang_altertable.html#otheralter>
struct MigrationRun {
    let plan: ResolvedPlan
    let db: SQLiteConnection
    let options: MigrationOptions

    /// - Throws: `MigrationError` only: a SQLite error met before the transaction (reading the
    ///   version, an I/O error) is wrapped too, so callers can rely on the error's type.
    func run() throws -> MigrationResult {
        do {
            return try runUnwrapped()
        } catch let error as SQLiteError {
            throw MigrationError.wrap(error, message: "cannot read the database's version before migrating; nothing was changed")
        }
    }

    private func runUnwrapped() throws -> MigrationResult {
        let started = Date()
        guard db.isAutocommit else {
            throw MigrationError(.unsafeConnection, "the connection is inside a transaction; a migration needs its own",
                                 remedy: "call migrate(connection:) outside any transaction")
        }
        let target = try plan.target(options.targetVersion)

        // Fast path, no lock, no write: the recorded version is the target and nobody touched the schema since.
        if case .recorded(let version) = try VersionDetection(plan: plan, db: db).detect(), version == target.version {
            return MigrationResult(outcome: .upToDate, fromVersion: version, toVersion: version, adopted: false, stages: [], duration: Date().timeIntervalSince(started))
        }

        if db.isReadOnly {
            throw MigrationError(.readOnly, "'\(db.path)' is read-only (the file or its directory cannot be written); a migration is pending and nothing was done",
                                 remedy: "run the migration with write access to the file and its directory")
        }
        if !db.ownsHandle { try JournalCheck.requireRollback(db) }
        if let backupURL = options.backupURL { try backup(to: backupURL) }

        // Steps 1 and 12 of SQLite's procedure (AlterTableProcedure): foreign keys off, read back, and
        // the connection's own settings restored afterwards; steps 2 and 11 around the stages.
        return try ConnectionSettings.applying(to: db, version: target.version) {
            switch options.transactionScope {
            case .wholePlan:
                return try AlterTableProcedure(db: db).inTransaction { try migrate(to: target, started: started, stageLimit: nil) }
            case .perStage:
                return try migrateStageByStage(to: target, started: started)
            }
        }
    }

    /// One transaction per stage: each commits before the next begins. A failure rolls back its
    /// own stage only, and says which version the database stays at.
    private func migrateStageByStage(to target: Schema, started: Date) throws -> MigrationResult {
        var done: MigrationResult?
        while true {
            let next: MigrationResult
            do {
                next = try AlterTableProcedure(db: db).inTransaction { try migrate(to: target, started: started, stageLimit: 1) }
            } catch var error as MigrationError {
                if let done {
                    error.message = error.message.replacingOccurrences(of: "everything was rolled back", with: "this stage was rolled back")
                    error.details.append("the stages before it were committed: the database stays at \(done.toVersion)")
                }
                throw error
            }
            let result = done.map { $0.followed(by: next, started: started) } ?? next
            if next.stages.isEmpty || next.toVersion == target.version { return result }
            done = result
        }
    }

    /// Inside the transaction: detects the version again under the write lock (another process
    /// may have migrated while we waited), then creates the target or runs the pending stages,
    /// at most `stageLimit` of them, recording each.
    private func migrate(to target: Schema, started: Date, stageLimit: Int?) throws -> MigrationResult {
        let state = try VersionDetection(plan: plan, db: db).detect(trustCookie: false)
        let store = MetadataStore(db: db, plan: plan.name)
        switch state {
        case .empty:
            let stage = PlannedStage(source: target, target: target, kind: .lightweight,
                                     steps: target.entities.map { MigrationStep(action: .createTable($0)) })
            try StageExecutor(db: db, progress: options.progress).runSteps(stage.steps, from: nil, to: target.version)
            try verify(target, written: WrittenColumns(target.entities.map { .createTable($0) }))
            try store.append(record(of: target.version, kind: "create", from: nil, started: started))
            return MigrationResult(outcome: .created, fromVersion: nil, toVersion: target.version, adopted: false, stages: [stage], duration: Date().timeIntervalSince(started))
        case .recorded(let current), .unversioned(let current):
            guard current <= target.version else {
                throw MigrationError.backwards(from: current, to: target.version)
            }
            var adopted = false
            if case .unversioned = state {
                try store.append(record(of: current, kind: "adopt", from: nil, started: started, duration: 0))
                adopted = true
            }
            if current == target.version {
                return MigrationResult(outcome: adopted ? .migrated : .upToDate, fromVersion: current, toVersion: current, adopted: adopted, stages: [], duration: Date().timeIntervalSince(started))
            }
            var pending = try plan.plannedStages(from: current, to: target.version)
            if let stageLimit { pending = Array(pending.prefix(stageLimit)) }
            var written = WrittenColumns()
            for (index, stage) in pending.enumerated() {
                let stageStart = Date()
                let checked = try QuickCheck.verify(before: stage, db: db)
                try StageExecutor(db: db, progress: options.progress).run(stage, checked: checked)
                written.record(stage.allSteps.map(\.action))
                if index == pending.count - 1 { try verify(stage.target, written: written) }
                try store.append(record(of: stage.to, kind: stage.kind.rawValue, from: stage.from, started: stageStart))
            }
            return MigrationResult(outcome: .migrated, fromVersion: current, toVersion: pending.last?.to ?? current, adopted: adopted,
                                   stages: pending, duration: Date().timeIntervalSince(started))
        }
    }

    /// The metadata row for reaching `version`: its hash and declared snapshot.
    private func record(of version: Schema.Version, kind: String, from: Schema.Version?, started: Date, duration: TimeInterval? = nil) throws -> MetadataStore.Entry {
        guard let declared = plan.declaredSchema(for: version) else {
            throw MigrationError(.invalidPlan, "version \(version) is not declared by the plan '\(plan.name)'", version: version, remedy: "report this as a bug")
        }
        return MetadataStore.Entry(version: version, hash: plan.hash(of: version), kind: kind, fromVersion: from, startedAt: started,
                                    duration: duration ?? Date().timeIntervalSince(started), snapshot: try declared.compactJSON())
    }

    /// The database must now hold exactly the declared target: otherwise everything rolls back, with the diff.
    private func verify(_ target: Schema, written: WrittenColumns) throws {
        let live = try LiveSchema.read(from: db, onlyTables: Set(target.entityNames))
        let accepted = try AcceptedDifferences(db: db, plan: plan.name).load()  // what a baseline accepted and no stage changed
        let differences = SchemaComparison(checksDefault: written.contains).differences(declared: target, live: live).filter { !accepted.contains($0) }
        guard differences.isEmpty else {
            throw MigrationError(.verificationFailed, "after the migration the database does not match version \(target.version); everything was rolled back",
                                 version: target.version, remedy: "report this as a bug, with the plan and the database schema", details: differences)
        }
    }

    private func backup(to url: URL) throws {
        do {
            try db.backup(toPath: url.path, progress: BackupProgress.reporter(to: options.progress, path: url.path, target: options.targetVersion ?? plan.latest.version))
        } catch let error as SQLiteError {
            throw MigrationError(.sqlite, "cannot back up the database to '\(url.path)'; nothing was migrated", remedy: "choose a writable backup path", sqliteError: error)
        }
    }
}
