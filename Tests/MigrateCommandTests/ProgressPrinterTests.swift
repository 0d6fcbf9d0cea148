import Foundation
import SchemaMigrations
import Testing

@testable import MigrateCommand

/// Progress on standard error: a line per step, and counted activities (rows, pages) with a
/// percentage, rewritten in place on a terminal, or every few seconds in a log.
@Suite struct ProgressPrinterTests {
    static let v2 = Schema.Version(2, 0, 0), v3 = Schema.Version(3, 0, 0)

    static func events() -> [MigrationProgress] {
        [
            MigrationProgress(
                from: nil, to: v3, stepIndex: 0, stepCount: 1, summary: "", activity: .backingUp, pagesDone: 10,
                pagesTotal: 10, elapsed: 0.01),
            MigrationProgress(from: v2, to: v3, stepIndex: 0, stepCount: 2, summary: "Rename column Trip.a to b"),
            MigrationProgress(
                from: v2, to: v3, stepIndex: 0, stepCount: 1, summary: "Trip: 1000 / 3000 rows", rowsDone: 1000,
                rowsTotal: 3000, elapsed: 1),
            MigrationProgress(
                from: v2, to: v3, stepIndex: 0, stepCount: 1, summary: "Trip: 2000 / 3000 rows", rowsDone: 2000,
                rowsTotal: 3000, elapsed: 2),
            MigrationProgress(
                from: v2, to: v3, stepIndex: 0, stepCount: 1, summary: "Trip: 3000 / 3000 rows", rowsDone: 3000,
                rowsTotal: 3000, elapsed: 3),
            MigrationProgress(from: v2, to: v3, stepIndex: 1, stepCount: 2, summary: "Add column Trip.c TEXT"),
        ]
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

    @Test func inALogCountsAreThrottledAndTheLastIsPrinted() {
        #expect(
            Self.printed(terminal: false) == """
                /tmp/trips.sqlite: [1/1] backup 10 / 10 pages  100%
                /tmp/trips.sqlite: 2.0.0 → 3.0.0 [1/2] Rename column Trip.a to b
                /tmp/trips.sqlite: 2.0.0 → 3.0.0 [1/1] Trip: 1000 / 3000 rows   33%, ETA 2.00 s
                /tmp/trips.sqlite: 2.0.0 → 3.0.0 [1/1] Trip: 3000 / 3000 rows  100%
                /tmp/trips.sqlite: 2.0.0 → 3.0.0 [2/2] Add column Trip.c TEXT

                """)
    }

    @Test func onATerminalCountsAreRewrittenInPlaceWithPercentAndETA() {
        #expect(
            Self.printed(terminal: true) == "\r\u{1B}[K/tmp/trips.sqlite: [1/1] backup 10 / 10 pages  100%\n"
                + "/tmp/trips.sqlite: 2.0.0 → 3.0.0 [1/2] Rename column Trip.a to b\n"
                + "\r\u{1B}[K/tmp/trips.sqlite: 2.0.0 → 3.0.0 [1/1] Trip: 1000 / 3000 rows   33%, ETA 2.00 s"
                + "\r\u{1B}[K/tmp/trips.sqlite: 2.0.0 → 3.0.0 [1/1] Trip: 2000 / 3000 rows   66%, ETA 1.00 s"
                + "\r\u{1B}[K/tmp/trips.sqlite: 2.0.0 → 3.0.0 [1/1] Trip: 3000 / 3000 rows  100%\n"
                + "/tmp/trips.sqlite: 2.0.0 → 3.0.0 [2/2] Add column Trip.c TEXT\n")
    }
}
