import DqliteClient
import DqliteTestCluster
import Foundation
import Testing

/// Timings over the protocol on a fresh 3-node loopback cluster; run with
/// `DQLITE_MEASURE=1 swift test --filter ClusterMeasurements` (too long for the quick suite).
@Suite(
    "dqlite cluster measurements", .serialized,
    .enabled(if: ProcessInfo.processInfo.environment["DQLITE_MEASURE"] == "1", "set DQLITE_MEASURE=1 to run"),
    .enabled(if: DqliteBinaries.available, DqliteBinaries.skipReason))
struct ClusterMeasurements {
    static let rowCount = Int(ProcessInfo.processInfo.environment["DQLITE_MEASURE_ROWS"] ?? "") ?? 100_000

    @Test("100,000 rows inserted one prepared statement each, then a 12-step rebuild: statements vs COMMIT")
    func insertAndRebuild() async throws {
        try await DqliteCluster.with { cluster in
            let client = try DqliteClient(nodes: cluster.addresses, database: "measure")
            try client.exec(
                """
                CREATE TABLE trip(id INTEGER PRIMARY KEY, name TEXT NOT NULL, cost REAL, notes TEXT);
                CREATE INDEX trip_name ON trip(name);
                """)
            let rows = Self.rowCount
            var clock = Stopwatch()
            let insert = try client.prepare("INSERT INTO trip(id, name, cost, notes) VALUES (?, ?, ?, ?)")
            try client.exec("BEGIN IMMEDIATE")
            for id in 1...rows {
                try client.exec(
                    insert,
                    [
                        .integer(Int64(id)), .text("trip \(id)"), .real(Double(id) * 1.25),
                        id % 3 == 0 ? .null : .text("note \(id)"),
                    ])
            }
            let insertStatements = clock.lap()
            try client.exec("COMMIT")
            let insertCommit = clock.lap()
            try client.finalize(insert)
            report("insert \(rows) rows (prepared, one EXEC per row)", insertStatements, insertCommit)

            try client.exec("PRAGMA foreign_keys=OFF")
            try client.exec("BEGIN IMMEDIATE")
            try client.exec(
                "CREATE TABLE new_trip(id INTEGER PRIMARY KEY, name TEXT NOT NULL, price INTEGER NOT NULL DEFAULT 0, notes TEXT)"
            )
            try client.exec(
                "INSERT INTO new_trip(id, name, price, notes) SELECT id, name, CAST(round(coalesce(cost, 0)) AS INTEGER), notes FROM trip"
            )
            try client.exec("DROP TABLE trip")
            try client.exec("ALTER TABLE new_trip RENAME TO trip")
            try client.exec("CREATE INDEX trip_name ON trip(name)")
            _ = try client.query("PRAGMA foreign_key_check")
            let rebuildStatements = clock.lap()
            try client.exec("COMMIT")
            let rebuildCommit = clock.lap()
            report("12-step rebuild of \(rows) rows", rebuildStatements, rebuildCommit)

            let count = try client.query("SELECT count(*) FROM trip").scalar
            let all = try client.query("SELECT id, name, price, notes FROM trip")
            let read = clock.lap()
            print("read \(all.rows.count) rows back in one QUERY_SQL: \(read)")
            #expect(count == .integer(Int64(rows)))
            let dump = try client.dump()
            print("leader DUMP: \(dump.database.count) + \(dump.wal.count) WAL bytes in \(clock.lap())")
            let contents = try cluster.contents(of: "measure", timeout: 30)
            print("every node's content compared in \(clock.lap()): identical = \(Set(contents).count == 1)")
            #expect(Set(contents).count == 1)
        }
    }

    private func report(_ what: String, _ statements: Duration, _ commit: Duration) {
        print("\(what): statements \(statements), COMMIT \(commit)")
    }
}

/// Laps of a monotonic clock.
struct Stopwatch {
    private var last = ContinuousClock.now

    /// The time since the previous lap (or the start).
    mutating func lap() -> Duration {
        let now = ContinuousClock.now
        defer { last = now }
        return now - last
    }
}
