import DqliteClient
import DqliteTestCluster
import Foundation
import SampleTripsPlan
import SchemaMigrations
import SchemaMigrationsCluster
import Testing

/// Custom stages run on the leader over the wire: every call of the data API, raw SQL of several
/// statements, a refused statement, and code that throws. The cluster ends exactly where the
/// same plan takes a local copy of the same data, or, on failure, unchanged.
@Suite(
    "Custom stages on a dqlite cluster", .serialized, .enabled(if: DqliteBinaries.available, DqliteBinaries.skipReason))
struct ClusterCustomStageTests {
    static let trips = 600

    @Test(
        "forEach, update, insert, count, fetch and multi-statement SQL: every node ends with what a local migration of the same data writes"
    )
    func dataAPIOverTheWire() throws {
        let cluster = try ClusterTrips.sharedCluster()
        try ClusterTrips.createV1(on: cluster, "custom-api", trips: Self.trips)
        let migrator = Migrator(plan: NotesPlan.self)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("custom-api-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let local = directory.appendingPathComponent("local.sqlite")
        try migrator.dump(cluster: cluster.addresses, database: "custom-api", to: local)

        let result = try migrator.migrate(cluster: cluster.addresses, database: "custom-api")
        let localResult = try migrator.migrate(databaseAt: local)
        #expect(result.toVersion == TripsSchemaV3.versionIdentifier && localResult.toVersion == result.toVersion)
        #expect(result.stages.map(\.kind) == [.custom, .custom])

        let contents = try cluster.contents(of: "custom-api")
        #expect(Set(contents).count == 1, "the nodes hold different content")
        let metadata: Set<String> = [Migrator.metadataTable]
        let clusterRows = try DumpContent.render(
            DqliteClient.dump("custom-api", at: cluster.addresses[0]), excluding: metadata)
        #expect(clusterRows == (try DumpContent.render(fileAt: local.path, excluding: metadata)))

        let client = try DqliteClient(nodes: cluster.addresses, database: "custom-api")
        defer { client.close() }
        let kept = Self.trips * 3 / 4
        #expect(try client.query("SELECT count(*) FROM Trip WHERE notes IS NULL").scalar == .integer(0))
        #expect(try client.query("SELECT notes FROM Trip WHERE name = 'Trip 1'").scalar == .text("Trip 1 → Kyoto"))
        #expect(
            try client.query("SELECT destination, notes FROM Trip WHERE name = 'Added over the wire'").rows == [
                [.text("Lyon"), .text("inserted after \(kept) trips")]
            ])
        #expect(
            try client.query("SELECT count(*) FROM Trip WHERE destination = 'PARIS'").scalar
                == client.query("SELECT count(*) FROM Trip WHERE id % 5 = 0 AND destination <> 'Lyon'").scalar)
        #expect(try client.query("SELECT count(*) FROM Trip WHERE destination = 'Paris'").scalar == .integer(0))
        #expect(try client.query("SELECT count(*) FROM BucketListItem WHERE title = 'Item 1;'").scalar == .integer(1))
    }

    @Test(
        "Custom code that runs COMMIT is refused with the exact error; the cluster is unchanged and takes writes again")
    func commitIsRefused() throws {
        let cluster = try ClusterTrips.sharedCluster()
        try ClusterTrips.createV1(on: cluster, "custom-commit", trips: 40)
        let before = try cluster.contents(of: "custom-commit")

        let error = try #require(throws: MigrationError.self) {
            try Migrator(plan: CommittingPlan.self).migrate(cluster: cluster.addresses, database: "custom-commit")
        }
        #expect(error.code == .customStageFailed)
        #expect(
            error.message == "custom code may not run COMMIT inside the migration's transaction; nothing was changed")
        #expect(try cluster.contents(of: "custom-commit") == before)
        let client = try DqliteClient(nodes: cluster.addresses, database: "custom-commit")
        defer { client.close() }
        try client.exec("DELETE FROM LivingAccommodation WHERE id = 1")
    }

    @Test("Custom code that throws: customStageFailed carrying the code's own error, the cluster unchanged")
    func throwingCode() throws {
        let cluster = try ClusterTrips.sharedCluster()
        try ClusterTrips.createV1(on: cluster, "custom-throws", trips: 40)
        let before = try cluster.contents(of: "custom-throws")

        let error = try #require(throws: MigrationError.self) {
            try Migrator(plan: ThrowingPlan.self).migrate(cluster: cluster.addresses, database: "custom-throws")
        }
        #expect(error.code == .customStageFailed)
        #expect(error.message == "didMigrate of the stage 2.0.0 → 3.0.0 threw; everything was rolled back")
        #expect(error.cause as? ImportFailure == ImportFailure(row: 7))
        #expect(try cluster.contents(of: "custom-throws") == before)
    }
}

/// SampleTrips, with V2 → V3 a custom stage whose `didMigrate` uses the whole data API.
enum NotesPlan: SchemaMigrationPlan {
    static let name = "SampleTrips"
    static let schemas: [any VersionedSchema.Type] = [TripsSchemaV1.self, TripsSchemaV2.self, TripsSchemaV3.self]
    static let stages: [MigrationStage] = [
        TripsMigrationPlan.stages[0],
        .custom(
            fromVersion: TripsSchemaV2.self, toVersion: TripsSchemaV3.self, willMigrate: nil,
            didMigrate: { context in
                // Batches of 100, so the paging after the last id is exercised.
                try context.forEach("Trip", properties: ["name", "destination"], batchSize: 100) { trip in
                    let note =
                        "\(try trip.value("name", as: String.self)) → \(try trip.value("destination", as: String.self))"
                    try context.update("Trip", id: trip.id, values: ["notes": note])
                }
                // Several statements in one string, a semicolon inside a literal, and SELECTs through execute.
                try context.execute(
                    "UPDATE Trip SET destination = upper(destination) WHERE id % 5 = 0; UPDATE BucketListItem SET title = title || ';' WHERE id = 1"
                )
                let count = try context.count("Trip")
                let id = try context.insert("Trip", values: ["name": "Added over the wire", "destination": "Lyon"])
                try context.update("Trip", id: id, values: ["notes": "inserted after \(count) trips"])
                try context.execute("SELECT count(*) FROM Trip")
                try context.execute("SELECT ? + 1", arguments: [.integer(1)])
                let fetched = try context.fetch("Trip", where: "id = ?", arguments: [.integer(id)])
                guard fetched.count == 1, try fetched[0].value("destination", as: String.self) == "Lyon" else {
                    throw ImportFailure(row: Int(id))
                }
            }),
    ]
}

/// Custom code that tries to commit the migration's transaction itself.
enum CommittingPlan: SchemaMigrationPlan {
    static let name = "SampleTrips"
    static let schemas: [any VersionedSchema.Type] = [TripsSchemaV1.self, TripsSchemaV2.self, TripsSchemaV3.self]
    static let stages: [MigrationStage] = [
        TripsMigrationPlan.stages[0],
        .custom(
            fromVersion: TripsSchemaV2.self, toVersion: TripsSchemaV3.self,
            willMigrate: { context in
                try context.execute("UPDATE Trip SET destination = 'Nowhere'")
                try context.execute("COMMIT")
            }, didMigrate: nil),
    ]
}

/// Custom code that throws an error of its own after writing.
enum ThrowingPlan: SchemaMigrationPlan {
    static let name = "SampleTrips"
    static let schemas: [any VersionedSchema.Type] = [TripsSchemaV1.self, TripsSchemaV2.self, TripsSchemaV3.self]
    static let stages: [MigrationStage] = [
        TripsMigrationPlan.stages[0],
        .custom(
            fromVersion: TripsSchemaV2.self, toVersion: TripsSchemaV3.self, willMigrate: nil,
            didMigrate: { context in
                try context.execute("UPDATE Trip SET notes = 'half done'")
                throw ImportFailure(row: 7)
            }),
    ]
}

struct ImportFailure: Error, Equatable {
    var row: Int
}
