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
            throw MigrationError(.invalidPlan, "the connection is inside a transaction; a migration needs its own",
                                 remedy: "call migrate(connection:) outside any transaction")
        }
        let target = try targetSchema()

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

        // Steps 1-2 and 11-12 of SQLite's procedure (AlterTableProcedure): foreign keys off, read back,
        // then one transaction; committed, or rolled back on any error; the settings restored.
        let procedure = AlterTableProcedure(db: db)
        let session = try procedure.disableForeignKeys()
        defer { session.restore(db) }
        var result: MigrationResult?
        try procedure.inTransaction {
            // Detect again under the write lock: another process may have migrated while we waited.
            let state = try VersionDetection(plan: plan, db: db).detect(trustCookie: false)
            result = try migrate(from: state, to: target, started: started)
        }
        return result!
    }

    private func targetSchema() throws -> Schema {
        try plan.target(options.targetVersion)
    }

    private func migrate(from state: VersionDetection.State, to target: Schema, started: Date) throws -> MigrationResult {
        let store = MetadataStore(db: db, plan: plan.name)
        switch state {
        case .empty:
            for entity in target.entities { try DeclaredSQLCheck.check(entity, version: target.version) }
            let stage = PlannedStage(from: target.version, to: target.version, kind: .lightweight,
                                     steps: target.entities.map { MigrationStep(action: .createTable($0)) },
                                     finalizingSteps: [], checks: [], finalizingChecks: [])
            try StageExecutor(db: db, progress: options.progress).runSteps(stage.steps, from: nil, to: target.version)
            try verify(target, written: WrittenColumns(target.entities.map { .createTable($0) }))
            try store.append(.init(version: target.version, hash: plan.hash(of: target.version), kind: "create", fromVersion: nil,
                                   startedAt: started, duration: Date().timeIntervalSince(started), snapshot: try plan.declaredSchema(for: target.version)!.compactJSON()))
            return MigrationResult(outcome: .created, fromVersion: nil, toVersion: target.version, adopted: false, stages: [stage], duration: Date().timeIntervalSince(started))
        case .recorded(let current), .unversioned(let current):
            guard current <= target.version else {
                throw MigrationError(.unsupportedChange, "the database is at version \(current), after the target version \(target.version); migrating backwards is not supported",
                                     version: current, remedy: "restore a backup taken at \(target.version)")
            }
            var adopted = false
            if case .unversioned = state {
                let schema = plan.schema(for: current)!
                try store.append(.init(version: current, hash: plan.hash(of: schema.version), kind: "adopt", fromVersion: nil,
                                       startedAt: started, duration: 0, snapshot: try plan.declaredSchema(for: current)!.compactJSON()))
                adopted = true
            }
            if current == target.version {
                return MigrationResult(outcome: adopted ? .migrated : .upToDate, fromVersion: current, toVersion: current, adopted: adopted, stages: [], duration: Date().timeIntervalSince(started))
            }
            let pending = try StagePlanning.stages(of: plan, from: current, to: target.version)
            var written = WrittenColumns()
            for (index, (stage, resolved)) in pending.enumerated() {
                let stageStart = Date()
                let checked = try QuickCheck.verify(before: stage, plan: plan, db: db)
                try StageExecutor(db: db, progress: options.progress).run(stage, resolved: resolved, plan: plan, checked: checked)
                written.record(stage.allSteps.map(\.action))
                let schema = plan.schema(for: stage.to)!
                if index == pending.count - 1 { try verify(schema, written: written) }
                try store.append(.init(version: stage.to, hash: plan.hash(of: schema.version), kind: stage.kind.rawValue, fromVersion: stage.from,
                                       startedAt: stageStart, duration: Date().timeIntervalSince(stageStart), snapshot: try plan.declaredSchema(for: stage.to)!.compactJSON()))
                if options.transactionScope == .perStage && index < pending.count - 1 {
                    try db.execute("COMMIT TRANSACTION")
                    try db.execute("BEGIN IMMEDIATE TRANSACTION")
                }
            }
            return MigrationResult(outcome: .migrated, fromVersion: current, toVersion: target.version, adopted: adopted,
                                   stages: pending.map(\.0), duration: Date().timeIntervalSince(started))
        }
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

/// The columns a migration wrote (created, rebuilt or added), whose defaults it must have got right.
struct WrittenColumns {
    private var tables = Set<String>()
    private var columns = Set<String>()

    init(_ actions: [StepAction] = []) { record(actions) }

    mutating func record(_ actions: [StepAction]) {
        for action in actions {
            switch action {
            case .createTable(let entity): tables.insert(entity.name.lowercased())
            case .rebuild(let rebuild):
                // A rebuild writes back the defaults the plan does not change as the table had them.
                for column in rebuild.columns where column.expression == nil || column.changesDefault {
                    columns.insert(rebuild.table.lowercased() + "." + column.attribute.name.lowercased())
                }
            case .addColumn(let table, let attribute, _): columns.insert(table.lowercased() + "." + attribute.name.lowercased())
            default: break
            }
        }
    }

    func contains(table: String, column: String) -> Bool {
        tables.contains(table.lowercased()) || columns.contains(table.lowercased() + "." + column.lowercased())
    }
}

extension MigrationError {
    /// A SQLite error met while migrating, as a migration error.
    static func wrap(_ error: SQLiteError, message: String) -> MigrationError {
        MigrationError(.sqlite, message, remedy: error.isBusy ? "retry when the other connection has finished, or raise the busy timeout" : nil, sqliteError: error)
    }
}
