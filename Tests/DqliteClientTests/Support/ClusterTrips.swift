import CSQLite
import DqliteClient
import DqliteTestCluster
import Foundation
import SampleTripsPlan
import SchemaMigrations
import SchemaMigrationsCluster

/// The SampleTrips database on a cluster, and what each node holds of it.
enum ClusterTrips {
    /// The cluster the migration suites share (each test its own database), apart from the one
    /// the client's tests share, so that neither suite's load reaches the other's nodes.
    static func sharedCluster() throws -> DqliteCluster { try cluster.get() }

    private static let cluster: Result<DqliteCluster, any Error> = {
        let result = Result { try DqliteCluster() }
        if case .success(let cluster) = result { LiveProcesses.shared.removeAtExit(cluster.directory) }
        return result
    }()

    /// Creates `database` at V1 on the cluster (through the cluster migration: an empty database
    /// gets the schema created) and fills it with the fixture's `trips`.
    static func createV1(on cluster: DqliteCluster, _ database: String, trips: Int) throws {
        let v1 = Migrator(
            plan: TripsMigrationPlan.self, options: MigrationOptions(targetVersion: TripsSchemaV1.versionIdentifier))
        try v1.migrate(cluster: cluster.addresses, database: database)
        let client = try DqliteClient(nodes: cluster.addresses, database: database)
        defer { client.close() }
        // One request a statement: a multi-statement EXEC_SQL was once seen run twice from its start
        // (table already exists) on a node busy with other databases' commits.
        for statement in SampleTripsFixture.v1RowsSQL(trips: trips).split(separator: ";")
        where !statement.allSatisfy(\.isWhitespace) {
            try client.exec(String(statement))
        }
    }

    /// What one node holds: its version, rows per table, and SQLite's own checks, read from its
    /// DUMP opened locally.
    struct NodeState: Equatable {
        var version: Schema.Version?
        var rowsPerTable: [String: Int]
        var integrity: String
        var foreignKeyViolations: Int
    }

    static func state(of database: String, at address: String) throws -> NodeState {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "cluster-trips-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("node.sqlite")
        let dump = try DqliteClient.dump(database, at: address)
        try Data(dump.database).write(to: url)
        if !dump.wal.isEmpty { try Data(dump.wal).write(to: URL(fileURLWithPath: url.path + "-wal")) }
        let db = try SQLiteConnection(path: url.path, mode: .readWrite)
        var rows: [String: Int] = [:]
        for table in try db.rows("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'") {
            let name = table[0].stringValue ?? ""
            rows[name] = Int(try db.rows("SELECT count(*) FROM \"\(name)\"")[0][0].int64Value ?? -1)
        }
        let integrity = try db.rows("PRAGMA integrity_check").map { $0[0].stringValue ?? "" }.joined(separator: "; ")
        let violations = try db.rows("PRAGMA foreign_key_check").count
        let version = try Migrator(plan: TripsMigrationPlan.self).currentVersion(databaseAt: url)
        return NodeState(version: version, rowsPerTable: rows, integrity: integrity, foreignKeyViolations: violations)
    }
}
