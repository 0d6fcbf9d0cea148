import DqliteClient
import Foundation
import SchemaMigrations

extension Migrator {
    /// The version the cluster's database is at and the stages pending, read on the leader over
    /// the wire, as ``status(databaseAt:)`` reads a file (the same readers, through
    /// ``ClusterDatabase``): a few small queries, no DUMP, and the cluster is only read.
    ///
    /// ```swift
    /// let status = try Migrator(plan: TripsMigrationPlan.self).status(cluster: nodes, database: "trips")
    /// print(status.currentVersion, status.pendingStages)
    /// ```
    /// - Throws: `MigrationError` as ``status(databaseAt:)``, or `clusterUnavailable`.
    public func status(cluster: [String], database: String, client: DqliteClient.Options = DqliteClient.Options()) throws -> MigrationStatus {
        try onLeader(cluster, database, client) { db in try status(reading: db, introspecting: false) }
    }

    /// Checks that the cluster's database matches the version it records, as
    /// ``verify(databaseAt:)`` does, introspecting every table on the leader over the wire.
    /// - Throws: `MigrationError` `drift` listing the differences, or as ``status(cluster:database:client:)``.
    public func verify(cluster: [String], database: String, client: DqliteClient.Options = DqliteClient.Options()) throws -> MigrationStatus {
        try onLeader(cluster, database, client) { db in try status(reading: db, introspecting: true) }
    }

    /// A dry run on a DUMP of the leader's database opened locally: the report
    /// ``plan(databaseAt:)`` gives, measured against the cluster's data. The cluster is only read.
    public func plan(cluster: [String], database: String, client: DqliteClient.Options = DqliteClient.Options()) throws -> MigrationReport {
        try onLeaderDump(cluster, database, client) { url in try plan(databaseAt: url) }
    }

    /// Writes the leader's database, as a DUMP, to `url` as an ordinary SQLite file: a backup,
    /// or a copy to try a migration on with the library's local entry points.
    public func dump(cluster: [String], database: String, to url: URL, client: DqliteClient.Options = DqliteClient.Options()) throws {
        let connection = try ClusterFailure.mapping { try DqliteClient(nodes: cluster, database: database, options: client) }
        defer { connection.close() }
        try ClusterSnapshot.write(try ClusterFailure.mapping { try connection.dump() }, to: url)
    }

    private func onLeader(_ cluster: [String], _ database: String, _ client: DqliteClient.Options,
                          _ body: (ClusterDatabase) throws -> MigrationStatus) throws -> MigrationStatus {
        let connection = try ClusterFailure.mapping { try DqliteClient(nodes: cluster, database: database, options: client) }
        defer { connection.close() }
        return try ClusterFailure.mapping { try body(ClusterDatabase(client: connection, name: database)) }
    }

    private func onLeaderDump<T>(_ cluster: [String], _ database: String, _ client: DqliteClient.Options, _ body: (URL) throws -> T) throws -> T {
        let connection = try ClusterFailure.mapping { try DqliteClient(nodes: cluster, database: database, options: client) }
        defer { connection.close() }
        return try ClusterSnapshot.withLocalCopy(of: connection, body)
    }
}
