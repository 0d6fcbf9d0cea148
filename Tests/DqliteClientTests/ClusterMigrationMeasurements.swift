import DqliteClient
import Foundation
import SchemaMigrations
import SampleTripsPlan
import SchemaMigrationsCluster
import Testing

/// The cluster migration against a minimal hand-written loop sending the same statements over the
/// same client, on a fresh 3-node loopback cluster; run with
/// `DQLITE_MEASURE=1 swift test --filter ClusterMigrationMeasurements` (`DQLITE_MEASURE_TRIPS`,
/// default 100,000).
@Suite(
    "dqlite cluster migration measurements", .serialized,
    .enabled(if: ProcessInfo.processInfo.environment["DQLITE_MEASURE"] == "1", "set DQLITE_MEASURE=1 to run"),
    .enabled(if: DqliteBinaries.available, DqliteBinaries.skipReason))
struct ClusterMigrationMeasurements {
    static let trips = Int(ProcessInfo.processInfo.environment["DQLITE_MEASURE_TRIPS"] ?? "") ?? 100_000

    @Test("SampleTrips V1 → V3: Migrator.migrate(cluster:) vs the recorded statements in a bare loop")
    func applyVersusLoop() async throws {
        try await DqliteCluster.with { cluster in
            let migrator = Migrator(plan: TripsMigrationPlan.self)
            try ClusterTrips.createV1(on: cluster, "measure-apply", trips: Self.trips)
            try ClusterTrips.createV1(on: cluster, "measure-loop", trips: Self.trips)

            // The loop's statements: a rehearsal on the DUMP, outside the timing.
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cluster-measure-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let file = directory.appendingPathComponent("loop.sqlite")
            var clock = Stopwatch()
            try migrator.dump(cluster: cluster.addresses, database: "measure-loop", to: file)
            let dump = clock.lap()
            let statements = try migrator.rehearse(databaseAt: file).statements
            let rehearsal = clock.lap()
            print("the parts of apply done locally, timed apart: DUMP to a file \(dump), rehearsal \(rehearsal)")

            let result = try migrator.migrate(cluster: cluster.addresses, database: "measure-apply")
            let apply = clock.lap()

            let client = try DqliteClient(nodes: cluster.addresses, database: "measure-loop")
            _ = clock.lap()
            try client.exec("PRAGMA foreign_keys=OFF")
            try client.exec("BEGIN IMMEDIATE")
            for statement in statements {
                if statement.returnsRows { _ = try client.query(statement.sql) } else { try client.exec(statement.sql) }
            }
            let loopStatements = clock.lap()
            try client.exec("COMMIT")
            let loop = loopStatements + clock.lap()

            let ratio = apply / loop
            print("\(Self.trips) trips, \(statements.count) statements: apply \(apply), loop \(loop) (statements \(loopStatements)), ratio \(String(format: "%.2f", ratio))")
            #expect(result.toVersion == TripsSchemaV3.versionIdentifier)
            let contents = try cluster.contents(of: "measure-apply", timeout: 60)
            #expect(Set(contents).count == 1)
            #expect(try ClusterTrips.state(of: "measure-loop", at: cluster.addresses[0]).version == TripsSchemaV3.versionIdentifier)
        }
    }
}
