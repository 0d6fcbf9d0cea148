import SchemaMigrations

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Prints a migration's progress on standard error with the time elapsed and the database's
/// full path: a line per step, and inside the long ones (rows a rebuild copies, an index being
/// built, the backup's pages, rows a custom stage enumerates) a percentage and an estimate of the
/// time left:
///
/// ```
/// [  0.00 s] /srv/app.sqlite: [1/2] backup 2270 / 2270 pages  100%
/// [  0.02 s] /srv/app.sqlite: 1.0.0 → 2.0.0 [2/2] Rebuild table trip (copies every row): …
/// [  1.24 s] /srv/app.sqlite: 1.0.0 → 2.0.0 [2/2] trip: 500000 / 1000000 rows copied  50%, ETA 1.2 s
/// ```
///
/// `[k/N]` numbers the steps of the whole run, the backup first (``MigrationProgress/stepIndex``).
/// On a terminal the counting line is rewritten in place; in a log (with `--progress`) it is
/// printed when an activity starts, every few seconds, and when it is done.
final class ProgressPrinter: @unchecked Sendable {
    // Sendable: the migration calls back from one thread at a time; the lock guards the rest.
    private let console: Console
    private let name: String
    private let logInterval: TimeInterval
    private let started = Date()
    private let lock = Lock()
    private var lastCountLine = Date.distantPast
    private var countLineOpen = false
    private var lastActivity: MigrationProgress.Activity = .step

    /// - Parameter logInterval: seconds between two counting lines in a log.
    init(console: Console, database: String, logInterval: TimeInterval = 3) {
        self.console = console
        self.name = database
        self.logInterval = logInterval
    }

    var callback: @Sendable (MigrationProgress) -> Void {
        { progress in self.print(progress) }
    }

    private func print(_ progress: MigrationProgress) {
        lock.withLock {
            let now = Date()
            let prefix = "[" + now.timeIntervalSince(started).fixedPoint(2).padded(toWidth: 6) + " s] " + "\(name): "
            let starts = progress.activity == .step || (progress.activity == .runningCode && progress.elapsed == 0)
            guard !starts else {
                console.error((countLineOpen ? "\n" : "") + prefix + "\(progress)\n")
                countLineOpen = false
                lastActivity = .step
                return
            }
            // A heartbeat (an index being built) is worth a line only once it has taken a while.
            if progress.fraction == nil && (progress.elapsed ?? 0) < 1 { return }
            let line = prefix + ProgressPrinter.describe(progress)
            let finished = progress.isFinished
            let isNew = progress.activity != lastActivity
            lastActivity = finished ? .step : progress.activity
            if console.errorIsTerminal {
                console.error("\r\u{1B}[K" + line + (finished ? "\n" : ""))
                countLineOpen = !finished
            } else if finished || isNew || now.timeIntervalSince(lastCountLine) >= logInterval {
                console.error(line + "\n")
                lastCountLine = now
            }
        }
    }

    /// The event in words with its percentage and time left: `trip: 5 / 10 rows copied  50%, ETA 1.2 s`.
    static func describe(_ progress: MigrationProgress) -> String {
        let head: String
        switch progress.activity {
        case .backingUp: head = "[\(progress.stepIndex + 1)/\(progress.stepCount)] backup"
        default:
            head =
                "\(progress.from.map { "\($0) → " } ?? "")\(progress.to) [\(progress.stepIndex + 1)/\(progress.stepCount)] "
                + progress.summary
        }
        guard let fraction = progress.fraction else {
            return head + (progress.elapsed.map { " (" + $0.fixedPoint(1) + " s)" } ?? "")
        }
        var text =
            head
            + (progress.activity == .backingUp ? " \(progress.pagesDone ?? 0) / \(progress.pagesTotal ?? 0) pages" : "")
        text += "  " + String(Int((fraction * 100).rounded(.down))).padded(toWidth: 3) + "%"
        if fraction < 1, fraction > 0, let elapsed = progress.elapsed {
            text += ", ETA " + FleetOutput.time(elapsed * (1 - fraction) / fraction)
        }
        return text
    }
}
