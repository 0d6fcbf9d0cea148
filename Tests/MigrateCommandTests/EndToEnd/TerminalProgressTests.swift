import Foundation
import MigrationBenchmarks
import SchemaMigrations
import Testing

/// On a terminal, `apply` keeps one line updated while a rebuild copies rows (and while the
/// backup copies pages), with a percentage and the time left, and ends it at 100%.
@Suite struct TerminalProgressTests {
    @Test func aRebuildOnATerminalUpdatesOneLineUpTo100Percent() throws {
        let scratch = Scratch()
        let database = scratch.directory.appendingPathComponent("trips.sqlite")
        try BenchmarkWorkload.createV1(at: database, trips: 400_000)
        // as the shared workload has it: recognised by its tables
        try scratch.execute(database.path, "DROP TABLE IF EXISTS _schema_migrations")
        let plan = BuiltCommand.repositoryRoot.appendingPathComponent("Fixtures/bench/trip-plan").path
        let result = try PseudoTerminal.run(
            try BuiltCommand.path(of: "migrate"),
            ["apply", "--plan", plan, "--database", database.path, "--backup", scratch.path("backup.sqlite")])
        #expect(result.status == 0, "\(result.terminal)")
        #expect(result.stdout.contains("migrated 1.0.0 → 2.0.0"))

        // Each update starts with a carriage return and erases the line.
        let updates = result.terminal.components(separatedBy: "\r\u{1B}[K").dropFirst().map {
            $0.split(separator: "\r\n")[0].split(separator: "\n")[0]
        }
        let copies = updates.filter { $0.contains("rows copied") }
        #expect(copies.count > 1, "more than one update while the rows are copied: \(result.terminal)")
        let percents = copies.compactMap { line in line.firstMatch(of: /(\d+)%/).map { Int($0.1)! } }
        #expect(percents == percents.sorted(), "the percentage only grows: \(percents)")
        #expect(percents.last == 100)
        #expect(copies.last?.contains("trip: 400000 / 400000 rows copied  100%") == true, "\(copies.last ?? "")")
        #expect(copies.dropLast().contains { $0.contains(", ETA ") }, "an estimate of the time left while it runs")
        #expect(updates.contains { $0.contains("] backup ") && $0.contains("100%") }, "the backup's pages too")
        #expect(try scratch.rows(database.path, "SELECT count(*) FROM trip") == [["400000"]])
    }
}
