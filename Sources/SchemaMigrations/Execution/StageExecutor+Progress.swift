import Foundation

extension StageExecutor {
    /// Runs one statement of a step, reporting how it goes through ``progress`` when it is long:
    /// the rows a rebuild's `INSERT … SELECT` has copied (counted by SQLite as full-scan steps),
    /// or a heartbeat while an index is built. At most ten events a second, then a last one when
    /// the statement is done. Without a progress callback, `body` runs as it is.
    func reportingProgress(of sql: String, step: MigrationStep, stepIndex: Int, stepCount: Int, from: Schema.Version?, to: Schema.Version,
                           _ body: () throws -> Void) throws {
        guard let progress else { return try body() }
        let head = sql.prefix(24).uppercased()
        let activity: MigrationProgress.Activity
        if step.op == .rebuildTable && head.hasPrefix("INSERT INTO") {
            activity = .copyingRows
        } else if head.hasPrefix("CREATE INDEX") || head.hasPrefix("CREATE UNIQUE INDEX") {
            activity = .buildingIndex
        } else {
            return try body()
        }
        let total = activity == .copyingRows ? Int(try db.scalar("SELECT count(*) FROM \(SQL.quoteIdentifier(step.table))")?.int64Value ?? 0) : nil
        let started = DispatchTime.now().uptimeNanoseconds
        var lastEvent = started
        func event(rows: Int?, now: UInt64) -> MigrationProgress {
            let words = activity == .copyingRows ? "\(step.table): \(rows ?? 0) / \(total ?? 0) rows copied" : "\(step.table): building an index"
            return MigrationProgress(from: from, to: to, stepIndex: stepIndex, stepCount: stepCount, summary: words,
                                     rowsDone: rows, rowsTotal: rows == nil ? nil : total, activity: activity,
                                     elapsed: Double(now - started) / 1e9)
        }
        let db = self.db
        try db.withProgressHandler(every: 8192, {
            let now = DispatchTime.now().uptimeNanoseconds
            guard now - lastEvent >= 100_000_000 else { return }
            lastEvent = now
            progress(event(rows: total.map { min($0, db.runningStatementFullScanSteps) }, now: now))
        }, body)
        progress(event(rows: total, now: DispatchTime.now().uptimeNanoseconds))
    }
}
