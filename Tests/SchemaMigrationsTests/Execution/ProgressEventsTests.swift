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
        let scratch = TemporaryDatabase("trips.sqlite")
        let directory = scratch.directory
        let database = scratch.url
        try BenchmarkWorkload.createV1(at: database, trips: 3000)
        let events = Events()
        let options = MigrationOptions(
            targetVersion: BenchTripV2.versionIdentifier, backupURL: directory.appendingPathComponent("backup.sqlite"),
            progress: { events.add($0) })
        try Migrator(plan: BenchPlan.self, options: options).migrate(databaseAt: database)

        let all = events.all
        let backup = all.filter { $0.activity == .backingUp }
        #expect(
            backup.last?.isFinished == true && (backup.last?.pagesTotal ?? 0) > 0,
            "the backup's last event has every page")
        #expect(all.first?.activity == .backingUp, "the backup comes before any step")
        let copies = all.filter { $0.activity == .copyingRows }
        #expect(
            copies.last?.rowsDone == 3000 && copies.last?.rowsTotal == 3000
                && copies.last?.summary == "trip: 3000 / 3000 rows copied")
        #expect(copies.compactMap(\.fraction) == copies.compactMap(\.fraction).sorted())
        #expect(all.contains { $0.activity == .step && $0.summary.hasPrefix("Rebuild table trip") })
        #expect(all.contains { $0.activity == .buildingIndex }, "a heartbeat event for each index the rebuild creates")
        // Nothing is reported twice as a step: rows and heartbeats belong to the step running
        // (the two renames that run first, then the rebuild).
        #expect(
            all.filter { $0.activity == .step }.map { String($0.summary.prefix(14)) } == [
                "Rename column ", "Rename column ", "Rebuild table ",
            ])
    }

    enum CounterV1: VersionedSchema {
        static let versionIdentifier = Schema.Version(1, 0, 0)
        static let models: [any PersistentModel.Type] = [Ticket.self]
        final class Ticket: PersistentModel {
            @Attribute(.autoincrement) var id: Int
            var title = ""
            var score = 0
            init() {}
        }
    }

    enum CounterV2: VersionedSchema {
        static let versionIdentifier = Schema.Version(2, 0, 0)
        static let models: [any PersistentModel.Type] = [Ticket.self]
        final class Ticket: PersistentModel {
            static let indexes: [[String]] = [["title"]]
            @Attribute(.autoincrement) var id: Int
            var title = ""
            var score: Double = 0
            init() {}
        }
    }

    enum CounterPlan: SchemaMigrationPlan {
        static let schemas: [any VersionedSchema.Type] = [CounterV1.self, CounterV2.self]
        static let stages: [MigrationStage] = [.lightweight(fromVersion: CounterV1.self, toVersion: CounterV2.self)]
    }

    /// What a statement reports comes from the renderer, not from its text: the rebuild of an
    /// AUTOINCREMENT table copies its rows once, and its `INSERT INTO sqlite_sequence` (which the
    /// text of an `INSERT INTO` could not tell from the copy) reports nothing.
    @Test func aRebuildReportsItsCopyOnceAndItsCounterNever() throws {
        let scratch = TemporaryDatabase("tickets.sqlite")
        let database = scratch.url
        try Migrator(plan: CounterPlan.self, options: MigrationOptions(targetVersion: CounterV1.versionIdentifier))
            .migrate(databaseAt: database)
        do {
            let db = try SQLiteConnection(path: database.path)
            try db.execute(
                "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 500) INSERT INTO Ticket (title, score) SELECT 't' || x, x FROM n"
            )
        }
        let events = Events()
        try Migrator(plan: CounterPlan.self, options: MigrationOptions(progress: { events.add($0) })).migrate(
            databaseAt: database)
        let copies = events.all.filter { $0.activity == .copyingRows }
        #expect(copies.map(\.summary).filter { $0.hasSuffix("rows copied") }.last == "Ticket: 500 / 500 rows copied")
        #expect(copies.filter(\.isFinished).count == 1, "one copy, finished once: \(copies.map(\.summary))")
        #expect(events.all.contains { $0.activity == .buildingIndex }, "the new index on title is built and reported")
    }

    @Test func plannedStatementsAreLabelledByWhatTheyBuild() throws {
        let index = Schema.Index(["title"])
        #expect(RenderedStatement.planned(.createIndex(table: "Ticket", index: index)).map(\.work) == [.buildingIndex])
        #expect(RenderedStatement.planned(.dropTable("Ticket")).map(\.work) == [nil])
    }

    enum SlowV1: VersionedSchema {
        static let versionIdentifier = Schema.Version(1, 0, 0)
        static let models: [any PersistentModel.Type] = [Tally.self]
        final class Tally: PersistentModel {
            var count = 0
            init() {}
        }
    }

    enum SlowV2: VersionedSchema {
        static let versionIdentifier = Schema.Version(2, 0, 0)
        static let models: [any PersistentModel.Type] = [Tally.self]
        final class Tally: PersistentModel {
            var count = 0
            var label: String? = nil
            init() {}
        }
    }

    /// A custom stage whose raw SQL runs for well over a second, reporting nothing itself.
    enum SlowPlan: SchemaMigrationPlan {
        static let schemas: [any VersionedSchema.Type] = [SlowV1.self, SlowV2.self]
        static let stages: [MigrationStage] = [
            .custom(
                fromVersion: SlowV1.self, toVersion: SlowV2.self,
                willMigrate: { context in
                    try context.execute(
                        """
                        WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 10000000)
                        INSERT INTO Tally (count) SELECT sum(x % 7) FROM n
                        """)
                }, didMigrate: nil)
        ]
    }

    @Test func aLongCustomStageSendsAHeartbeatEverySecond() throws {
        let scratch = TemporaryDatabase("tally.sqlite")
        let database = scratch.url
        try Migrator(plan: SlowPlan.self, options: MigrationOptions(targetVersion: SlowV1.versionIdentifier)).migrate(
            databaseAt: database)
        let events = Events()
        let started = Date()
        try Migrator(plan: SlowPlan.self, options: MigrationOptions(progress: { events.add($0) })).migrate(
            databaseAt: database)
        let seconds = Date().timeIntervalSince(started)
        let code = events.all.filter { $0.activity == .runningCode }
        #expect(code.first?.summary == "willMigrate runs" && code.first?.elapsed == 0, "the code's start is announced")
        let beats = code.dropFirst()
        #expect(beats.count >= Int(seconds) - 1 && !beats.isEmpty, "\(beats.count) heartbeats in \(seconds) s")
        #expect(beats.allSatisfy { $0.summary == "willMigrate running" && $0.from == SlowV1.versionIdentifier })
        #expect(beats.map { $0.elapsed ?? 0 } == beats.map { $0.elapsed ?? 0 }.sorted())
    }

    @Test func aReadOnlyDirectoryAndALockGetTheirRemedy() {
        let directoryError = MigrationError(
            .sqlite, "step failed: Rename column Trip.a to b; everything was rolled back",
            sqliteError: SQLiteError(extendedCode: 1544, message: "attempt to write a readonly database")
        )
        .advised(path: "/srv/data/app.sqlite")
        #expect(directoryError.message.hasSuffix(": the directory '/srv/data' is read-only"))
        #expect(
            directoryError.remedy?.hasPrefix("SQLite writes its journal beside the database: make '/srv/data' writable")
                == true)

        let busy = MigrationError(
            .sqlite, "cannot read the schema of '/srv/data/app.sqlite'",
            sqliteError: SQLiteError(extendedCode: 5, message: "database is locked")
        ).advised(path: "/srv/data/app.sqlite")
        #expect(
            busy.message == "cannot read the schema of '/srv/data/app.sqlite': another connection holds a lock on it")
        #expect(busy.remedy?.contains("--busy-timeout SECONDS") == true)
        let again = busy.advised(path: "/srv/data/app.sqlite")
        #expect(again.message == busy.message && again.remedy == busy.remedy, "advising twice says it once")

        let unrelated = MigrationError(.dataViolation, "duplicates", remedy: "merge them")
        #expect(unrelated.advised(path: "/x").remedy == "merge them", "an error with its own remedy keeps it")
    }
}
