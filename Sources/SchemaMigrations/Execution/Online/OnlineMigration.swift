#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A migration run as an online change, on a connection outside any transaction with the
/// migration's settings applied (``MigrationFraming/withSettings(version:_:)``): stage by stage, each stage's table
/// rebuilds built in shadow tables while the application writes, then swapped in by one short
/// cut-over transaction that runs the rest of the stage, checks it and records its version.
///
/// Phases of one stage, each in its own short `BEGIN IMMEDIATE` transaction:
/// 1. Prepare: the shadows, their indexes and triggers; the state row (``OnlineState``).
/// 2. Copy: chunks in rowid order, each sized to hold the write lock about
///    ``OnlineRebuildOptions/chunkTargetMilliseconds``; the high-water mark recorded with each.
/// 3. Cut-over: triggers dropped, the stage's steps run with each rebuild replaced by the swap
///    (``OnlineTableChange/cutOverStatements(_:version:)``), checked, verified, recorded.
/// 4. Release: the old tables, set aside by the cut-over, emptied in chunks and dropped.
///
/// A stage whose changes cannot be made this way runs offline, in one transaction, as without
/// the option; a stage with custom code is refused before anything is written.
struct OnlineMigration {
    let plan: ResolvedPlan
    let db: SQLiteConnection
    let options: MigrationOptions
    let online: OnlineRebuildOptions
    let chunkTarget: TimeInterval
    /// The run's progress, which numbers the steps across the whole run.
    var progress: RunProgress? = nil

    /// The planner of an online change: dropped columns and added indexes rebuild.
    static let planner = Planner(capabilities: .online)

    /// Each phase's short transaction: the same framing as an offline migration's.
    var framing: any MigrationFraming { db.framing }

    private var inTransaction: TransactionalMigration {
        TransactionalMigration(plan: plan, framing: framing, progress: progress)
    }

    /// Runs every pending stage. - Throws: `MigrationError`; a stage that failed is rolled back,
    /// the stages before it stay committed (as with ``MigrationOptions/TransactionScope/perStage``).
    func run(to target: Schema, started: Date) throws -> MigrationResult {
        try claim()
        var done: MigrationResult?
        var startsOver = 0
        while true {
            let state = try VersionDetection(plan: plan, db: db).detect(trustCookie: false)
            guard case .recorded(let current) = state, current < target.version,
                let stage = try plan.plannedStages(from: current, to: target.version, planner: Self.planner).first
            else {
                // Creation, adoption, or nothing left: the offline path, in one short transaction.
                let adopting = try adoptsBeforeAnOnlineStage(state, target: target)
                let next = try framing.inWriteTransaction(doing: "migration") {
                    try inTransaction.migrate(to: target, started: started, stageLimit: adopting ? 0 : 1)
                }
                let result = done.map { $0.followed(by: next, started: started) } ?? next
                if next.toVersion == target.version || (next.stages.isEmpty && !adopting) {
                    try finishLeftovers()
                    return result
                }
                done = result
                continue
            }
            let next: MigrationResult
            do {
                next = try runStage(stage, target: target)
            } catch let restart as CopyStartsOver {
                // The copy's work no longer proves anything: it is released, and the stage is
                // decided and prepared again against the database as it is now.
                startsOver += 1
                guard startsOver <= Self.maximumStartsOver else {
                    try abandon()
                    throw MigrationError(
                        .concurrentChange,
                        "the online copy of \(stage.from) → \(stage.to) started over \(Self.maximumStartsOver) times and the database's schema changed again (\(restart.reason)); the stage was not applied",
                        version: stage.to,
                        remedy:
                            "run the migration again when the application changes no schema (VACUUM, CREATE or DROP), or without --online"
                    )
                }
                try abandon()
                continue
            }
            done = done.map { $0.followed(by: next, started: started) } ?? next
            if next.toVersion == target.version {
                try finishLeftovers()
                return done!
            }
        }
    }

    /// Whether a database to adopt is adopted on its own, so that its first stage then runs
    /// online: true when that stage runs online. Otherwise the adoption and the first stage share
    /// one transaction, as offline, and a refused stage leaves the file as it was, unadopted.
    private func adoptsBeforeAnOnlineStage(_ state: VersionDetection.State, target: Schema) throws -> Bool {
        guard case .unversioned(let current) = state, current < target.version,
            // A stage that cannot be planned is refused by the offline path, in its words.
            let stage = try? plan.plannedStages(from: current, to: target.version, planner: Self.planner).first
        else { return false }
        return try OnlineStageDecision(
            stage, live: LiveSchema.read(from: db), recorded: try OnlineState.recordedShadows(in: db)
        ).runsOnline
    }

    /// Refuses a plan with custom code among the pending stages, before anything is written.
    static func refuseCustomCode(plan: ResolvedPlan, from current: Schema.Version, to target: Schema.Version) throws {
        if let refusal = try customCodeRefusal(plan: plan, from: current, to: target) { throw refusal }
    }

    /// The refusal of the first pending stage with custom code, nil when there is none: the
    /// migration throws it, the dry run lists it, in the same words.
    static func customCodeRefusal(plan: ResolvedPlan, from current: Schema.Version, to target: Schema.Version) throws
        -> MigrationError?
    {
        guard let stage = try plan.plannedStages(from: current, to: target, planner: planner).first(where: \.runsCode)
        else { return nil }
        return MigrationError(
            .onlineRefused,
            "the stage \(stage.from) → \(stage.to) runs custom code, which cannot run online; nothing was done",
            version: stage.to,
            remedy:
                "migrate without --online (the stage's code runs in one transaction), or split the code into its own release"
        )
    }

    /// Before an offline migration: refuses while an online change runs, and abandons one that
    /// stopped (its triggers dropped, its shadows released in chunks), so the offline rebuild
    /// never meets them.
    static func clearForOffline(plan: ResolvedPlan, db: SQLiteConnection, options: MigrationOptions) throws {
        guard let state = try OnlineState.read(from: db) else { return }
        if state.ownerIsAlive && state.owner != OnlineState.thisOwner { throw state.inProgressError() }
        let online = OnlineRebuildOptions()
        let migration = OnlineMigration(
            plan: plan, db: db, options: options, online: online, chunkTarget: try online.validatedTarget())
        if state.phase == .copying { try migration.abandon() } else { try migration.release(state) }
    }

    /// Takes the database's online change over, or refuses when another run owns it.
    private func claim() throws {
        try framing.inWriteTransaction(doing: "online change") {
            guard var state = try OnlineState.read(from: db) else { return }
            if state.ownerIsAlive && state.owner != OnlineState.thisOwner { throw state.inProgressError() }
            state.owner = OnlineState.thisOwner
            state.heartbeat = Date()
            try state.write(to: db)
        }
        try finishLeftovers()
    }

    /// Finishes a release left by an earlier run; abandons a copy recorded for another stage.
    private func finishLeftovers() throws {
        guard let state = try OnlineState.read(from: db), state.phase == .releasing else { return }
        try release(state)
    }

    // MARK: One stage

    private func runStage(_ stage: PlannedStage, target: Schema) throws -> MigrationResult {
        let stageStart = Date()
        let live = try LiveSchema.read(from: db)
        let decision = try OnlineStageDecision(stage, live: live, recorded: try OnlineState.recordedShadows(in: db))
        let changes = decision.changes
        if !decision.runsOnline {
            try abandon()
            // Offline: the stage in one transaction, planned as without the option.
            return try framing.inWriteTransaction(doing: "migration") {
                try inTransaction.migrate(to: target, started: stageStart, stageLimit: 1)
            }
        }
        let checked = try QuickCheck.verify(before: stage, db: db)
        var state = try prepare(stage, changes: changes, live: live)
        do {
            return try copyAndCutOver(stage, changes: changes, checked: checked, state: &state, started: stageStart)
        } catch let refusal as MigrationError where refusal.code == .dataViolation {
            // The rows themselves refuse the stage (as offline): the change is abandoned, its
            // triggers first, so that the application's writes stop meeting the shadow's indexes.
            try abandon()
            throw refusal
        }
    }

    /// Phases 2 and 3 of one stage, after its preparation.
    private func copyAndCutOver(
        _ stage: PlannedStage, changes: [OnlineTableChange], checked: [String], state: inout OnlineState,
        started stageStart: Date
    ) throws -> MigrationResult {
        let cookie = try db.pragmaInteger("schema_version")
        if cookie != state.schemaCookie {
            // Changed since preparing it (another run of this change, or the application), or a
            // change an earlier run left: looked at before the first chunk.
            if let reason = try startOverReason(changes, version: stage.to) { throw CopyStartsOver(reason: reason) }
        }
        try withChunkSettings { wal in
            for (index, change) in changes.enumerated() where index >= state.copied {
                try copy(change, index: index, of: changes, stage: stage, state: &state, wal: wal)
            }
            try buildSortedIndexes(changes, stage: stage, state: &state, wal: wal)
        }
        return try cutOver(stage, changes: changes, checked: checked, state: state, started: stageStart)
    }

    /// Phase 1, or the recorded change when it is this stage's and its objects are all there.
    private func prepare(_ stage: PlannedStage, changes: [OnlineTableChange], live: LiveSchema) throws -> OnlineState {
        let recorded = try OnlineState.read(from: db)
        try OnlineState.requireOwnership(recorded)
        if let state = recorded, state.phase == .copying, state.plan == plan.name,
            state.from == stage.from, state.to == stage.to,
            state.tables == changes.map(\.shadow),
            try changes.allSatisfy({ try isPrepared($0, live: live, version: stage.to) })
        {
            return state
        }
        // A change left by another stage goes first; its objects were this package's, so the
        // stage's decision stands, on the schema as it is without them.
        let leftover = recorded != nil
        try abandon()
        let live = leftover ? try LiveSchema.read(from: db) : live
        return try framing.inWriteTransaction(doing: "online change's preparation") {
            // Another run may have prepared a change since this one looked: it is its own.
            try OnlineState.requireOwnership(try OnlineState.read(from: db))
            // The stage was decided on `live`: a schema changed since is decided again.
            guard try db.pragmaInteger("schema_version") == live.schemaCookie else {
                throw CopyStartsOver(reason: "the schema changed while the online change was being decided")
            }
            for change in changes {
                let (table, parts) = try change.parts(in: live, renamesApplied: false, version: stage.to)
                for sql in try change.prepareStatements(live: table, parts: parts) + change.guardStatements {
                    try db.execute(sql)
                }
            }
            var state = OnlineState(
                plan: plan.name, from: stage.from, to: stage.to, phase: .copying, tables: changes.map(\.shadow),
                highWater: nil,
                copied: 0, startedAt: Date(), heartbeat: Date(), owner: OnlineState.thisOwner)
            try state.write(to: db)
            state.schemaCookie = try db.pragmaInteger("schema_version")
            try state.write(to: db)
            return state
        }
    }

    /// Whether the shadow, the indexes it builds and the triggers are all there, each exactly as
    /// this build prepares them: a change prepared by another release (other triggers, other
    /// indexes in the shadow) or whose objects were touched starts over instead of resuming.
    private func isPrepared(_ change: OnlineTableChange, live: LiveSchema, version: Schema.Version) throws -> Bool {
        let (table, parts) = try change.parts(in: live, renamesApplied: false, version: version)
        let expected = try change.prepareStatements(live: table, parts: parts)
        let triggers = change.triggers.map(SQL.quoteString).joined(separator: ", ")
        // The shadow's own triggers belong to the key-order index build, which checks them itself.
        let shadowTriggers = change.shadowTriggers.map(SQL.quoteString).joined(separator: ", ")
        let present = try db.rows(
            "SELECT sql FROM sqlite_schema WHERE sql IS NOT NULL AND (tbl_name = ? OR (type = 'trigger' AND name IN (\(triggers)))) "
                + "AND NOT (type = 'trigger' AND name IN (\(shadowTriggers)))",
            [.text(change.shadow)]
        ).compactMap { $0.first?.stringValue }
        let guarded =
            try db.scalar(
                "SELECT 1 FROM sqlite_schema WHERE type = 'index' AND name = ? AND tbl_name = ? AND sql = ?",
                [.text(change.blobGuard), .text(change.source), .text(TableNames.blobGuardSQL(on: change.source))])
            != nil
        return guarded && !expected.isEmpty && present.count == expected.count && Set(present) == Set(expected)
    }

    /// Why the copy's work no longer proves what the table holds, nil when it still does. Called
    /// when `PRAGMA schema_version` moved since the copy last made sure: SQLite changes it for
    /// every schema change, and a VACUUM, the one thing that renumbers rowids, changes it too.
    /// - The shadow, its indexes, the triggers and the guard must be there exactly as prepared
    ///   (a table dropped and made again took its triggers and guard with it; a change to the
    ///   table's definition changes what the shadow must be).
    /// - The copy and the triggers key rows by rowid: a table whose rowid is not a column of its
    ///   own (no `INTEGER PRIMARY KEY`) may have been renumbered by a VACUUM, which nothing else
    ///   tells apart from another schema change.
    private func startOverReason(_ changes: [OnlineTableChange], version: Schema.Version) throws -> String? {
        let live = try LiveSchema.read(from: db)
        for change in changes {
            guard let table = live.table(named: change.source) else {
                return "the table \(change.source) was dropped"
            }
            guard try isPrepared(change, live: live, version: version),
                try sortedIndexBuildStands(change, live: live, version: version)
            else {
                return "the table \(change.source), its shadow or the online change's triggers were changed"
            }
            guard table.hasRowidAlias else {
                return "\(change.source) has no INTEGER PRIMARY KEY, and a VACUUM may have renumbered its rowids"
            }
        }
        return nil
    }

    /// The copy's own check, inside each of its transactions (a chunk, the cut-over): the change
    /// is still this run's, and what it copied still stands for the table when the schema moved.
    /// - Throws: `MigrationError` when another run owns the change now; ``CopyStartsOver`` when
    ///   the copy must start over.
    func recheck(_ changes: [OnlineTableChange], state: inout OnlineState, version: Schema.Version) throws {
        let recorded = try OnlineState.read(from: db)
        try OnlineState.requireOwnership(recorded)
        guard recorded?.tables == state.tables, recorded?.phase == .copying else {
            throw MigrationError(
                .concurrentChange,
                "the online change recorded in the database is no longer the one this run copies; nothing more was done",
                version: version, remedy: "run the migration again")
        }
        let cookie = try db.pragmaInteger("schema_version")
        guard cookie != state.schemaCookie else { return }
        if let reason = try startOverReason(changes, version: version) { throw CopyStartsOver(reason: reason) }
        state.schemaCookie = cookie
    }

    private func objectExists(_ name: String, type: String) throws -> Bool {
        try db.scalar("SELECT 1 FROM sqlite_schema WHERE type = ? AND name = ?", [.text(type), .text(name)]) != nil
    }

    /// Phase 2: the chunks of one table, sized to the target, with pauses and progress.
    private func copy(
        _ change: OnlineTableChange, index: Int, of changes: [OnlineTableChange], stage: PlannedStage,
        state: inout OnlineState, wal: Bool
    ) throws {
        let count = changes.count
        let live = try LiveSchema.read(from: db, onlyTables: [change.source])
        let (table, parts) = try change.parts(in: live, renamesApplied: false, version: stage.to)
        if state.highWater == nil,
            let refusal = try RecomputedStoredValues.refusal(
                change.rebuild, parts: parts, live: table, renamesApplied: false, db: db, version: stage.to)
        {
            throw refusal
        }
        let total = Int(try db.scalar("SELECT count(*) FROM \(SQL.quoteIdentifier(change.source))")?.int64Value ?? 0)
        var chunk = ChunkSizer(target: chunkTarget)
        var copied = 0
        let began = Date()
        var lastHeartbeat = Date()
        while true {
            if let shouldPause = online.shouldPause, shouldPause() {
                try waitWhilePaused(
                    shouldPause, change: change, index: index, of: count, stage: stage, state: &state,
                    lastHeartbeat: &lastHeartbeat)
            }
            let rows = chunk.rows
            var rowTime: TimeInterval = 0
            let (end, held, commit) = try inChunkTransaction(doing: "online copy") { () -> Int64? in
                try recheck(changes, state: &state, version: stage.to)
                let copyStart = Date()
                let end: Int64?
                do {
                    end = try change.copyChunk(db, live: table, parts: parts, after: state.highWater, rows: rows)
                } catch let error as SQLiteError {
                    throw UniqueCollision.refusal(
                        error, copying: change.source, table: change.rebuild.table, statement: "", db: db,
                        version: stage.to) ?? error
                }
                rowTime = Date().timeIntervalSince(copyStart)
                state.heartbeat = Date()
                if let end {
                    state.highWater = end
                } else {
                    state.highWater = nil
                    state.copied = index + 1
                }
                try state.write(to: db)
                return end
            }
            chunk.record(rows: rows, rowTime: rowTime, commitTime: commit, fixedTime: held - rowTime - commit)
            copied += rows
            lastHeartbeat = Date()
            let elapsed = Date().timeIntervalSince(began)
            let rate = elapsed > 0 ? Double(min(copied, total)) / elapsed : nil
            var event = MigrationProgress(
                from: stage.from, to: stage.to,
                summary: "Copy \(change.source) into its shadow online", rowsDone: min(copied, total), rowsTotal: total,
                activity: .copyingOnline, elapsed: elapsed)
            event.rowsPerSecond = rate
            event.secondsLeft = rate.flatMap { $0 > 0 ? Double(max(0, total - copied)) / $0 : nil }
            if end == nil {
                event.rowsDone = total
                event.secondsLeft = 0
            }
            progress?.report(event)
            if end == nil { return }
            try yieldToWriters(afterHolding: held, pause: online.pauseBetweenChunks, checkpoint: wal)
        }
    }

    func waitWhilePaused(
        _ shouldPause: @Sendable () -> Bool, change: OnlineTableChange, index: Int, of count: Int, stage: PlannedStage,
        state: inout OnlineState, lastHeartbeat: inout Date
    ) throws {
        let began = Date()
        while shouldPause() {
            progress?.report(
                MigrationProgress(
                    from: stage.from, to: stage.to,
                    summary: "Online copy of \(change.source) paused", activity: .paused,
                    elapsed: Date().timeIntervalSince(began)))
            if Date().timeIntervalSince(lastHeartbeat) > OnlineState.staleAfter / 3 {
                var beat = state
                beat.heartbeat = Date()
                try framing.inWriteTransaction(doing: "online change's heartbeat") {
                    try OnlineState.requireOwnership(try OnlineState.read(from: db))
                    try beat.write(to: db)
                }
                state = beat
                lastHeartbeat = Date()
            }
            SystemCalls.sleep(seconds: 0.1)
        }
    }

    /// Phase 3: one short transaction: the stage's steps with the shadows swapped in, checked,
    /// verified and recorded; the state moves on to releasing the old tables.
    private func cutOver(
        _ stage: PlannedStage, changes: [OnlineTableChange], checked: [String], state: OnlineState, started: Date
    ) throws -> MigrationResult {
        var state = state
        progress?.report(
            MigrationProgress(
                from: stage.from, to: stage.to,
                summary: "Cut over: swap \(changes.map(\.rebuild.table).joined(separator: ", ")) in",
                activity: .cuttingOver))
        var releasing = state
        try framing.inWriteTransaction(doing: "online cut-over") {
            guard case .recorded(let current) = try VersionDetection(plan: plan, db: db).detect(trustCookie: false),
                current == stage.from
            else {
                throw MigrationError(
                    .concurrentChange,
                    "the database left version \(stage.from) during the online change; the cut-over was rolled back",
                    version: stage.to, remedy: "run the migration again")
            }
            try recheck(changes, state: &state, version: stage.to)
            for change in changes { for sql in change.dropTriggerStatements { try db.execute(sql) } }
            for change in changes { try finishSortedIndexes(change, version: stage.to) }
            let online = Dictionary(
                changes.map { ($0.rebuild.table.sqlFolded, $0) }, uniquingKeysWith: { first, _ in first })
            try StageExecutor(db: db, progress: progress, online: online).run(stage, checked: checked)
            try inTransaction.verify(stage.target, written: WrittenColumns(stage.allSteps.map(\.action)))
            try framing.metadata(plan: plan.name).append(
                inTransaction.record(of: stage.to, kind: stage.kind.rawValue, from: stage.from, started: started))
            releasing.phase = .releasing
            releasing.tables = changes.map(\.released)
            releasing.highWater = nil
            releasing.heartbeat = Date()
            try releasing.write(to: db)
        }
        try release(releasing)
        return MigrationResult(
            outcome: .migrated, fromVersion: stage.from, toVersion: stage.to, adopted: false, stages: [stage],
            duration: Date().timeIntervalSince(started))
    }

    /// One chunk's short write transaction, how long it held the write lock (from the moment
    /// `BEGIN IMMEDIATE` got it: a wait for the application's lock is not the chunk's cost, to
    /// the commit's return), and how long of that the commit took. The commit writes the pages
    /// the chunk dirtied (to the WAL, or the journal and the file), so part of its time grows with
    /// the chunk's rows, most of all when they land in pages all over an index, and part of it
    /// (the flushes) does not: ``ChunkSizer`` tells the two apart.
    func inChunkTransaction<T>(
        doing work: String, _ body: () throws -> T
    ) throws -> (T, held: TimeInterval, commit: TimeInterval) {
        var locked = Date()
        var bodyEnded = Date()
        let result = try framing.inWriteTransaction(doing: work) { () throws -> T in
            locked = Date()
            defer { bodyEnded = Date() }
            return try body()
        }
        let ended = Date()
        return (result, ended.timeIntervalSince(locked), max(0, ended.timeIntervalSince(bodyEnded)))
    }

    /// Leaves the write lock free after a chunk long enough for every writer that waited on it to
    /// get it, then rests `pause` more seconds (``OnlineRebuildOptions/pauseBetweenChunks``).
    ///
    /// A writer that found the lock taken does not wake when it is freed: its busy handler sleeps
    /// and retries. SQLite's default handler (`sqlite3_busy_timeout`, which GRDB, SQLite.swift and
    /// most applications use) sleeps 1, 2, 5, 10, 15, 20 and then 25 ms and longer between retries.
    /// Had the copy taken the lock again at once, such a writer's retry would find the next chunk
    /// holding it, and so on: it waits for many chunks. The gap is the retry interval the waiter
    /// is in when the chunk ends, so its next retry falls inside the gap. In WAL mode the chunk's
    /// pages are checkpointed first, inside the gap: a checkpoint holds no write lock.
    func yieldToWriters(afterHolding held: TimeInterval, pause: TimeInterval, checkpoint: Bool) throws {
        let started = Date()
        if checkpoint { try db.execute("PRAGMA wal_checkpoint(PASSIVE)") }
        let left = Self.writersGap(afterHolding: held) - Date().timeIntervalSince(started)
        SystemCalls.sleep(seconds: max(0, left) + pause)
    }

    private var isWAL: Bool {
        get throws { try db.scalar("PRAGMA journal_mode")?.stringValue?.lowercased() == "wal" }
    }

    /// Runs the chunks of a copy or a release with the connection set for many short transactions,
    /// its own settings restored afterwards. In WAL mode only (elsewhere nothing changes):
    /// - `wal_autocheckpoint = 0`: a commit's automatic checkpoint would run before the commit
    ///   returns and be counted as lock time; the copy checkpoints in the gap instead.
    /// - `synchronous = NORMAL` when it was `FULL` or `EXTRA`: a chunk's commit is not flushed
    ///   to disk by itself. After a power loss the last chunks may be lost with the high-water mark
    ///   recorded beside them, so the copy resumes from an earlier chunk; the application's own
    ///   commits flush as its connection says. The cut-over is flushed as the connection says.
    /// - Parameter body: given whether the connection is in WAL mode, so that it checkpoints in the gaps.
    private func withChunkSettings<T>(_ body: (_ wal: Bool) throws -> T) throws -> T {
        guard try isWAL else { return try body(false) }
        let synchronous = try db.scalar("PRAGMA synchronous")?.int64Value ?? 2
        let autocheckpoint = try db.scalar("PRAGMA wal_autocheckpoint")?.int64Value ?? 1000
        try db.execute("PRAGMA wal_autocheckpoint = 0")
        if synchronous > 1 { try db.execute("PRAGMA synchronous = NORMAL") }
        let restore = {
            try db.execute("PRAGMA synchronous = \(synchronous)")
            try db.execute("PRAGMA wal_autocheckpoint = \(autocheckpoint)")
        }
        let result: T
        do {
            result = try body(true)
        } catch {
            // The copy's error is the one to report; a connection that cannot take a PRAGMA now
            // is broken, and that error would say less.
            try? restore()
            throw error
        }
        do {
            try restore()
        } catch let error as SQLiteError {
            // The change is done; the connection (the application's own, when lent) must not go
            // on with settings it did not choose without saying so.
            throw MigrationError(
                .sqlite,
                "the online change was applied, but the connection's PRAGMA synchronous = \(synchronous) and wal_autocheckpoint = \(autocheckpoint) could not be set back",
                remedy: "set them again on the connection, or open a new one", sqliteError: error)
        }
        return result
    }

    /// The gap after a chunk that held the lock `held` seconds: the interval between the retries of
    /// SQLite's default busy handler (its `delays` table) that a writer waiting since the chunk
    /// began is in when it ends (a retry at that very moment found the lock taken), a millisecond added.
    static func writersGap(afterHolding held: TimeInterval) -> TimeInterval {
        let waited = held * 1000
        var total = 0.0
        for delay in defaultBusyHandlerDelays {
            total += delay
            if total > waited { return (delay + 1) / 1000 }
        }
        return (defaultBusyHandlerDelays.last! + 1) / 1000
    }

    /// SQLite's default busy handler's sleeps, in milliseconds (`sqliteDefaultBusyCallback`).
    static let defaultBusyHandlerDelays: [Double] = [1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50, 100]

    // MARK: Leftovers

    /// Phase 4: empties each table set aside in chunks (so freeing its pages never holds the lock
    /// for its size), drops it, and clears the state.
    func release(_ state: OnlineState) throws {
        try withChunkSettings { wal in
            var chunk = ChunkSizer(target: chunkTarget)
            for table in state.tables {
                if table.hasPrefix(TableNames.onlinePrefix) {
                    // An abandoned shadow: what its key-order index build made goes first.
                    try releaseSortedIndexObjects(of: String(table.dropFirst(TableNames.onlinePrefix.count)), wal: wal)
                }
                guard try objectExists(table, type: "table") else { continue }
                let quoted = SQL.quoteIdentifier(table)
                let total = Int(try db.scalar("SELECT count(*) FROM \(quoted)")?.int64Value ?? 0)
                var removed = 0
                while true {
                    let rows = chunk.rows
                    var rowTime: TimeInterval = 0
                    let (changed, held, commit) = try inChunkTransaction(doing: "release of the old table") {
                        () -> Int in
                        var beat = try OnlineState.read(from: db)
                        try OnlineState.requireOwnership(beat)
                        if beat != nil {
                            beat?.owner = OnlineState.thisOwner
                            beat?.heartbeat = Date()
                            try beat?.write(to: db)
                        }
                        let deleteStart = Date()
                        try db.execute(
                            "DELETE FROM \(quoted) WHERE rowid IN (SELECT rowid FROM \(quoted) LIMIT \(rows))")
                        rowTime = Date().timeIntervalSince(deleteStart)
                        return db.changes
                    }
                    chunk.record(rows: rows, rowTime: rowTime, commitTime: commit, fixedTime: held - rowTime - commit)
                    removed += changed
                    progress?.report(
                        MigrationProgress(
                            from: state.from, to: state.to,
                            summary: "Release the old \(table)",
                            rowsDone: min(removed, total), rowsTotal: total, activity: .releasingOldTable))
                    if changed < rows { break }
                    try yieldToWriters(afterHolding: held, pause: 0, checkpoint: wal)
                }
                try framing.inWriteTransaction(doing: "release of the old table") {
                    for sql in OnlineTableChange.dropTriggers(on: table) { try db.execute(sql) }
                    try db.execute("DROP TABLE IF EXISTS \(quoted)")
                }
            }
        }
        try framing.inWriteTransaction(doing: "online change") { try OnlineState.clear(in: db) }
    }

    /// Abandons a copy in progress that this run will not finish (another stage's, or one whose
    /// objects are gone): the triggers go first, in one short transaction, then the shadows are
    /// released in chunks like an old table.
    func abandon() throws {
        guard var state = try OnlineState.read(from: db), state.phase == .copying else { return }
        try framing.inWriteTransaction(doing: "online change") {
            guard let current = try OnlineState.read(from: db), current.phase == .copying else { return }
            try OnlineState.requireOwnership(current)
            state = current
            for shadow in state.tables {
                let table = String(shadow.dropFirst(TableNames.onlinePrefix.count))
                for sql in OnlineTableChange.dropTriggers(on: table) { try db.execute(sql) }
                for name in OnlineTableChange.shadowTriggers(of: table) {
                    try db.execute("DROP TRIGGER IF EXISTS \(SQL.quoteIdentifier(name))")
                }
            }
            state.phase = .releasing
            state.highWater = nil
            state.owner = OnlineState.thisOwner
            state.heartbeat = Date()
            try state.write(to: db)
        }
        try release(state)
    }

    /// How often a stage's copy starts over because the schema changed under it before the
    /// migration gives up (``CopyStartsOver``).
    static let maximumStartsOver = 5
}

/// Thrown inside a copy's transaction (rolled back with it) when what the copy did no longer
/// stands for the table (``OnlineMigration``): the stage's change is abandoned and made again.
struct CopyStartsOver: Error {
    /// What was seen, for the message when the copy gives up.
    let reason: String
}
