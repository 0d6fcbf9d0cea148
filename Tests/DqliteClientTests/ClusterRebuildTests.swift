import DqliteClient
import DqliteTestCluster
import Foundation
import SampleTripsPlan
import SchemaMigrations
import SchemaMigrationsCluster
import Testing

/// A table rebuild on the leader (SQLite's 12 steps over the wire): the view and trigger over
/// the table are set aside, recreated and compiled on the leader; one that cannot be recreated
/// is refused with the cluster unchanged.
@Suite(
    "Rebuilding a table on a dqlite cluster", .serialized,
    .enabled(if: DqliteBinaries.available, DqliteBinaries.skipReason))
struct ClusterRebuildTests {
    @Test("Int → Double rebuilds Stock: rows converted, the view and the trigger still work on every node")
    func rebuildKeepsViewsAndTriggers() throws {
        let cluster = try ClusterTrips.sharedCluster()
        let client = try Self.createV1(
            on: cluster, "rebuild-views", view: "CREATE VIEW low AS SELECT name, qty FROM Stock WHERE qty < 5")
        defer { client.close() }

        let result = try Migrator(plan: StockPlan.self).migrate(cluster: cluster.addresses, database: "rebuild-views")
        #expect(result.toVersion == StockV2.versionIdentifier)

        #expect(Set(try cluster.contents(of: "rebuild-views")).count == 1, "the nodes hold different content")
        #expect(
            try client.query("SELECT typeof(qty), qty FROM Stock ORDER BY id").rows == [
                [.text("real"), .real(3)], [.text("real"), .real(12)],
            ])
        #expect(try client.query("SELECT name FROM low").rows == [[.text("bolt")]])
        try client.exec("UPDATE Stock SET qty = 2.5 WHERE name = 'nut'")
        #expect(try client.query("SELECT name, qty FROM restocks ORDER BY rowid").rows == [[.text("nut"), .real(2.5)]])
        #expect(
            try client.query("SELECT name FROM sqlite_schema WHERE type IN ('view', 'trigger') ORDER BY name").rows == [
                [.text("low")], [.text("stock_low")],
            ])
    }

    @Test("A row already pointing at a missing trip is kept: the leader's check records it in a temporary table")
    func oldOrphanIsKept() throws {
        let cluster = try ClusterTrips.sharedCluster()
        try ClusterTrips.createV1(on: cluster, "old-orphan", trips: 20)
        let client = try DqliteClient(nodes: cluster.addresses, database: "old-orphan")
        defer { client.close() }
        try client.exec("PRAGMA foreign_keys = OFF")
        try client.exec(
            "INSERT INTO BucketListItem (id, title, details, hasReservation, isInPlan, trip_id) VALUES (1000, 'stray', '', 0, 0, 999)"
        )

        let result = try Migrator(plan: TripsMigrationPlan.self).migrate(
            cluster: cluster.addresses, database: "old-orphan")
        #expect(result.toVersion == TripsMigrationPlan.schemas.last?.versionIdentifier)
        #expect(try client.query("SELECT count(*) FROM pragma_foreign_key_check").rows == [[.integer(1)]])
        #expect(Set(try cluster.contents(of: "old-orphan")).count == 1, "the nodes hold different content")
    }

    @Test("A view naming a column the rebuild drops cannot be recreated: refused on the leader, the cluster unchanged")
    func viewThatCannotBeRecreated() throws {
        let cluster = try ClusterTrips.sharedCluster()
        let client = try Self.createV1(
            on: cluster, "rebuild-refused",
            view: "CREATE VIEW labels AS SELECT name || ' (' || label || ')' AS title FROM Stock")
        defer { client.close() }
        let before = try cluster.contents(of: "rebuild-refused")

        let error = try #require(throws: MigrationError.self) {
            try Migrator(plan: StockPlan.self).migrate(cluster: cluster.addresses, database: "rebuild-refused")
        }
        #expect(error.code == .sqlite)
        #expect(
            error.message.hasPrefix(
                "the view 'labels' cannot be recreated after the migration's changes (no such column: label)"),
            "\(error.message)")
        #expect(try cluster.contents(of: "rebuild-refused") == before)
        try client.exec("INSERT INTO Stock (name, qty, label) VALUES ('washer', 1, 'w')")  // the write lock is gone
    }

    /// Creates `database` at V1 through the migration, with two rows, `view`, and a trigger
    /// logging low stock into `restocks`.
    static func createV1(on cluster: DqliteCluster, _ database: String, view: String) throws -> DqliteClient {
        try Migrator(plan: StockPlan.self, options: MigrationOptions(targetVersion: StockV1.versionIdentifier)).migrate(
            cluster: cluster.addresses, database: database)
        let client = try DqliteClient(nodes: cluster.addresses, database: database)
        for sql in [
            "INSERT INTO Stock (id, name, qty, label) VALUES (1, 'bolt', 3, 'b'), (2, 'nut', 12, 'n')",
            "CREATE TABLE restocks (name TEXT, qty REAL)",
            view,
            "CREATE TRIGGER stock_low AFTER UPDATE OF qty ON Stock WHEN new.qty < 5 BEGIN INSERT INTO restocks VALUES (new.name, new.qty); END",
        ] {
            try client.exec(sql)
        }
        return client
    }
}

enum StockV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static let models: [any PersistentModel.Type] = [Stock.self]

    final class Stock: PersistentModel {
        var name = ""
        var qty = 0
        var label = ""
        init() {}
    }
}

/// `qty` becomes a Double (a rebuild) and `label` is dropped.
enum StockV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static let models: [any PersistentModel.Type] = [Stock.self]

    final class Stock: PersistentModel {
        var name = ""
        var qty = 0.0
        init() {}
    }
}

enum StockPlan: SchemaMigrationPlan {
    static let name = "stock"
    static let schemas: [any VersionedSchema.Type] = [StockV1.self, StockV2.self]
    static let stages: [MigrationStage] = [.lightweight(fromVersion: StockV1.self, toVersion: StockV2.self)]
}
