#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The backup's page counts as ``MigrationProgress`` events, at most ten a second and the last.
enum BackupProgress {
    /// The page callback for ``SQLiteConnection/backup(toPath:progress:)``; nil without a progress callback.
    static func reporter(to progress: (@Sendable (MigrationProgress) -> Void)?, path: String, target: Schema.Version)
        -> ((Int, Int) -> Void)?
    {
        guard let progress else { return nil }
        let started = SystemCalls.monotonicNanoseconds()
        var lastEvent: UInt64 = 0
        return { done, total in
            let now = SystemCalls.monotonicNanoseconds()
            guard done >= total || now - lastEvent >= 100_000_000 else { return }
            lastEvent = now
            progress(
                MigrationProgress(
                    from: nil, to: target, stepIndex: 0, stepCount: 1,
                    summary: "backup to \(path): \(done) / \(total) pages", activity: .backingUp,
                    pagesDone: done, pagesTotal: total, elapsed: Double(now - started) / 1e9))
        }
    }
}
