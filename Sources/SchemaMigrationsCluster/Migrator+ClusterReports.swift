import DqliteClient
import SchemaMigrations

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

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
    public func status(cluster: [String], database: String, client: DqliteClient.Options = DqliteClient.Options())
        throws -> MigrationStatus
    {
        try onLeader(cluster, database, client) { db in try status(reading: db, introspecting: false) }
    }

    /// Checks that the cluster's database matches the version it records, as
    /// ``verify(databaseAt:)`` does, introspecting every table on the leader over the wire.
    /// - Throws: `MigrationError` `drift` listing the differences, or as ``status(cluster:database:client:)``.
    public func verify(cluster: [String], database: String, client: DqliteClient.Options = DqliteClient.Options())
        throws -> MigrationStatus
    {
        try onLeader(cluster, database, client) { db in try status(reading: db, introspecting: true) }
    }

    /// A dry run on a DUMP of the leader's database opened locally: the report
    /// ``plan(databaseAt:)`` gives, measured against the cluster's data. The cluster is only read.
    public func plan(cluster: [String], database: String, client: DqliteClient.Options = DqliteClient.Options()) throws
        -> MigrationReport
    {
        var report = try onLeaderDump(cluster, database, client) { url in try plan(databaseAt: url) }
        report.database = database  // not the temporary copy's path
        return report
    }

    /// Applies the plan to a DUMP of the leader's database, locally, timing each step, as
    /// ``simulate(databaseAt:)`` does for a file: the migration's data-dependent failures, found
    /// before anything is sent to the cluster, which is only read.
    /// - Throws: `MigrationError` when the cluster cannot be read; a migration that fails on the
    ///   copy is reported in ``MigrationSimulation/error``, not thrown.
    public func simulate(cluster: [String], database: String, client: DqliteClient.Options = DqliteClient.Options())
        throws -> MigrationSimulation
    {
        var simulation = try onLeaderDump(cluster, database, client) { url in try simulate(databaseAt: url) }
        simulation.database = database  // not the temporary copy's path
        return simulation
    }

    /// Writes the leader's database, as a DUMP, to `url` as an ordinary SQLite file: a backup,
    /// or a copy to try a migration on with the library's local entry points.
    public func dump(
        cluster: [String], database: String, to url: URL, client: DqliteClient.Options = DqliteClient.Options()
    ) throws {
        let connection = try ClusterFailure.mapping {
            try DqliteClient(nodes: cluster, database: database, options: client)
        }
        defer { connection.close() }
        try ClusterFailure.mapping { try ClusterSnapshot.write(from: connection, to: url) }
    }

    private func onLeader(
        _ cluster: [String], _ database: String, _ client: DqliteClient.Options,
        _ body: (ClusterDatabase) throws -> MigrationStatus
    ) throws -> MigrationStatus {
        let connection = try ClusterFailure.mapping {
            try DqliteClient(nodes: cluster, database: database, options: client)
        }
        defer { connection.close() }
        return try ClusterFailure.mapping { try body(ClusterDatabase(client: connection, name: database)) }
    }

    private func onLeaderDump<T>(
        _ cluster: [String], _ database: String, _ client: DqliteClient.Options, _ body: (URL) throws -> T
    ) throws -> T {
        let connection = try ClusterFailure.mapping {
            try DqliteClient(nodes: cluster, database: database, options: client)
        }
        defer { connection.close() }
        return try ClusterSnapshot.withLocalCopy(of: connection, body)
    }
}
