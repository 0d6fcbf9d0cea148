#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The backup's page counts as ``MigrationProgress`` events, at most ten a second and the last.
enum BackupProgress {
    /// The page callback for ``SQLiteConnection/backup(toPath:progress:)``; nil without a progress callback.
    /// The backup is one step of the run: its first event begins it.
    static func reporter(to progress: RunProgress?, path: String, target: Schema.Version) -> ((Int, Int) -> Void)? {
        guard let progress else { return nil }
        let started = SystemCalls.monotonicNanoseconds()
        var lastEvent: UInt64 = 0
        var begun = false
        return { done, total in
            let now = SystemCalls.monotonicNanoseconds()
            guard !begun || done >= total || now - lastEvent >= 100_000_000 else { return }
            lastEvent = now
            let event = MigrationProgress(
                from: nil, to: target, summary: "backup to \(path): \(done) / \(total) pages", activity: .backingUp,
                pagesDone: done, pagesTotal: total, elapsed: Double(now - started) / 1e9)
            if begun { progress.report(event) } else { progress.begin(event) }
            begun = true
        }
    }
}
