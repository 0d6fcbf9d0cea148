import DqliteClient
import DqliteTestCluster
import Foundation
import SchemaMigrations
import SchemaMigrationsCluster
import Testing

/// dqlite 1.x aborts the node (an assertion in `query.c`) when a query returns a REAL value from a
/// column declared `DATETIME`, `DATE` or `TIMESTAMP`. The migration's own queries and the custom
/// stage's data API select such columns through an expression (`+"when"`), which dqlite does not
/// inspect: every node stays up. Each test runs on a cluster of its own, since a failure kills a node.
@Suite(
    "DATETIME columns on a dqlite cluster", .serialized,
    .enabled(if: DqliteBinaries.available, DqliteBinaries.skipReason))
struct ClusterDateColumnTests {
    @Test("A custom stage reads a DATETIME column holding REAL values with forEach and fetch: migrated, every node up")
    func customStageReadsDates() throws {
        let cluster = try DqliteCluster()
        defer { cluster.stop() }
        try Self.createV1(on: cluster, "events")
        let result = try Migrator(plan: EventsPlan.self).migrate(cluster: cluster.addresses, database: "events")
        #expect(result.toVersion == EventsV2.versionIdentifier)
        let contents = try cluster.contents(of: "events")  // a DUMP from every node: each is up
        #expect(Set(contents).count == 1)
        let client = try DqliteClient(nodes: cluster.addresses, database: "events")
        defer { client.close() }
        #expect(
            try client.query("SELECT label FROM Event ORDER BY id").rows == [
                [.text("launch 1970-01-02")], [.text("review 1970-01-02")], [.text("retro 1970-01-03")],
            ])
    }

    @Test(
        "Making a DATETIME column unique meets duplicates: refused naming the value, every node up, the cluster unchanged"
    )
    func uniquenessRefusalListsDates() throws {
        let cluster = try DqliteCluster()
        defer { cluster.stop() }
        try Self.createV1(on: cluster, "events")
        let before = try cluster.contents(of: "events")
        let error = try #require(throws: MigrationError.self) {
            try Migrator(plan: UniqueWhenPlan.self).migrate(cluster: cluster.addresses, database: "events")
        }
        #expect(error.code == .dataViolation)
        #expect(error.details == ["86400.5 is shared by 2 rows"])
        #expect(try cluster.contents(of: "events") == before)
    }

    /// Fractional seconds: NUMERIC affinity (`DATETIME`) would store a whole number as an INTEGER.
    static func createV1(on cluster: DqliteCluster, _ database: String) throws {
        try Migrator(plan: EventsPlan.self, options: MigrationOptions(targetVersion: EventsV1.versionIdentifier))
            .migrate(cluster: cluster.addresses, database: database)
        let client = try DqliteClient(nodes: cluster.addresses, database: database)
        defer { client.close() }
        try client.exec(
            "INSERT INTO Event (id, name, \"when\") VALUES (1, 'launch', 86400.5), (2, 'review', 86400.5), (3, 'retro', 172800.25)"
        )
    }
}

enum EventsV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static let models: [any PersistentModel.Type] = [Event.self]

    final class Event: PersistentModel {
        var name = ""
        @Attribute(sqlType: "DATETIME") var when = Date(timeIntervalSince1970: 0)
        init() {}
    }
}

enum EventsV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static let models: [any PersistentModel.Type] = [Event.self]

    final class Event: PersistentModel {
        var name = ""
        @Attribute(sqlType: "DATETIME") var when = Date(timeIntervalSince1970: 0)
        var label: String? = nil
        init() {}
    }
}

/// V2 adds `label`, filled from each event's date by the custom stage.
enum EventsPlan: SchemaMigrationPlan {
    static let name = "events"
    static let schemas: [any VersionedSchema.Type] = [EventsV1.self, EventsV2.self]
    static let stages: [MigrationStage] = [
        .custom(
            fromVersion: EventsV1.self, toVersion: EventsV2.self, willMigrate: nil,
            didMigrate: { context in
                let format = DateFormatter()
                format.dateFormat = "yyyy-MM-dd"
                format.timeZone = TimeZone(identifier: "UTC")
                try context.forEach("Event") { event in
                    let date: Date = try event.value("when")
                    try context.update(
                        "Event", id: event.id,
                        values: ["label": "\(try event.value("name", as: String.self)) \(format.string(from: date))"])
                }
                _ = try context.fetch("Event", properties: ["when"])
            })
    ]
}

enum UniqueWhenV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static let models: [any PersistentModel.Type] = [Event.self]

    final class Event: PersistentModel {
        var name = ""
        @Attribute(.unique, sqlType: "DATETIME") var when = Date(timeIntervalSince1970: 0)
        init() {}
    }
}

enum UniqueWhenPlan: SchemaMigrationPlan {
    static let name = "events"
    static let schemas: [any VersionedSchema.Type] = [EventsV1.self, UniqueWhenV2.self]
    static let stages: [MigrationStage] = [.lightweight(fromVersion: EventsV1.self, toVersion: UniqueWhenV2.self)]
}
