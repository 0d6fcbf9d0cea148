import Foundation
import SchemaMigrations
import Testing
@testable import MigrateCommand

/// Progress on standard error: a line per step, and a custom stage's row counts rewritten in
/// place on a terminal, or at most once a second in a log.
@Suite struct ProgressPrinterTests {
    static let v2 = Schema.Version(2, 0, 0), v3 = Schema.Version(3, 0, 0)

    static func events() -> [MigrationProgress] {
        [MigrationProgress(from: v2, to: v3, stepIndex: 0, stepCount: 2, summary: "Rename column Trip.a to b"),
         MigrationProgress(from: v2, to: v3, stepIndex: 0, stepCount: 1, summary: "Trip: 1000 / 3000 rows", rowsDone: 1000, rowsTotal: 3000),
         MigrationProgress(from: v2, to: v3, stepIndex: 0, stepCount: 1, summary: "Trip: 2000 / 3000 rows", rowsDone: 2000, rowsTotal: 3000),
         MigrationProgress(from: v2, to: v3, stepIndex: 0, stepCount: 1, summary: "Trip: 3000 / 3000 rows", rowsDone: 3000, rowsTotal: 3000),
         MigrationProgress(from: v2, to: v3, stepIndex: 1, stepCount: 2, summary: "Add column Trip.c TEXT")]
    }

    /// The printed text with the elapsed times taken out.
    static func printed(terminal: Bool) -> String {
        let captured = CapturedConsole()
        var console = captured.console
        console.errorIsTerminal = terminal
        let printer = ProgressPrinter(console: console, database: "/tmp/trips.sqlite")
        events().forEach(printer.callback)
        return captured.error.replacingOccurrences(of: #"\[ *[0-9.]+ s\] "#, with: "", options: .regularExpression)
    }

    @Test func inALogRowCountsAreThrottledAndTheLastIsPrinted() {
        #expect(Self.printed(terminal: false) == """
            trips.sqlite: 2.0.0 → 3.0.0 [1/2] Rename column Trip.a to b
            trips.sqlite: 2.0.0 → 3.0.0 [1/1] Trip: 1000 / 3000 rows
            trips.sqlite: 2.0.0 → 3.0.0 [1/1] Trip: 3000 / 3000 rows
            trips.sqlite: 2.0.0 → 3.0.0 [2/2] Add column Trip.c TEXT

            """)
    }

    @Test func onATerminalRowCountsAreRewrittenInPlace() {
        #expect(Self.printed(terminal: true) == "trips.sqlite: 2.0.0 → 3.0.0 [1/2] Rename column Trip.a to b\n"
            + "\rtrips.sqlite: 2.0.0 → 3.0.0 [1/1] Trip: 1000 / 3000 rows"
            + "\rtrips.sqlite: 2.0.0 → 3.0.0 [1/1] Trip: 2000 / 3000 rows"
            + "\rtrips.sqlite: 2.0.0 → 3.0.0 [1/1] Trip: 3000 / 3000 rows\n"
            + "trips.sqlite: 2.0.0 → 3.0.0 [2/2] Add column Trip.c TEXT\n")
    }
}
