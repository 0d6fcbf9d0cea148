import Foundation
import SchemaMigrations
import Testing

extension Reliability {
    /// Two processes migrate one file at once: exactly one migrates; the other waits for the lock
    /// and finds nothing to do, or gives up after its busy timeout with a clear lock error.
    @Suite struct ProcessRaces {
        @Test(.timeLimit(.minutes(5)), arguments: [false, true])
        func theSecondProcessWaitsThenFindsNothingToDo(wal: Bool) throws {
            let fixture = try RaceFixture(wal: wal)
            let url = try fixture.copy("race.sqlite")
            let first = try fixture.startHolding(url, at: "--hold-start", seconds: 1)
            let second = try DriverProcess.run(["migrate", "--database", url.path, "--busy-timeout", "20"])
            let firstResult = first.wait()
            #expect(
                firstResult.status == 0 && firstResult.output.contains("outcome=migrated from=1.0.0 to=3.0.0"),
                "\(firstResult.output)")
            #expect(
                second.status == 0 && second.output.contains("outcome=upToDate from=3.0.0 to=3.0.0"), "\(second.output)"
            )
            #expect(try DatabaseState.read(url, plan: CrashPlan.planName) == fixture.new)
            ReliabilityConfig.summary(
                "race-wait-\(wal ? "wal" : "rollback")",
                "first=\(Self.outcome(firstResult.output)) second=\(Self.outcome(second.output))")
        }

        @Test(.timeLimit(.minutes(5)), arguments: [false, true])
        func theSecondProcessGivesUpWithALockError(wal: Bool) throws {
            let fixture = try RaceFixture(wal: wal)
            let url = try fixture.copy("race.sqlite")
            let first = try fixture.startHolding(url, at: "--hold-start", seconds: 2)
            let started = Date()
            let secondProcess = try DriverProcess(["migrate", "--database", url.path, "--busy-timeout", "0.3"])
            secondProcess.waitForExit()
            let waited = Date().timeIntervalSince(started)
            let second = secondProcess.wait()
            let firstResult = first.wait()
            #expect(firstResult.status == 0 && firstResult.output.contains("outcome=migrated"), "\(firstResult.output)")
            #expect(second.status == 1, "\(second.output)")
            #expect(second.output.contains("error code=locked"), "\(second.output)")
            #expect(
                second.output.contains("another connection held the database's write lock")
                    && second.output.contains("SQLITE_BUSY"),
                "\(second.output)")
            #expect(waited < 1.9, "gave up after its own busy timeout, not the other's transaction: \(waited) s")
            #expect(try DatabaseState.read(url, plan: CrashPlan.planName) == fixture.new)
            ReliabilityConfig.summary(
                "race-lock-\(wal ? "wal" : "rollback")",
                "first=\(Self.outcome(firstResult.output)) second=\(Self.outcome(second.output)) waited=\(String(format: "%.2f", waited))s"
            )
        }

        /// Two online migrations started at once: exactly one makes the change; the other is told
        /// that another online change runs (naming its owner), or waits and finds the database
        /// current. Never a raw SQLite error from objects the other run made, never a row lost.
        @Test(.timeLimit(.minutes(5)))
        func twoOnlineMigrationsAtOnceNeverBothActOnTheChange() throws {
            let fixture = try RaceFixture(wal: true)
            for round in 0..<4 {
                let url = try fixture.copy("online-race-\(round).sqlite")
                let arguments = ["migrate", "--database", url.path, "--online", "--busy-timeout", "20"]
                let first = try DriverProcess(arguments)
                let second = try DriverProcess(arguments)
                let results = [first.wait(), second.wait()]
                let migrated = results.filter { $0.status == 0 && $0.output.contains("outcome=migrated") }
                #expect(migrated.count == 1, "\(results)")
                for result in results where !(result.status == 0 && result.output.contains("outcome=migrated")) {
                    let waited = result.status == 0 && result.output.contains("outcome=upToDate")
                    let refused =
                        result.output.contains("error code=onlineChangeInProgress")
                        && result.output.contains("another online change of plan")
                    #expect(waited || refused, "\(result.output)")
                }
                let db = try SQLiteConnection(path: url.path, mode: .readOnly)
                #expect(try db.scalar("SELECT count(*) FROM Item")?.int64Value == Int64(RaceFixture.rows))
                #expect(try db.scalar("PRAGMA integrity_check")?.stringValue == "ok")
            }
        }

        /// In WAL mode a reader keeps the old schema and rows while the migration has written
        /// everything but not committed, and inside a read transaction begun before the commit.
        @Test(.timeLimit(.minutes(5)))
        func walReadersSeeTheOldSchemaUntilTheCommit() throws {
            let fixture = try RaceFixture(wal: true)
            let url = try fixture.copy("readers.sqlite")
            let migration = try fixture.startHolding(url, at: "--hold-end", seconds: 1.5)
            #expect(try DatabaseState.read(url, plan: CrashPlan.planName) == fixture.old, "a reader before the commit")
            let reader = try SQLiteConnection(path: url.path, mode: .readOnly)
            try reader.execute("BEGIN")
            #expect(try RaceFixture.columns("Item", reader).contains("price"))
            let result = migration.wait()
            #expect(result.status == 0 && result.output.contains("outcome=migrated"), "\(result.output)")
            #expect(
                try RaceFixture.columns("Item", reader).contains("price"),
                "inside its read transaction, the reader keeps the old schema")
            #expect(try reader.scalar("SELECT count(*) FROM Note")?.int64Value == Int64(RaceFixture.rows / 5))
            try reader.execute("COMMIT")
            #expect(
                try RaceFixture.columns("Item", reader).contains("score"), "after it, the reader sees the new schema")
            #expect(try DatabaseState.read(url, plan: CrashPlan.planName) == fixture.new)
            ReliabilityConfig.summary(
                "wal-readers", "reader-before-commit=old read-transaction-across-commit=old after=new")
        }

        /// In rollback-journal mode a reader that keeps a read transaction open past the
        /// migration's busy timeout blocks its commit: the migration fails with the lock error
        /// and everything is rolled back.
        @Test(.timeLimit(.minutes(5)))
        func aReaderHoldingTheFileMakesTheCommitFailAndRollBack() throws {
            let fixture = try RaceFixture(wal: false)
            let url = try fixture.copy("blocked.sqlite")
            let reader = try SQLiteConnection(path: url.path, mode: .readOnly)
            let migration = try DriverProcess([
                "migrate", "--database", url.path, "--hold-end", "0.3", "--busy-timeout", "0.5",
            ])
            #expect(migration.waitForOutput("holding end"))
            try reader.execute("BEGIN")
            _ = try reader.scalar("SELECT count(*) FROM Item")  // takes the SHARED lock
            let result = migration.wait()
            try reader.execute("COMMIT")
            #expect(
                result.status == 1 && result.output.contains("error code=sqlite")
                    && result.output.contains("SQLITE_BUSY"), "\(result.output)")
            #expect(try DatabaseState.read(url, plan: CrashPlan.planName) == fixture.old)
            ReliabilityConfig.summary("rollback-reader", "migration=\(Self.outcome(result.output)) database=old")
        }

        static func outcome(_ output: String) -> String {
            output.split(separator: "\n").first { $0.hasPrefix("outcome=") || $0.hasPrefix("error code=") }.map(
                String.init)?
                .replacingOccurrences(of: " ", with: ",") ?? "none"
        }
    }
}
