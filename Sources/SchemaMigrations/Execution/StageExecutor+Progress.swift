#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension StageExecutor {
    /// Runs one statement of a step, reporting how it goes through ``progress`` when it is long:
    /// the rows a rebuild's `INSERT … SELECT` has copied (counted by SQLite as full-scan steps),
    /// or a heartbeat while an index is built. At most ten events a second, then a last one when
    /// the statement is done. Without a progress callback, `body` runs as it is.
    func reportingProgress(
        of statement: RenderedStatement, step: MigrationStep, from: Schema.Version?, to: Schema.Version,
        _ body: () throws -> Void
    ) throws {
        guard let progress, let activity = Self.activity(of: statement, in: step) else { return try body() }
        let total =
            activity == .copyingRows
            ? Int(try db.scalar("SELECT count(*) FROM \(SQL.quoteIdentifier(step.table))")?.int64Value ?? 0) : nil
        let started = SystemCalls.monotonicNanoseconds()
        var lastEvent = started
        func event(rows: Int?, now: UInt64) -> MigrationProgress {
            let words =
                activity == .copyingRows
                ? "\(step.table): \(rows ?? 0) / \(total ?? 0) rows copied" : "\(step.table): building an index"
            return MigrationProgress(
                from: from, to: to, summary: words,
                rowsDone: rows, rowsTotal: rows == nil ? nil : total, activity: activity,
                elapsed: Double(now - started) / 1e9)
        }
        let db = self.db
        try db.withProgressHandler(
            every: 8192,
            {
                let now = SystemCalls.monotonicNanoseconds()
                guard now - lastEvent >= 100_000_000 else { return }
                lastEvent = now
                progress.report(event(rows: total.map { min($0, db.runningStatementFullScanSteps) }, now: now))
            }, body)
        progress.report(event(rows: total, now: SystemCalls.monotonicNanoseconds()))
    }
}

extension StageExecutor {
    /// What a statement of `step` reports while it runs: the work the renderer labelled it with
    /// (a rebuild's copy, an index's build), when the step's cost says the table is read or
    /// written anew; nil for the rest (a dropped column's rewrite is one `ALTER`, quick to announce).
    static func activity(of statement: RenderedStatement, in step: MigrationStep) -> MigrationProgress.Activity? {
        switch step.cost {
        case .scan: return statement.work
        case .rebuild, .newTable: return step.writesTableAnew ? statement.work : nil
        case .dropsRows, .schemaOnly: return nil
        }
    }

    /// Runs a custom stage's closure, announced through ``progress`` (an event with `elapsed` 0),
    /// with a heartbeat (once a second, while
    /// its SQL runs, `context.execute` included) whenever the closure itself reported nothing for
    /// a second (its `forEach` reports rows). `body` gets the progress callback to hand to the context.
    func runningCode(
        _ name: String, stage: PlannedStage, _ body: ((@Sendable (MigrationProgress) -> Void)?) throws -> Void
    ) throws {
        guard let progress else { return try body(nil) }
        let clock = LastEventClock()
        let reported: @Sendable (MigrationProgress) -> Void = { event in
            clock.touch()
            progress.report(event)
        }
        let started = SystemCalls.monotonicNanoseconds()
        // The code's start, as a step of its own: `--simulate` times it, a log shows it.
        progress.begin(
            MigrationProgress(
                from: stage.from, to: stage.to, summary: "\(name) runs", activity: .runningCode, elapsed: 0))
        let heartbeat = {
            let now = SystemCalls.monotonicNanoseconds()
            guard clock.nanosecondsSinceLast(now) >= 1_000_000_000 else { return }
            clock.touch(now)
            progress.report(
                MigrationProgress(
                    from: stage.from, to: stage.to, summary: "\(name) running", activity: .runningCode,
                    elapsed: Double(now - started) / 1e9))
        }
        try db.withProgressHandler(every: 8192, heartbeat) { try body(reported) }
    }
}

/// When a custom stage last reported something, shared by its callback and the heartbeat.
final class LastEventClock: @unchecked Sendable {
    // Sendable: guarded by the lock (the context may report from the migrating thread only, but
    // the callback type is @Sendable).
    private let lock = Lock()
    private var last = SystemCalls.monotonicNanoseconds()

    func touch(_ now: UInt64 = SystemCalls.monotonicNanoseconds()) { lock.withLock { last = now } }
    func nanosecondsSinceLast(_ now: UInt64) -> UInt64 { lock.withLock { now >= last ? now - last : 0 } }
}
