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
        #expect(Array(lines.prefix(6)) == [
            "database: \(database)",
            "current version: 2.0.0",
            "target version:  3.0.0",
            "online change: 2.0.0 → 3.0.0 (plan 'SampleTrips'), copying; the database stays at 2.0.0 until the cut-over",
            "  Trip: copying, up to rowid \(highWater) of \(largest) (\(String(format: "%.1f", share))%)",
            "  owner: \(owner) (running)",
        ])
        #expect(lines[6].hasPrefix("  heartbeat ") && lines[6].contains(" s ago, started "), "\(lines[6])")
        #expect(Array(lines.dropFirst(7)) == ["pending: 1 stage", "  2.0.0 → 3.0.0 (lightweight)", ""])

        result = try BuiltCommand.migrate(["status", "--plan", Scratch.jsonPlan, "--database", database, "--format", "json"])
        #expect(result.status == 3, "\(result)")
        let object = try #require(try result.json() as? [String: Any])
        let change = try #require(object["onlineChange"] as? [String: Any])
        #expect(change["plan"] as? String == "SampleTrips" && change["from"] as? String == "2.0.0" && change["to"] as? String == "3.0.0")
        #expect(change["phase"] as? String == "copying")
        #expect(change["owner"] as? String == owner && change["ownerAlive"] as? Bool == true)
        let tables = try #require(change["tables"] as? [[String: Any]])
        #expect(tables.count == 1)
        #expect(tables.first?["name"] as? String == "Trip" && tables.first?["state"] as? String == "copying")
        #expect(tables.first?["highWater"] as? Int == Int(highWater) && tables.first?["maxRowid"] as? Int == Int(largest))
        #expect(change["heartbeat"] is String && change["startedAt"] is String && change["heartbeatAgeSeconds"] is NSNumber)

        let done = try migration.resume()
        #expect(done.toVersion == Schema.Version(3, 0, 0))
        result = try BuiltCommand.migrate(["status", "--plan", Scratch.jsonPlan, "--database", database, "--format", "json"])
        #expect(result.status == 0, "\(result)")
        #expect(try #require(try result.json() as? [String: Any])["onlineChange"] is NSNull)
    }
}
