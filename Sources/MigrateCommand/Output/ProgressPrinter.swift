import Foundation
import SchemaMigrations

/// Prints a migration's progress on standard error with the time elapsed, one line per step:
/// `[  0.01 s] trips.sqlite: 2.0.0 → 3.0.0 [1/3] Rename column Trip.start_date to startDate`.
///
/// A custom stage enumerating rows reports every batch: on a terminal the row count is rewritten
/// in place; elsewhere (a log, with `--progress`) it is printed at most once a second, and when done.
final class ProgressPrinter: @unchecked Sendable {
    // Sendable: the migration calls back from one thread at a time; the lock guards the rest.
    private let console: Console
    private let name: String
    private let started = Date()
    private let lock = NSLock()
    private var lastRowLine = Date.distantPast
    private var rowLineOpen = false

    init(console: Console, database: String) {
        self.console = console
        self.name = URL(fileURLWithPath: database).lastPathComponent
    }

    var callback: @Sendable (MigrationProgress) -> Void {
        { progress in self.print(progress) }
    }

    private func print(_ progress: MigrationProgress) {
        lock.withLock {
            let now = Date()
            let line = String(format: "[%6.2f s] ", now.timeIntervalSince(started)) + "\(name): \(progress)"
            guard let done = progress.rowsDone else {
                console.error((rowLineOpen ? "\n" : "") + line + "\n")
                rowLineOpen = false
                return
            }
            let finished = done >= (progress.rowsTotal ?? done)
            if console.errorIsTerminal {
                console.error("\r" + line + (finished ? "\n" : ""))
                rowLineOpen = !finished
            } else if finished || now.timeIntervalSince(lastRowLine) >= 1 {
                console.error(line + "\n")
                lastRowLine = now
            }
        }
    }
}
