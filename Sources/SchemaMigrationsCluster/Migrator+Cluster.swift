import DqliteClient
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SchemaMigrations

extension Migrator {
    /// Migrates the database `database` of a dqlite cluster, reached through any of its nodes.
    ///
    /// ```swift
    /// let result = try Migrator(plan: TripsMigrationPlan.self)
    ///     .migrate(cluster: ["127.0.0.1:9001", "127.0.0.1:9002", "127.0.0.1:9003"], database: "trips")
    /// ```
    ///
    /// On the leader: `PRAGMA foreign_keys=OFF`, `BEGIN IMMEDIATE` (no one else can write from
    /// now on), then the migration itself, statement by statement over the wire: the same
    /// detection under the lock, checks, custom stages, refusals, verification and metadata rows as
    /// ``migrate(databaseAt:)``, then `COMMIT`, which replicates the transaction to the other
    /// nodes. Any failure rolls the transaction back: the cluster is unchanged. With
    /// ``MigrationOptions/backupURL`` set, a DUMP of the database, taken inside the transaction
    /// (so it is exactly what the migration starts from), is first written there as an ordinary
    /// SQLite file.
    ///
    /// Custom stages run over the wire too. SQLite's authorizer, which tells a local migration
    /// which tables a custom stage's code touches, runs on the leader out of reach: `quick_check`
    /// then covers every table before the code runs, and `foreign_key_check` every table after
    /// it, as for ``migrate(connection:)``. ``MigrationOptions/transactionScope`` does not apply:
    /// the whole plan is one transaction.
    ///
    /// When the connection drops after `COMMIT` was sent, the migration reconnects to the new
    /// leader and reads the metadata table: it returns the result when the cluster is at the
    /// target version, and throws `clusterUnavailable` saying it was not committed otherwise.
    /// It never runs the statements again by itself.
    /// - Parameters:
    ///   - cluster: `host:port` of some or all nodes, in any order; followers are fine.
    ///   - database: the database's name in the cluster (created when new).
    ///   - client: timeouts of the connection to the cluster.
    /// - Throws: `MigrationError`; the cluster is then at its old version.
    @discardableResult
    public func migrate(cluster: [String], database: String, client: DqliteClient.Options = DqliteClient.Options()) throws -> MigrationResult {
        let started = Date()
        let clock = PhaseClock()
        let connection = try ClusterFailure.mapping { try DqliteClient(nodes: cluster, database: database, options: client) }
        defer { connection.close() }
        if let seam = ClusterTestSeam.afterSending { connection.afterSending = { sql in seam(database, sql) } }
        let leader = ClusterDatabase(client: connection, name: database)
        leader.onSend = ClusterTestSeam.sent
        try ClusterFailure.mapping {
            try connection.exec("PRAGMA foreign_keys=OFF")
            try connection.exec("BEGIN IMMEDIATE")
        }
        leader.isInTransaction = true
        clock.lap("connect, BEGIN")
        var result: MigrationResult
        do {
            if let backup = options.backupURL {
                let dump = try ClusterFailure.mapping { try connection.dump() }
                try ClusterSnapshot.write(dump, to: backup)
                clock.lap("DUMP written as the backup")
            }
            result = try ClusterFailure.mapping { try migrate(inOpenTransactionOn: leader) }
            clock.lap("stages on the leader")
        } catch {
            _ = try? connection.exec("ROLLBACK")  // the server rolls back anyway when the connection is gone
            throw error
        }
        result.duration = Date().timeIntervalSince(started)
        let wroteNothing = result.stages.isEmpty && !result.adopted && result.outcome == .upToDate
        do {
            try connection.exec(wroteNothing ? "ROLLBACK" : "COMMIT")
            clock.lap("COMMIT")
        } catch let error as DqliteError where error.code == .commitOutcomeUnknown || error.code == .connectionClosed {
            return try outcomeOfLostCommit(error, result: result, connection: connection)
        } catch let error as DqliteError {
            _ = try? connection.exec("ROLLBACK")
            throw ClusterFailure.migrationError(error)
        }
        return result
    }

    /// The connection dropped after `COMMIT` was sent: reads the version on the new leader.
    private func outcomeOfLostCommit(_ error: DqliteError, result: MigrationResult, connection: DqliteClient) throws -> MigrationResult {
        let target = result.toVersion
        let found: Schema.Version?
        do {
            try connection.reconnect()
            found = try recordedVersion(on: connection)
        } catch let again as DqliteError {
            throw MigrationError(.clusterUnavailable,
                                 "the connection to the leader dropped while COMMIT was in flight, and the cluster could not be read afterwards: whether the migration to \(target) was committed is unknown",
                                 remedy: "run `migrate status --cluster …` when the cluster has a leader again; do not assume either outcome",
                                 underlying: "\(error); then \(again)")
        }
        if found == target { return result }
        throw MigrationError(.clusterUnavailable,
                             "the connection to the leader dropped while COMMIT was in flight; the new leader \(connection.leaderAddress ?? "") is at \(found.map(\.description) ?? "no recorded version"): the migration to \(target) was not committed, nothing was changed",
                             version: found, remedy: "run the migration again", underlyingError: error)
    }

    /// The plan's newest version in the metadata table, read on the leader.
    func recordedVersion(on connection: DqliteClient) throws -> Schema.Version? {
        let table = Migrator.metadataTable
        guard try connection.query("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = ?", [.text(table)]).scalar == .integer(1) else {
            return nil
        }
        let rows = try connection.query("SELECT \"version\" FROM \"\(table)\" WHERE \"plan\" = ? ORDER BY \"seq\" DESC LIMIT 1", [.text(try planName())])
        return rows.scalar?.text.flatMap(Schema.Version.init)
    }
}

/// A test seam: called with the database's name and the SQL once each request of a cluster
/// migration is sent, before its answer is read (a test kills the leader there).
enum ClusterTestSeam {
    nonisolated(unsafe) static var afterSending: (@Sendable (String, String?) -> Void)?
    /// Called with each statement a cluster migration sends on the leader, its arguments, and
    /// whether it went as QUERY (the measurements replay them in a bare loop).
    nonisolated(unsafe) static var sent: (@Sendable (String, [SQLiteValue], Bool) -> Void)?
    /// Called with each phase of `migrate(cluster:)` and how long it took (the measurements print them).
    nonisolated(unsafe) static var phase: (@Sendable (String, Duration) -> Void)?
}

/// Laps of a monotonic clock, reported to ``ClusterTestSeam/phase`` when a test listens.
final class PhaseClock {
    private var last = ContinuousClock.now

    func lap(_ phase: String) {
        let now = ContinuousClock.now
        ClusterTestSeam.phase?(phase, now - last)
        last = now
    }
}
