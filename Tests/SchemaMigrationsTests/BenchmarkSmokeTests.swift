import Foundation
import Testing

@testable import MigrationBenchmarks

/// The benchmark itself, at a tiny size and one iteration, so it cannot rot.
@Suite struct BenchmarkSmokeTests {
    @Test func theBenchmarkRunsAndReachesTheSameResultAsTheHandWrittenSQL() throws {
        var configuration = BenchmarkRunner.Configuration()
        configuration.sizes = [200]
        configuration.runs = 1
        configuration.upToDateRuns = 3
        configuration.plannerEntities = 20
        configuration.introspectTables = 10
        configuration.introspectColumns = 8
        configuration.fleetFiles = 6
        configuration.fleetJobs = 2
        configuration.scaffoldTables = 5
        let scratch = TemporaryDatabase()
        configuration.directory = scratch.directory
        var runner = BenchmarkRunner(configuration: configuration)
        try runner.run(log: { _ in })
        #expect(
            runner.rows.map(\.name) == [
                "planner: 20 entities × 40 attributes, 10% changed (8 steps)",
                "introspect: 10 tables × 8 columns (80 columns), every table declared",
                "fleet: 6 files of 10 trips, migrate apply --jobs 2 with backups (\(String(format: "%.2f", runner.rows[2].ours.median / 6 * 1000)) ms per file)",
                "scaffold: 5 tables, 100 columns, introspect + render Swift (\(runner.rows[3].name.firstMatch(of: /\((\d+ KiB; render alone [\d.]+ ms)\)/).map { String($0.1) } ?? "?"))",
                "dry run with impact, 200 rows (97 values would be lost)",
                "rebuild 200 rows with a progress callback", "rebuild 200 rows (+400 children)",
                "no rebuild needed: renames, drop, add, index, 200 rows", "add optional column, 200 rows",
                "custom stage enumerates + updates 200 rows (properties: name, budget)",
                // Against the loop reading every column, then against the one reading three.
                "custom stage enumerates + updates 200 rows (every property read)",
                "custom stage enumerates + updates 200 rows (every property read)",
                "up-to-date check, 200 rows", "up-to-date check incl. Migrator(plan:), 200 rows",
            ])
        #expect(runner.rows.allSatisfy { $0.ours.median > 0 && $0.reference.median > 0 })
        #expect(
            runner.verification == [
                "progress 200: data and schema same as without progress",
                "rebuild 200: data and schema same as the hand-written SQL",
                "no rebuild 200: data and schema same as the hand-written SQL",
                "custom stage 200 (properties: name, budget): data and schema same as the hand-written loop",
                "custom stage 200 (every property read): data and schema same as the hand-written loop",
                "custom stage 200 (every property read): data and schema same as the hand-written loop",
            ])
        #expect(
            runner.rows.filter { $0.name.hasSuffix("(every property read)") }.map(\.referenceName) == [
                "hand-written loop reading every column", "hand-written prepared-statement loop",
            ])
        #expect(runner.table.contains("| rebuild 200 rows (+400 children) |"))
    }

    @Test func oneCaseRunsAloneWithWhatItNeedsPreparedUntimed() throws {
        var configuration = BenchmarkRunner.Configuration()
        configuration.sizes = [100]
        configuration.runs = 1
        configuration.cases = [.custom]
        let scratch = TemporaryDatabase()
        configuration.directory = scratch.directory
        var runner = BenchmarkRunner(configuration: configuration)
        try runner.run(log: { _ in })
        #expect(
            runner.rows.map(\.name) == [
                "custom stage enumerates + updates 100 rows (properties: name, budget)",
                "custom stage enumerates + updates 100 rows (every property read)",
                "custom stage enumerates + updates 100 rows (every property read)",
            ])
    }
}

/// The writer-stall case at a tiny size: an application writing through its own connection while
/// each change runs offline and online, every write present afterwards.
@Suite struct WriterStallSmokeTests {
    @Test func theApplicationsWritesAreTimedAndAllPresentOfflineAndOnline() throws {
        var configuration = BenchmarkRunner.Configuration()
        configuration.sizes = [300]
        configuration.runs = 1
        configuration.cases = [.stall]
        let scratch = TemporaryDatabase()
        configuration.directory = scratch.directory
        var runner = BenchmarkRunner(configuration: configuration)
        try runner.run(log: { _ in })
        #expect(
            runner.stallResults.map { "\($0.change), \($0.mode)" } == [
                "rebuild (destination non-optional), offline", "rebuild (destination non-optional), online",
                "add an index, offline", "add an index, online", "drop a column, offline", "drop a column, online",
            ])
        #expect(runner.stallResults.allSatisfy { $0.allWritesPresent && !$0.writes.isEmpty && $0.migrationSeconds > 0 })
    }
}
