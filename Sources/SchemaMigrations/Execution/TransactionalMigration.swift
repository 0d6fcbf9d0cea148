#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What a migration does inside its transaction, on any ``MigrationDatabase``: detects the
/// version again under the write lock, then creates the target or runs the pending stages, each
/// checked, executed, verified against its declaration and recorded in the metadata table.
///
/// The transaction and connection settings around it are its ``MigrationFraming``'s (a file, a lent
/// connection, a dqlite leader reached over the wire), which also reads and writes the metadata;
/// the backup is the caller's.
struct TransactionalMigration {
    let plan: ResolvedPlan
    let framing: any MigrationFraming
    var db: any MigrationDatabase { framing.database }
    /// The run's progress, which numbers the steps across the whole run.
    let progress: RunProgress?

    /// Inside the transaction: detects the version again under the write lock (another process
    /// may have migrated while we waited), then creates the target or runs the pending stages,
    /// at most `stageLimit` of them, recording each.
    /// - Parameter detected: the version as detected already under this transaction's lock
    ///   (the backup's check), not detected again.
    /// - Parameter continuing: true when an earlier transaction of this run recorded stages (a
    ///   per-stage run): the first stage here is recorded as starting when the last one ended.
    func migrate(
        to target: Schema, started: Date, stageLimit: Int?, detected: VersionDetection.State? = nil,
        continuing: Bool = false
    ) throws -> MigrationResult {
        let state = try detected ?? VersionDetection(plan: plan, db: db).detect(trustCookie: false)
        let store = framing.metadata(plan: plan.name)
        switch state {
        case .empty:
            for entity in target.entities {
                try DeclaredSQLCheck.check(entity, version: target.version, environment: plan.environment)
            }
            try DeclaredSQLCheck.checkSQLObjects(of: target, environment: plan.environment)
            if let refusal = try SQLEnvironmentCheck(db: db).refusal(
                for: [], creating: target.entities, version: target.version)
            {
                throw refusal
            }
            let stage = PlannedStage.creating(target)
            progress?.expect(remaining: stage.steps.count)
            try StageExecutor(db: db, progress: progress).runSteps(stage.steps, from: nil, to: target.version)
            try verify(target, written: WrittenColumns(target.entities.map { .createTable($0) }))
            try store.append(record(of: target.version, kind: "create", from: nil, started: started))
            return MigrationResult(
                outcome: .created, fromVersion: nil, toVersion: target.version, adopted: false, stages: [stage],
                duration: Date().timeIntervalSince(started))
        case .recorded(let current), .unversioned(let current):
            // A way back is planned, and what it would drop refused, before the first write (the adoption's row).
            let backwards = current > target.version
            var pending = backwards ? try plan.plannedStages(from: current, to: target.version) : []
            if backwards, !plan.allowsDataLoss,
                let refusal = try ReversalDataLoss(pending, db: db).refusal(from: current, to: target.version)
            {
                throw refusal
            }
            var adopted = false
            if case .unversioned = state {
                try store.append(record(of: current, kind: "adopt", from: nil, started: started, duration: 0))
                adopted = true
            }
            if current == target.version {
                return MigrationResult(
                    outcome: adopted ? .migrated : .upToDate, fromVersion: current, toVersion: current,
                    adopted: adopted, stages: [], duration: Date().timeIntervalSince(started))
            }
            if !backwards { pending = try plan.plannedStages(from: current, to: target.version) }
            // Refused before the first write when a table or index it touches needs what the connection lacks.
            if let refusal = try SQLEnvironmentCheck(db: db).refusal(for: pending, version: target.version) {
                throw refusal
            }
            // Every stage still pending counts, those a later transaction runs included.
            progress?.expect(remaining: pending.map(RunProgress.steps(of:)).reduce(0, +))
            if let stageLimit { pending = Array(pending.prefix(stageLimit)) }
            var written = WrittenColumns()
            // Tables an earlier stage checked or wrote anew: checked once per migration, not per stage.
            var sound: Set<String> = []
            // Each stage of one run starts when the record before it ended (the adoption's, or an
            // earlier transaction's of a per-stage run), to the recorded microsecond: how history
            // tells the stages of one run apart from the next run's (``Migrator/revertTarget(databaseAt:)``).
            var previousEnd = continuing ? try store.end(ofRecordSince: started) : adopted ? started : nil
            for (index, stage) in pending.enumerated() {
                let stageStart = previousEnd ?? Date()
                let checked = try QuickCheck.verify(before: stage, db: db, skipping: sound) + sound.sorted()
                sound = try StageExecutor(db: db, progress: progress).run(stage, checked: checked)
                written.record(stage.allSteps.map(\.action))
                if index == pending.count - 1 { try verify(stage.target, written: written) }
                let entry = try record(of: stage.to, kind: stage.header.kindName, from: stage.from, started: stageStart)
                try store.append(entry)
                previousEnd = entry.startedAt.addingTimeInterval(entry.duration)
            }
            return MigrationResult(
                outcome: .migrated, fromVersion: current, toVersion: pending.last?.to ?? current, adopted: adopted,
                stages: pending, duration: Date().timeIntervalSince(started))
        }
    }

    /// The metadata row for reaching `version`: its hash and declared snapshot.
    func record(
        of version: Schema.Version, kind: String, from: Schema.Version?, started: Date, duration: TimeInterval? = nil
    ) throws -> MetadataStore.Entry {
        guard let declared = plan.declaredSchema(for: version) else {
            throw MigrationError(
                .invalidPlan, "version \(version) is not declared by the plan '\(plan.name)'", version: version,
                remedy: "report this as a bug")
        }
        return MetadataStore.Entry(
            version: version, hash: plan.hash(of: version), kind: kind, fromVersion: from, startedAt: started,
            duration: duration ?? Date().timeIntervalSince(started), snapshot: try declared.compactJSON())
    }

    /// The database must now hold exactly the declared target: otherwise everything rolls back, with the diff.
    func verify(_ target: Schema, written: WrittenColumns) throws {
        let live = try LiveSchema.read(from: db, onlyTables: Set(target.entityNames))
        // what a baseline accepted and no stage changed
        let accepted = try AcceptedDifferences.load(from: db, plan: plan.name)
        let differences = accepted.unaccepted(
            SchemaComparison(checksDefault: written.contains, undeclaredUniqueIndexesDiffer: false)
                .differences(declared: target, live: live))
        guard differences.isEmpty else {
            throw MigrationError(
                .verificationFailed,
                "after the migration the database does not match version \(target.version)", rolledBack: .everything,
                version: target.version, remedy: "report this as a bug, with the plan and the database schema",
                details: differences.map(\.description))
        }
    }
}
