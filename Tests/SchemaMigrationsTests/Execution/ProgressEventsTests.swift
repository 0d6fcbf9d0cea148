import Foundation
import MigrationBenchmarks
import Testing
@testable import SchemaMigrations

/// The library's progress callback hears what the command shows: each step, the backup's pages,
/// the rows a rebuild copies (ending at all of them), with fractions that only grow.
@Suite struct ProgressEventsTests {
    final class Events: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [MigrationProgress] = []
        func add(_ event: MigrationProgress) { lock.withLock { list.append(event) } }
        var all: [MigrationProgress] { lock.withLock { list } }
    }

    @Test func aRebuildReportsItsBackupStepsAndRowsCopied() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("progress-events-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("trips.sqlite")
        try BenchmarkWorkload.createV1(at: database, trips: 3000)
        let events = Events()
        let options = MigrationOptions(targetVersion: BenchTripV2.versionIdentifier, backupURL: directory.appendingPathComponent("backup.sqlite"),
                                       progress: { events.add($0) })
        try Migrator(plan: BenchPlan.self, options: options).migrate(databaseAt: database)

        let all = events.all
        let backup = all.filter { $0.activity == .backingUp }
        #expect(backup.last?.isFinished == true && (backup.last?.pagesTotal ?? 0) > 0, "the backup's last event has every page")
        #expect(all.first?.activity == .backingUp, "the backup comes before any step")
        let copies = all.filter { $0.activity == .copyingRows }
        #expect(copies.last?.rowsDone == 3000 && copies.last?.rowsTotal == 3000 && copies.last?.summary == "trip: 3000 / 3000 rows copied")
        #expect(copies.compactMap(\.fraction) == copies.compactMap(\.fraction).sorted())
        #expect(all.contains { $0.activity == .step && $0.summary.hasPrefix("Rebuild table trip") })
        #expect(all.contains { $0.activity == .buildingIndex }, "a heartbeat event for each index the rebuild creates")
        // Nothing is reported twice as a step: rows and heartbeats belong to the step running.
        #expect(all.filter { $0.activity == .step }.count == 1)
    }

    @Test func aReadOnlyDirectoryAndALockGetTheirRemedy() {
        let directoryError = MigrationError(.sqlite, "step failed: Rename column Trip.a to b; everything was rolled back",
                                            sqliteError: SQLiteError(extendedCode: 1544, message: "attempt to write a readonly database"))
            .advised(path: "/srv/data/app.sqlite")
        #expect(directoryError.message.hasSuffix(": the directory '/srv/data' is read-only"))
        #expect(directoryError.remedy?.hasPrefix("SQLite writes its journal beside the database: make '/srv/data' writable") == true)

        let busy = MigrationError(.sqlite, "cannot read the schema of '/srv/data/app.sqlite'",
                                  sqliteError: SQLiteError(extendedCode: 5, message: "database is locked")).advised(path: "/srv/data/app.sqlite")
        #expect(busy.message == "cannot read the schema of '/srv/data/app.sqlite': another connection holds a lock on it")
        #expect(busy.remedy?.contains("--busy-timeout SECONDS") == true)

        let unrelated = MigrationError(.dataViolation, "duplicates", remedy: "merge them")
        #expect(unrelated.advised(path: "/x").remedy == "merge them", "an error with its own remedy keeps it")
    }
}
