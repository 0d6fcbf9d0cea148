import DqliteClient
import DqliteTestCluster
import Foundation
import SampleTripsPlan
import SchemaMigrations
import Testing

@testable import SchemaMigrationsCluster

/// The leader killed (SIGKILL, by PID) at moments spread over a cluster migration: afterwards the
/// cluster is at V1 or V3, never between, and a second apply finishes. Three kills here; the
/// family of 20 at random moments with `RELIABILITY_LONG=1`.
@Suite(
    "Migrating a dqlite cluster while its leader dies", .serialized,
    .enabled(if: DqliteBinaries.available, DqliteBinaries.skipReason))
struct ClusterMigrationKillTests {
    static let trips = 2_000
    static let v1 = TripsSchemaV1.versionIdentifier
    static let v3 = TripsSchemaV3.versionIdentifier

    @Test("Leader killed early, midway and near COMMIT: old version or new, and a second apply finishes")
    func fewKills() async throws {
        try await killDuringApply(at: [0.2, 0.6, 0.95])
    }

    @Test(
        "20 kills at random moments",
        .enabled(if: ProcessInfo.processInfo.environment["RELIABILITY_LONG"] == "1", "set RELIABILITY_LONG=1 to run"))
    func twentyKills() async throws {
        try await killDuringApply(at: (0..<20).map { _ in Double.random(in: 0...1.1) })
    }

    private func killDuringApply(at fractions: [Double]) async throws {
        try await DqliteCluster.with { cluster in
            let migrator = Migrator(plan: TripsMigrationPlan.self, options: MigrationOptions())
            // How long an undisturbed apply takes here (the faster of two: the first pays for warming
            // up), to spread the kills over it.
            var duration = TimeInterval.infinity
            for baseline in 0..<2 {
                try ClusterTrips.createV1(on: cluster, "trips-baseline-\(baseline)", trips: Self.trips)
                let started = Date()
                try migrator.migrate(cluster: cluster.addresses, database: "trips-baseline-\(baseline)")
                duration = min(duration, Date().timeIntervalSince(started))
            }
            var duringApply = 0

            var outcomes: [String] = []
            for (round, fraction) in fractions.enumerated() {
                let database = "trips-kill-\(round)"
                try ClusterTrips.createV1(on: cluster, database, trips: Self.trips)
                let leader = try cluster.leaderIndex()
                let run = BackgroundMigration(migrator, cluster.addresses, database)
                usleep(UInt32(fraction * duration * 1_000_000))
                if !run.isFinished { duringApply += 1 }
                cluster.kill(node: leader)
                let first = run.wait()

                let live = cluster.addresses.indices.filter { $0 != leader }.map { cluster.addresses[$0] }
                // throws on drift: a half-applied schema
                let status = try migrator.verify(cluster: live, database: database)
                #expect(
                    [Self.v1, Self.v3].contains(status.currentVersion),
                    "round \(round): at \(String(describing: status.currentVersion))")
                if case .success = first {
                    #expect(
                        status.currentVersion == Self.v3,
                        "round \(round): apply succeeded but the cluster is not at 3.0.0")
                }
                outcomes.append(
                    "\(fraction): \(status.currentVersion.map(\.description) ?? "nil") (\(Self.describe(first)))")

                try cluster.restart(node: leader)
                let second = try migrator.migrate(cluster: cluster.addresses, database: database)
                #expect(second.toVersion == Self.v3)
                let contents = try cluster.contents(of: database, timeout: 20)
                #expect(Set(contents).count == 1, "round \(round): the nodes differ")
                for address in cluster.addresses {
                    let node = try ClusterTrips.state(of: database, at: address)
                    #expect(
                        node.version == Self.v3 && node.integrity == "ok" && node.foreignKeyViolations == 0,
                        "round \(round) at \(address): \(node)")
                    #expect(node.rowsPerTable["Trip"] == Self.trips * 3 / 4)
                }
            }
            print(
                "apply took \(String(format: "%.3f", duration)) s undisturbed; \(duringApply) of \(fractions.count) kills while apply ran; kills: "
                    + outcomes.joined(separator: "; "))
        }
    }

    private static func describe(_ result: Result<MigrationResult, any Error>) -> String {
        switch result {
        case .success(let result): "apply returned \(result.outcome)"
        case .failure(let error as MigrationError): "apply threw \(error.code)"
        case .failure(let error): "apply threw \(error)"
        }
    }
}

/// A cluster migration on its own thread (the test kills a node meanwhile).
final class BackgroundMigration: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var result: Result<MigrationResult, any Error>?

    /// Whether the migration has ended.
    var isFinished: Bool { lock.withLock { result != nil } }

    init(_ migrator: Migrator, _ nodes: [String], _ database: String) {
        Thread {
            let ended = Result { try migrator.migrate(cluster: nodes, database: database) }
            self.lock.withLock { self.result = ended }
            self.done.signal()
        }.start()
    }

    /// Waits for the migration to end and returns how it ended.
    func wait() -> Result<MigrationResult, any Error> {
        done.wait()
        return lock.withLock { result! }
    }
}

/// The leader killed the moment `COMMIT` is on the wire, before its answer: the migration cannot
/// know whether it committed, reconnects and reads `_schema_migrations` on the new leader.
@Suite(
    "A cluster migration whose COMMIT answer is lost", .serialized,
    .enabled(if: DqliteBinaries.available, DqliteBinaries.skipReason))
struct ClusterCommitLostTests {
    @Test(
        "Leader killed just after COMMIT was sent: the migration reports what the new leader holds, and the cluster agrees"
    )
    func commitAnswerLost() async throws {
        try await DqliteCluster.with { cluster in
            try ClusterTrips.createV1(on: cluster, "trips-commit", trips: 2_000)
            let leader = try cluster.leaderIndex()
            let pid = cluster.nodes[leader].pid
            let outcome = Result {
                try Migrator(plan: TripsMigrationPlan.self).migrate(
                    cluster: cluster.addresses, database: "trips-commit", client: DqliteClient.Options(),
                    afterSending: { sql in if sql == "COMMIT" { kill(pid, SIGKILL) } })
            }
            cluster.kill(node: leader)  // reaps it
            let live = cluster.addresses.indices.filter { $0 != leader }.map { cluster.addresses[$0] }
            let status = try Migrator(plan: TripsMigrationPlan.self).verify(cluster: live, database: "trips-commit")
            switch outcome {
            case .success(let result):
                #expect(result.toVersion == TripsSchemaV3.versionIdentifier)
                #expect(status.currentVersion == TripsSchemaV3.versionIdentifier)
            case .failure(let error as MigrationError):
                #expect(error.code == .clusterUnavailable)
                #expect(error.message.contains("was not committed"), "\(error)")
                #expect(status.currentVersion == TripsSchemaV1.versionIdentifier)
            case .failure(let error):
                Issue.record("unexpected \(error)")
            }
            print(
                "COMMIT answer lost: \(outcome.map { "\($0.outcome) at \($0.toVersion)" }), cluster at \(String(describing: status.currentVersion))"
            )

            try cluster.restart(node: leader)
            #expect(
                try Migrator(plan: TripsMigrationPlan.self).migrate(
                    cluster: cluster.addresses, database: "trips-commit"
                ).toVersion == TripsSchemaV3.versionIdentifier)
            #expect(Set(try cluster.contents(of: "trips-commit", timeout: 20)).count == 1)
        }
    }
}
