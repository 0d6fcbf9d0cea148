import DqliteClient
import DqliteTestCluster
import Foundation
import SampleTripsPlan
import SchemaMigrations
import Testing

@testable import SchemaMigrationsCluster

/// The cluster migration against a minimal hand-written loop sending the same statements over the
/// same client, on a fresh 3-node loopback cluster; run with
/// `DQLITE_MEASURE=1 swift test --filter ClusterMigrationMeasurements` (`DQLITE_MEASURE_TRIPS`,
/// default 100,000; `DQLITE_MEASURE_RUNS` rounds, default 3, each on fresh databases).
///
/// Each round times, on a fresh cluster, on databases filled alike: `apply` (the time
/// `migrate(cluster:)` takes, with its phases); the bare loop of every statement apply ran on the
/// leader, in order, with its arguments (connect, `BEGIN IMMEDIATE`, the statements, `COMMIT`);
/// and the bare loop of the writes alone (what a rehearsal on a local copy records: no reads, no
/// checks). Then every node of the three databases is checked: 3.0.0, identical content,
/// `integrity_check` and `foreign_key_check` clean.
@Suite(
    "dqlite cluster migration measurements", .serialized,
    .enabled(if: ProcessInfo.processInfo.environment["DQLITE_MEASURE"] == "1", "set DQLITE_MEASURE=1 to run"),
    .enabled(if: DqliteBinaries.available, DqliteBinaries.skipReason))
struct ClusterMigrationMeasurements {
    static let trips = Int(ProcessInfo.processInfo.environment["DQLITE_MEASURE_TRIPS"] ?? "") ?? 100_000
    static let runs = Int(ProcessInfo.processInfo.environment["DQLITE_MEASURE_RUNS"] ?? "") ?? 3
    /// `DQLITE_MEASURE_VERBOSE=1` prints each loop's slowest statements.
    static let verbose = ProcessInfo.processInfo.environment["DQLITE_MEASURE_VERBOSE"] == "1"

    /// One statement as apply sent it.
    struct Sent: Sendable {
        var sql: String
        var arguments: [SQLiteValue]
        var asQuery: Bool
    }

    @Test(
        "SampleTrips V1 → V3: Migrator.migrate(cluster:) vs the same statements in a bare loop, and vs the writes alone"
    )
    func applyVersusLoop() async throws {
        do {
            let migrator = Migrator(plan: TripsMigrationPlan.self)
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "cluster-measure-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let phases = PhaseLog()
            let sent = Locked<[Sent]>([])
            let record: @Sendable (String, [SQLiteValue], Bool) -> Void = { sql, arguments, asQuery in
                sent.mutate { $0.append(Sent(sql: sql, arguments: arguments, asQuery: asQuery)) }
            }

            var applies: [Double] = []
            var loops: [Double] = []
            var writeLoops: [Double] = []
            for round in 0..<Self.runs {
                // A fresh cluster each round: the nodes keep every database in memory.
                let cluster = try DqliteCluster()
                defer { cluster.stop() }
                let applied = "measure-apply-\(round)"
                let looped = "measure-loop-\(round)"
                let writesOnly = "measure-writes-\(round)"
                for database in [applied, looped, writesOnly] {
                    try ClusterTrips.createV1(on: cluster, database, trips: Self.trips)
                }
                // The writes alone: the script a rehearsal on a DUMP of the same data records, outside the timing.
                let file = directory.appendingPathComponent("statements-\(round).sqlite")
                try migrator.dump(cluster: cluster.addresses, database: writesOnly, to: file)
                let writes = try migrator.script(databaseAt: file).statements.map {
                    Sent(sql: $0, arguments: [], asQuery: ClusterDatabase.mayReturnRows($0))
                }

                var clock = Stopwatch()
                phases.clear()
                sent.mutate { $0.removeAll() }
                let result = try migrator.migrate(
                    cluster: cluster.addresses, database: applied, client: DqliteClient.Options(), afterSending: nil,
                    sent: record, phase: { phase, duration in phases.add(phase, duration) })
                let apply = clock.lap().seconds
                #expect(result.toVersion == TripsSchemaV3.versionIdentifier)
                let statements = sent.value
                let loop = try Self.bareLoop(statements, cluster.addresses, looped)
                let writeLoop = try Self.bareLoop(writes, cluster.addresses, writesOnly)

                applies.append(apply)
                loops.append(loop)
                writeLoops.append(writeLoop)
                print(
                    "round \(round): \(Self.trips) trips: apply \(Self.ms(apply)) (\(phases.summary)); "
                        + "bare loop of its \(statements.count) statements \(Self.ms(loop)), of the \(writes.count) writes alone \(Self.ms(writeLoop)); "
                        + "apply / loop \(Self.ratio(apply, loop)), apply / writes \(Self.ratio(apply, writeLoop))")
                try Self.expectMigratedEverywhere(cluster, [applied, looped, writesOnly])
            }
            let apply = Self.median(applies)
            let loop = Self.median(loops)
            let writeLoop = Self.median(writeLoops)
            print(
                "median of \(Self.runs): apply \(Self.ms(apply)), bare loop of the same statements \(Self.ms(loop)), of the writes alone \(Self.ms(writeLoop)); "
                    + "apply / loop \(Self.ratio(apply, loop)), apply / writes \(Self.ratio(apply, writeLoop))")
        }
    }

    /// The minimal loop: connect, `foreign_keys` off, `BEGIN IMMEDIATE`, each statement sent the
    /// way apply sent it, `COMMIT`. Returns its duration in seconds.
    static func bareLoop(_ statements: [Sent], _ nodes: [String], _ database: String) throws -> Double {
        var clock = Stopwatch()
        let client = try DqliteClient(nodes: nodes, database: database)
        defer { client.close() }
        try client.exec("PRAGMA foreign_keys=OFF")
        try client.exec("BEGIN IMMEDIATE")
        var slowest: [(Double, String)] = []
        for statement in statements {
            var each = Stopwatch()
            let arguments = statement.arguments.map(DqliteValue.init)
            if statement.asQuery {
                _ = try client.query(statement.sql, arguments)
            } else {
                try client.exec(statement.sql, arguments)
            }
            if verbose { slowest.append((each.lap().seconds, String(statement.sql.prefix(110)))) }
        }
        try client.exec("COMMIT")
        if verbose {
            print(
                "the loop's slowest statements: "
                    + slowest.sorted { $0.0 > $1.0 }.prefix(12).map { "\(ms($0.0)) \($0.1)" }.joined(separator: "\n  "))
        }
        return clock.lap().seconds
    }

    /// Every node of each database at 3.0.0 with identical content, SQLite's checks clean.
    static func expectMigratedEverywhere(_ cluster: DqliteCluster, _ databases: [String]) throws {
        for database in databases {
            let contents = try cluster.contents(of: database, timeout: 60)
            #expect(Set(contents).count == 1, "\(database): the nodes hold different content")
            for address in cluster.addresses {
                let node = try ClusterTrips.state(of: database, at: address)
                #expect(node.version == TripsSchemaV3.versionIdentifier, "\(database) at \(address)")
                #expect(node.integrity == "ok", "\(database) at \(address): integrity_check \(node.integrity)")
                #expect(node.foreignKeyViolations == 0, "\(database) at \(address): foreign_key_check")
                #expect(node.rowsPerTable["Trip"] == trips * 3 / 4, "\(database) at \(address)")
            }
        }
    }

    static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
    static func ms(_ seconds: Double) -> String { String(format: "%.0f ms", seconds * 1000) }
    static func ratio(_ a: Double, _ b: Double) -> String { String(format: "%.2f×", a / b) }
}

/// A value shared with a `@Sendable` callback.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }
    var value: Value { lock.withLock { stored } }
    func mutate(_ body: (inout Value) -> Void) { lock.withLock { body(&stored) } }
}

/// The phases `migrate(cluster:)` reports, in order.
final class PhaseLog: @unchecked Sendable {
    private let lock = NSLock()
    private var phases: [(String, Duration)] = []

    func add(_ phase: String, _ duration: Duration) { lock.withLock { phases.append((phase, duration)) } }
    func clear() { lock.withLock { phases.removeAll() } }
    var summary: String {
        lock.withLock {
            phases.map { "\($0.0) \(ClusterMigrationMeasurements.ms($0.1.seconds))" }.joined(separator: ", ")
        }
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
