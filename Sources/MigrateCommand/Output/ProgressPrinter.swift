import Foundation
import SchemaMigrations

/// Prints a migration's progress on standard error, one line per step, with the time elapsed:
/// `[  0.01 s] trips.sqlite: 2.0.0 → 3.0.0 [1/3] Rename column Trip.start_date to startDate`.
struct ProgressPrinter: Sendable {
    let console: Console
    let database: String
    let started = Date()

    var callback: @Sendable (MigrationProgress) -> Void {
        let console = console, name = URL(fileURLWithPath: database).lastPathComponent, started = started
        return { progress in
            console.error(String(format: "[%6.2f s] ", Date().timeIntervalSince(started)) + "\(name): \(progress)\n")
        }
    }
}
