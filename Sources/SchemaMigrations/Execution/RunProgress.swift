#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The one numbering of a migration run's progress: every step the run performs (the backup,
/// each stage's `willMigrate`, its steps, its `didMigrate` and its finalizing steps, or the
/// tables an empty database is given) is numbered once, `[k/N]` with the same N throughout, and
/// the news inside a step (rows copied, pages, heartbeats) carries that step's number.
///
/// ```
/// [1/6] backup to app.sqlite.backup: 10 / 10 pages
/// [2/6] willMigrate runs
/// [3/6] Add column Post.wordCount INTEGER …
/// [4/6] Rebuild table Post …
/// [5/6] didMigrate runs
/// [6/6] Rebuild table Post (copies every row): enforce NOT NULL on wordCount
/// ```
///
/// The framing sets the total from the pending stages before the backup; the migration sets it
/// again under the write lock (``expect(remaining:)``), where another process may have moved the
/// database on.
final class RunProgress: @unchecked Sendable {
    // Sendable: a migration reports from one thread at a time; the lock guards the counts.
    private let callback: @Sendable (MigrationProgress) -> Void
    private let lock = Lock()
    private var begun = 0
    private var total: Int

    /// Nil without a callback, so that a migration without progress pays nothing.
    init?(_ callback: (@Sendable (MigrationProgress) -> Void)?, total: Int = 0) {
        guard let callback else { return nil }
        self.callback = callback
        self.total = total
    }

    /// The steps a stage performs, as they are reported: its closures and its steps.
    static func steps(of stage: PlannedStage) -> Int {
        stage.allSteps.count + (stage.willMigrate == nil ? 0 : 1) + (stage.didMigrate == nil ? 0 : 1)
    }

    /// The run will perform `remaining` more steps after those begun.
    func expect(remaining: Int) {
        lock.withLock { total = begun + remaining }
    }

    /// Reports `event` as the next step of the run.
    func begin(_ event: MigrationProgress) {
        callback(
            lock.withLock { () -> MigrationProgress in
                begun += 1
                return numbered(event)
            })
    }

    /// Reports `event` as news of the step under way.
    func report(_ event: MigrationProgress) {
        callback(lock.withLock { numbered(event) })
    }

    /// ``report(_:)`` as a callback, for the custom stages' data API.
    var reporter: @Sendable (MigrationProgress) -> Void { { self.report($0) } }

    /// `event` with the run's step number and count; call holding the lock.
    private func numbered(_ event: MigrationProgress) -> MigrationProgress {
        var event = event
        event.stepIndex = max(begun - 1, 0)
        event.stepCount = max(total, begun, 1)
        return event
    }
}

extension MigrationProgress {
    /// An event whose step number and count ``RunProgress`` gives it.
    init(
        from: Schema.Version?, to: Schema.Version, summary: String, rowsDone: Int? = nil, rowsTotal: Int? = nil,
        activity: Activity? = nil, pagesDone: Int? = nil, pagesTotal: Int? = nil, elapsed: TimeInterval? = nil
    ) {
        self.init(
            from: from, to: to, stepIndex: 0, stepCount: 1, summary: summary, rowsDone: rowsDone,
            rowsTotal: rowsTotal, activity: activity, pagesDone: pagesDone, pagesTotal: pagesTotal, elapsed: elapsed)
    }
}
