import DqliteClient
import DqliteTestCluster
import Foundation
import SampleTripsPlan
import SchemaMigrations
import SchemaMigrationsCluster
import Testing

/// The SampleTrips plan run on a 3-node dqlite cluster: on the leader, over the wire, in one
/// transaction, replicated at COMMIT. Each test uses its own database on a shared cluster.
@Suite("Migrating a dqlite cluster", .serialized, .enabled(if: DqliteBinaries.available, DqliteBinaries.skipReason))
struct ClusterMigrationTests {
    static let trips = 2_000
    static let v3 = TripsSchemaV3.versionIdentifier

    @Test(
        "V1 → V3 with its custom stage: every node at 3.0.0 with identical content, checks clean; a second apply writes nothing"
    )
    func migratesEveryNode() throws {
        let cluster = try ClusterTrips.sharedCluster()
        try ClusterTrips.createV1(on: cluster, "trips-apply", trips: Self.trips)

        let result = try Migrator(plan: TripsMigrationPlan.self).migrate(
            cluster: cluster.addresses, database: "trips-apply")
        #expect(result.outcome == .migrated)
        #expect(result.fromVersion == TripsSchemaV1.versionIdentifier && result.toVersion == Self.v3)

        let contents = try cluster.contents(of: "trips-apply")
        #expect(Set(contents).count == 1, "the nodes hold different content")
        for address in cluster.addresses {
            let node = try ClusterTrips.state(of: "trips-apply", at: address)
            #expect(node.version == Self.v3)
            #expect(
                node.rowsPerTable["Trip"] == Self.trips * 3 / 4,
                "every fourth trip was a duplicate name the custom stage deletes")
            #expect(node.rowsPerTable["BucketListItem"] == 2 * Self.trips * 3 / 4)
            #expect(node.integrity == "ok")
            #expect(node.foreignKeyViolations == 0)
        }

        let again = try Migrator(plan: TripsMigrationPlan.self).migrate(
            cluster: cluster.addresses, database: "trips-apply")
        #expect(again.outcome == .upToDate)
        #expect(try cluster.contents(of: "trips-apply") == contents)
        let status = try Migrator(plan: TripsMigrationPlan.self).verify(
            cluster: cluster.addresses, database: "trips-apply")
        #expect(status.isUpToDate)
    }

    @Test("A follower's address given first: the migration finds the leader")
    func followerFirst() throws {
        let cluster = try ClusterTrips.sharedCluster()
        try ClusterTrips.createV1(on: cluster, "trips-follower", trips: 100)
        let leader = try cluster.leaderIndex()
        let followersFirst =
            cluster.addresses.indices.filter { $0 != leader }.map { cluster.addresses[$0] } + [
                cluster.addresses[leader]
            ]

        let result = try Migrator(plan: TripsMigrationPlan.self).migrate(
            cluster: followersFirst, database: "trips-follower")
        #expect(result.toVersion == Self.v3)
        #expect(try ClusterTrips.state(of: "trips-follower", at: cluster.addresses[leader]).version == Self.v3)
    }

    @Test(
        "Status (over the wire) and the dry run (on a DUMP) see V1 with two stages pending, and the backup is that DUMP"
    )
    func statusAndPlan() throws {
        let cluster = try ClusterTrips.sharedCluster()
        try ClusterTrips.createV1(on: cluster, "trips-status", trips: 100)
        let migrator = Migrator(plan: TripsMigrationPlan.self)
        let before = try cluster.contents(of: "trips-status")

        let status = try migrator.status(cluster: cluster.addresses, database: "trips-status")
        #expect(status.currentVersion == TripsSchemaV1.versionIdentifier)
        #expect(status.pendingStages.map(\.to) == [TripsSchemaV2.versionIdentifier, Self.v3])
        let report = try migrator.plan(cluster: cluster.addresses, database: "trips-status")
        #expect(report.stages.count == 2)

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "cluster-backup-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let backup = directory.appendingPathComponent("trips-before.sqlite")
        try Migrator(plan: TripsMigrationPlan.self, options: MigrationOptions(backupURL: backup))
            .migrate(cluster: cluster.addresses, database: "trips-status")
        #expect(try migrator.currentVersion(databaseAt: backup) == TripsSchemaV1.versionIdentifier)
        #expect(
            try SQLiteConnection(path: backup.path, mode: .readOnly).rows("SELECT count(*) FROM Trip")[0][0]
                == .integer(100))
        #expect(before != (try cluster.contents(of: "trips-status")))
    }

    @Test(
        "Verify reads the leader over the wire: a column added by hand after the migration is drift, and nothing is written"
    )
    func verifyFindsDriftOverTheWire() throws {
        let cluster = try ClusterTrips.sharedCluster()
        try ClusterTrips.createV1(on: cluster, "trips-drift", trips: 50)
        let migrator = Migrator(plan: TripsMigrationPlan.self)
        try migrator.migrate(cluster: cluster.addresses, database: "trips-drift")
        #expect(try migrator.verify(cluster: cluster.addresses, database: "trips-drift").isUpToDate)

        let client = try DqliteClient(nodes: cluster.addresses, database: "trips-drift")
        defer { client.close() }
        _ = try client.exec("ALTER TABLE Trip ADD COLUMN rating INTEGER")
        let before = try cluster.contents(of: "trips-drift")
        let error = try #require(throws: MigrationError.self) {
            try migrator.verify(cluster: cluster.addresses, database: "trips-drift")
        }
        #expect(error.code == .drift)
        #expect(error.details.contains { $0.contains("rating") }, "\(error)")
        #expect(try cluster.contents(of: "trips-drift") == before)
    }

    @Test(
        "The backup replaces an old file at its path, and the old file's log beside it: the folder then holds the DUMP alone"
    )
    func backupReplacesOldFiles() throws {
        let cluster = try ClusterTrips.sharedCluster()
        try ClusterTrips.createV1(on: cluster, "trips-backup-again", trips: 120)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "cluster-backup-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let backup = directory.appendingPathComponent("trips-before.sqlite")
        for suffix in ["", "-wal", "-shm"] {
            try Data("an older backup's leftovers".utf8).write(to: URL(fileURLWithPath: backup.path + suffix))
        }

        try Migrator(plan: TripsMigrationPlan.self, options: MigrationOptions(backupURL: backup))
            .migrate(cluster: cluster.addresses, database: "trips-backup-again")

        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["trips-before.sqlite"])
        #expect(
            try Migrator(plan: TripsMigrationPlan.self).currentVersion(databaseAt: backup)
                == TripsSchemaV1.versionIdentifier)
        #expect(
            try SQLiteConnection(path: backup.path, mode: .readOnly).rows("SELECT count(*) FROM Trip")[0][0]
                == .integer(120))
        #expect(try ClusterTrips.state(of: "trips-backup-again", at: cluster.addresses[0]).version == Self.v3)
    }

    @Test("A plan the leader refuses (name made unique without the de-duplicating stage) leaves the cluster unchanged")
    func refusedPlanChangesNothing() throws {
        let cluster = try ClusterTrips.sharedCluster()
        try ClusterTrips.createV1(on: cluster, "trips-refused", trips: 200)
        let before = try cluster.contents(of: "trips-refused")

        let error = try #require(throws: MigrationError.self) {
            try Migrator(plan: NoDeduplicationPlan.self).migrate(cluster: cluster.addresses, database: "trips-refused")
        }
        #expect(error.code == .dataViolation)
        #expect(try cluster.contents(of: "trips-refused") == before)
        // The write lock was released: the cluster takes writes again.
        let client = try DqliteClient(nodes: cluster.addresses, database: "trips-refused")
        try client.exec("DELETE FROM LivingAccommodation WHERE id = 1")
    }

    @Test("No leader reachable: clusterUnavailable, naming the remedy")
    func noCluster() throws {
        let options = DqliteClient.Options(connectTimeout: .milliseconds(200), leaderSearchTimeout: .milliseconds(500))
        let error = try #require(throws: MigrationError.self) {
            try Migrator(plan: TripsMigrationPlan.self).migrate(
                cluster: ["127.0.0.1:1"], database: "trips", client: options)
        }
        #expect(error.code == .clusterUnavailable)
        #expect(error.remedy?.contains("majority of the nodes") == true)
    }
}

/// SampleTrips without its custom stage: V2's unique `name` meets duplicate names.
enum NoDeduplicationPlan: SchemaMigrationPlan {
    static let name = "SampleTrips"
    static let schemas: [any VersionedSchema.Type] = [TripsSchemaV1.self, TripsSchemaV2.self, TripsSchemaV3.self]
    static let stages: [MigrationStage] = [
        .lightweight(fromVersion: TripsSchemaV1.self, toVersion: TripsSchemaV2.self),
        .lightweight(fromVersion: TripsSchemaV2.self, toVersion: TripsSchemaV3.self),
    ]
}
