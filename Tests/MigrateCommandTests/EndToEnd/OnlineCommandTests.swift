import Foundation
import SampleTripsPlan
import SchemaMigrations
import Testing

/// Online changes through the built executables: `status` while one is paused, and
/// `apply --online` with its options.
@Suite struct OnlineCommandTests {
    /// An online migration of the database at `path` to 3.0.0, run in this process on its own
    /// thread and paused after its first chunk, until ``resume()``.
    final class PausedMigration: @unchecked Sendable {
        private let lock = NSLock()
        private var paused = true
        private var asked = 0
        private let finished = DispatchSemaphore(value: 0)
        private var outcome: Result<MigrationResult, any Error>?

        init(_ path: String) {
            var online = OnlineRebuildOptions(chunkTargetMilliseconds: 1)
            online.shouldPause = { [unowned self] in
                lock.lock()
                defer { lock.unlock() }
                asked += 1
                return asked > 1 && paused
            }
            let migrator = Migrator(plan: TripsMigrationPlan.self, options: MigrationOptions(online: online))
            Thread { [self] in
                let result = Result { try migrator.migrate(databaseAt: URL(fileURLWithPath: path)) }
                lock.lock()
                outcome = result
                lock.unlock()
                finished.signal()
            }.start()
            // Asked a third time: the first chunk committed, and the copy waits, holding no lock.
            while true {
                lock.lock()
                let count = asked
                lock.unlock()
                if count > 2 { break }
                usleep(1_000)
            }
        }

        /// Lets the copy go on, and waits for the migration's end.
        func resume() throws -> MigrationResult {
            lock.lock()
            paused = false
            lock.unlock()
            finished.wait()
            return try outcome!.get()
        }
    }

    @Test func statusShowsAPausedOnlineChangeAsTextAndJSON() throws {
        let scratch = Scratch()
        let database = try scratch.sampleTrips("trips.sqlite", at: Schema.Version(2, 0, 0), trips: 2_000)
        let migration = PausedMigration(database)
        let highWater = try scratch.rows(database, "SELECT highWater FROM _schema_migrations_online")[0][0]
        let largest = try scratch.rows(database, "SELECT max(rowid) FROM Trip")[0][0]
        let share = (Double(highWater)! / Double(largest)! * 100)
        let owner = "\(ProcessInfo.processInfo.hostName):\(ProcessInfo.processInfo.processIdentifier)"

        var result = try BuiltCommand.migrate(["status", "--plan", Scratch.jsonPlan, "--database", database])
        #expect(result.status == 3, "\(result)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(
            Array(lines.prefix(6)) == [
                "database: \(database)",
                "current version: 2.0.0",
                "target version:  3.0.0",
                "online change: 2.0.0 → 3.0.0 (plan 'SampleTrips'), copying; the database stays at 2.0.0 until the cut-over",
                "  Trip: copying, up to rowid \(highWater) of \(largest) (\(String(format: "%.1f", share))%)",
                "  owner: \(owner) (running)",
            ])
        #expect(lines[6].hasPrefix("  heartbeat ") && lines[6].contains(" s ago, started "), "\(lines[6])")
        #expect(Array(lines.dropFirst(7)) == ["pending: 1 stage", "  2.0.0 → 3.0.0 (lightweight)", ""])

        result = try BuiltCommand.migrate([
            "status", "--plan", Scratch.jsonPlan, "--database", database, "--format", "json",
        ])
        #expect(result.status == 3, "\(result)")
        let object = try #require(try result.json() as? [String: Any])
        let change = try #require(object["onlineChange"] as? [String: Any])
        #expect(
            change["plan"] as? String == "SampleTrips" && change["from"] as? String == "2.0.0"
                && change["to"] as? String == "3.0.0")
        #expect(change["phase"] as? String == "copying")
        #expect(change["owner"] as? String == owner && change["ownerAlive"] as? Bool == true)
        let tables = try #require(change["tables"] as? [[String: Any]])
        #expect(tables.count == 1)
        #expect(tables.first?["name"] as? String == "Trip" && tables.first?["state"] as? String == "copying")
        #expect(
            tables.first?["highWater"] as? Int == Int(highWater) && tables.first?["maxRowid"] as? Int == Int(largest))
        #expect(
            change["heartbeat"] is String && change["startedAt"] is String && change["heartbeatAgeSeconds"] is NSNumber)

        let done = try migration.resume()
        #expect(done.toVersion == Schema.Version(3, 0, 0))
        result = try BuiltCommand.migrate([
            "status", "--plan", Scratch.jsonPlan, "--database", database, "--format", "json",
        ])
        #expect(result.status == 0, "\(result)")
        #expect(try #require(try result.json() as? [String: Any])["onlineChange"] is NSNull)
    }

    // MARK: plan --online

    @Test func planOnlineShowsThePhasesOfEachStageAndTheVariableDoesTheSame() throws {
        let scratch = Scratch()
        let database = try scratch.sampleTrips("trips.sqlite", at: Schema.Version(2, 0, 0), trips: 100)
        let before = try scratch.bytes(database)
        let result = try BuiltCommand.migrate([
            "plan", "--plan", Scratch.jsonPlan, "--database", database, "--online", "--chunk-target", "5",
        ])
        #expect(result.status == 0, "\(result)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(
            Array(lines.prefix(12)) == [
                "database: \(database)",
                "current version: 2.0.0",
                "target version:  3.0.0",
                "",
                "online: rebuilds run online in chunks of about 5 ms each, the write lock released between chunks; custom stages are refused",
                "stage 2.0.0 → 3.0.0: online, rebuilding Trip",
                "  1. prepare (one short transaction): the shadow _sm_online_Trip, triggers and a blob-write guard on Trip, carrying the application's writes over",
                "  2. copy in rowid order, chunks of about 5 ms each: Trip (75 rows)",
                "     the shadow of Trip builds Trip_name_unique, Trip_name_startDate_endDate as the rows arrive: a random page write per row and index, many times the offline copy for a large table",
                "  3. cut-over (one short transaction): drop the triggers and the guard; Rename column Trip.start_date to startDate; Rename column Trip.end_date to endDate; "
                    + "swap Trip in (the old table renamed aside to _sm_old_Trip, the shadow renamed to Trip, the indexes moved or named); check the result against 3.0.0; record version 3.0.0",
                "  4. release the old Trip in chunks of about 5 ms each",
                "",
            ])
        #expect(try scratch.bytes(database) == before, "a dry run never writes")

        let variables = try BuiltCommand.migrate(
            ["plan", "--plan", Scratch.jsonPlan, "--database", database],
            environment: ["MIGRATE_ONLINE": "yes", "MIGRATE_CHUNK_TARGET": "5"])
        #expect(variables.status == 0 && variables.stdout == result.stdout, "\(variables)")

        let json = try BuiltCommand.migrate([
            "plan", "--plan", Scratch.jsonPlan, "--database", database, "--online", "--format", "json",
        ])
        let online = try #require((try json.json() as? [String: Any])?["online"] as? [String: Any])
        #expect(online["chunkTargetMs"] as? Int == 6, "the default target")
        let stage = try #require((online["stages"] as? [[String: Any]])?.first)
        #expect(
            stage["runsOnline"] as? Bool == true && stage["tables"] as? [String] == ["Trip"]
                && stage["offlineReasons"] as? [String] == [])
        // A unique index is built in the shadow; the declared index takes the renamed columns' name.
        #expect(
            stage["indexesBuilt"] as? [String: [String]] == [
                "Trip": ["Trip_name_unique", "Trip_name_startDate_endDate"]
            ])

        let sql = try BuiltCommand.migrate([
            "plan", "--plan", Scratch.jsonPlan, "--database", database, "--online", "--format", "sql",
        ])
        #expect(sql.status == 2, "\(sql)")
        #expect(
            sql.stderr.hasPrefix(
                "error: --online cannot be combined with --format sql: the script is the offline migration\n"))
    }

    @Test func aCustomStageIsRefusedOnlineByPlanThenByApplyInTheSameWordsAndTheFileIsUntouched() throws {
        let scratch = Scratch()
        let database = try scratch.sampleTrips("trips.sqlite", trips: 40)
        let before = try scratch.bytes(database)
        let message = "error: the stage 1.0.0 → 2.0.0 runs custom code, which cannot run online; nothing was done\n"

        let plan = try BuiltCommand.sampleTrips(["plan", "--database", database, "--online"])
        #expect(plan.status == 5, "\(plan)")
        #expect(
            plan.stdout.contains(
                "\nREFUSED: the stage 1.0.0 → 2.0.0 runs custom code, which cannot run online; nothing was done\n"))
        #expect(plan.stderr.hasPrefix("the migration would be refused:\n" + message), "\(plan)")

        let apply = try BuiltCommand.sampleTrips(["apply", "--database", database, "--online"])
        #expect(apply.status == 5, "\(apply)")
        #expect(apply.stdout.isEmpty)
        #expect(apply.stderr.hasPrefix(message), "\(apply)")
        #expect(try scratch.bytes(database) == before)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: scratch.directory.path) == ["trips.sqlite"],
            "no backup is left behind")
    }

    // MARK: apply --online

    @Test func applyOnlineMigratesAFixtureWithRows() throws {
        let scratch = Scratch()
        let database = try scratch.sampleTrips("trips.sqlite", at: Schema.Version(2, 0, 0), trips: 800)
        let trips = try scratch.rows(
            database, "SELECT id, name, destination, start_date, end_date FROM Trip ORDER BY id")
        let result = try BuiltCommand.migrate([
            "apply", "--plan", Scratch.jsonPlan, "--database", database, "--online", "--chunk-target", "20",
            "--no-backup",
        ])
        #expect(result.status == 0, "\(result)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "database: \(database)")
        #expect(lines.dropFirst().first?.hasPrefix("migrated 2.0.0 → 3.0.0 in ") == true, "\(result)")
        #expect(
            try scratch.rows(database, "SELECT id, name, destination, startDate, endDate FROM Trip ORDER BY id")
                == trips)
        #expect(
            try scratch.rows(
                database, "SELECT version FROM _schema_migrations WHERE plan = 'SampleTrips' ORDER BY seq DESC LIMIT 1")
                == [["'3.0.0'"]])
        #expect(
            try scratch.rows(
                database,
                "SELECT name FROM sqlite_schema WHERE name LIKE '\\_sm\\_%' ESCAPE '\\' OR name = '_schema_migrations_online'"
            ).isEmpty)
        #expect(try scratch.rows(database, "PRAGMA integrity_check") == [["'ok'"]])
    }

    /// A fleet from a list, two at a time: each database is rebuilt online, ends at the last
    /// version with its rows, and keeps nothing of the change.
    @Test func applyOnlineMigratesAFleetTwoAtATime() throws {
        let scratch = Scratch()
        var databases: [String] = []
        var rows: [[[String]]] = []
        for index in 0..<4 {
            let database = try scratch.sampleTrips(
                "fleet-\(index).sqlite", at: Schema.Version(2, 0, 0), trips: 200 + 100 * index)
            databases.append(database)
            rows.append(try scratch.rows(database, "SELECT id, name, start_date, end_date FROM Trip ORDER BY id"))
        }
        let list = scratch.path("fleet.txt")
        try (databases.joined(separator: "\n") + "\n").write(toFile: list, atomically: true, encoding: .utf8)
        let result = try BuiltCommand.migrate([
            "apply", "--plan", Scratch.jsonPlan, "--databases-from", list, "--jobs", "2", "--online", "--no-backup",
        ])
        #expect(result.status == 0, "\(result)")
        for (database, before) in zip(databases, rows) {
            #expect(
                try scratch.rows(database, "SELECT id, name, startDate, endDate FROM Trip ORDER BY id") == before,
                "\(database)")
            #expect(
                try scratch.rows(
                    database,
                    "SELECT version FROM _schema_migrations WHERE plan = 'SampleTrips' ORDER BY seq DESC LIMIT 1")
                    == [["'3.0.0'"]])
            #expect(
                try scratch.rows(
                    database,
                    "SELECT name FROM sqlite_schema WHERE name LIKE '\\_sm\\_%' ESCAPE '\\' OR name = '_schema_migrations_online'"
                ).isEmpty)
            #expect(try scratch.rows(database, "PRAGMA integrity_check") == [["'ok'"]])
        }
    }

    @Test(arguments: ["0", "-1", "nan", "inf", "1e400", "10001", "99999999999", "twenty", ""])
    func aChunkTargetThatIsNoDurationIsAUsageErrorNamingTheOption(_ value: String) throws {
        let scratch = Scratch()
        let database = try scratch.sampleTrips("trips.sqlite", at: Schema.Version(2, 0, 0))
        let before = try scratch.bytes(database)
        let result = try BuiltCommand.migrate([
            "apply", "--plan", Scratch.jsonPlan, "--database", database, "--online", "--chunk-target=\(value)",
        ])
        #expect(result.status == 2, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr.hasPrefix(
                value.isEmpty
                    ? "error: --chunk-target: the value is empty\n"
                    : "error: --chunk-target: '\(value)' is not a number of milliseconds above 0 and at most 10000\n"),
            "\(result)")
        #expect(try scratch.bytes(database) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.directory.path) == ["trips.sqlite"])
    }

    @Test func theOnlineVariablesAreCheckedAsTheOptionsAre() throws {
        let scratch = Scratch()
        let database = try scratch.sampleTrips("trips.sqlite", at: Schema.Version(2, 0, 0))
        let before = try scratch.bytes(database)
        var result = try BuiltCommand.migrate(
            ["apply", "--plan", Scratch.jsonPlan, "--database", database], environment: ["MIGRATE_ONLINE": "maybe"])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.hasPrefix("error: MIGRATE_ONLINE: 'maybe' is not a boolean\n"), "\(result)")
        result = try BuiltCommand.migrate(
            ["apply", "--plan", Scratch.jsonPlan, "--database", database, "--online"],
            environment: ["MIGRATE_CHUNK_TARGET": "0"])
        #expect(result.status == 2, "\(result)")
        #expect(
            result.stderr.hasPrefix(
                "error: MIGRATE_CHUNK_TARGET: '0' is not a number of milliseconds above 0 and at most 10000\n"),
            "\(result)")
        result = try BuiltCommand.migrate([
            "apply", "--plan", Scratch.jsonPlan, "--database", database, "--chunk-target", "5",
        ])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.hasPrefix("error: --chunk-target works only with --online\n"), "\(result)")
        #expect(try scratch.bytes(database) == before)
    }

    @Test func aPauseFilePausesTheCopyHoldingNoLockUntilItIsRemoved() throws {
        let scratch = Scratch()
        let database = try scratch.sampleTrips("trips.sqlite", at: Schema.Version(2, 0, 0), trips: 2_000)
        let pause = scratch.path("pause")
        #expect(FileManager.default.createFile(atPath: pause, contents: nil))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try BuiltCommand.path(of: "migrate"))
        process.arguments = [
            "apply", "--plan", Scratch.jsonPlan, "--database", database, "--online", "--pause-file", pause,
            "--no-backup",
        ]
        process.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("MIGRATE_") }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        // Paused: the change is prepared, the database still at 2.0.0, and the application writes freely.
        let deadline = Date().addingTimeInterval(30)
        while try scratch.rows(database, "SELECT count(*) FROM sqlite_schema WHERE name = '_schema_migrations_online'")
            != [["1"]], Date() < deadline
        {
            usleep(10_000)
        }
        usleep(300_000)
        #expect(process.isRunning)
        #expect(
            try scratch.rows(database, "SELECT phase, highWater FROM _schema_migrations_online") == [
                ["'copying'", "NULL"]
            ])
        let writer = try SQLiteConnection(path: database, mode: .readWrite, busyTimeout: 0)
        try writer.execute(
            "INSERT INTO Trip (id, name, destination, start_date, end_date) VALUES (99999, 'written while paused', 'Rome', 0, 0)"
        )
        let status = try BuiltCommand.migrate(["status", "--plan", Scratch.jsonPlan, "--database", database])
        #expect(status.stdout.contains("\n  Trip: copying, no chunk yet (largest rowid 99999)\n"), "\(status)")

        try FileManager.default.removeItem(atPath: pause)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(
            try scratch.rows(database, "SELECT destination FROM Trip WHERE name = 'written while paused'") == [
                ["'Rome'"]
            ])
        #expect(
            try scratch.rows(
                database, "SELECT version FROM _schema_migrations WHERE plan = 'SampleTrips' ORDER BY seq DESC LIMIT 1")
                == [["'3.0.0'"]])
    }
}
