import DqliteClient
import SchemaMigrations

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Migrator {
    /// Migrates the database `database` of a dqlite cluster, reached through any of its nodes.
    ///
    /// ```swift
    /// let result = try Migrator(plan: TripsMigrationPlan.self)
    ///     .migrate(cluster: ["127.0.0.1:9001", "127.0.0.1:9002", "127.0.0.1:9003"], database: "trips")
    /// ```
    ///
    /// On the leader, through ``ClusterFraming``, the same framing as a file's: the migration's
    /// connection settings, read back (`foreign_keys` must be off), `BEGIN IMMEDIATE` (no one else
    /// can write from now on), then the migration itself, statement by statement over the wire: the
    /// same detection under the lock, checks, custom stages, refusals, verification and metadata
    /// rows as ``migrate(databaseAt:)``, then `COMMIT`, which replicates the transaction to the
    /// other nodes, and the settings set back. Any failure rolls the transaction back: the cluster
    /// is unchanged. With ``MigrationOptions/backupURL`` set, a DUMP of the database, taken inside
    /// the transaction (so it is exactly what the migration starts from), is first written there
    /// as an ordinary SQLite file.
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
    public func migrate(cluster: [String], database: String, client: DqliteClient.Options = DqliteClient.Options())
        throws -> MigrationResult
    {
        try migrate(cluster: cluster, database: database, client: client, afterSending: nil)
    }

    /// ``migrate(cluster:database:client:)``, watched by a test or a measurement (no global state):
    /// - Parameters:
    ///   - afterSending: called with the SQL once each request is sent, before its answer is read
    ///     (a test kills the leader there).
    ///   - sent: called with each statement the leader ran, its arguments, and whether it went as
    ///     QUERY (the measurements replay them in a bare loop).
    ///   - phase: called with each phase of the migration and how long it took.
    func migrate(
        cluster: [String], database: String, client: DqliteClient.Options,
        afterSending: (@Sendable (String?) -> Void)?,
        sent: (@Sendable (String, [SQLiteValue], Bool) -> Void)? = nil,
        phase: (@Sendable (String, Duration) -> Void)? = nil
    ) throws -> MigrationResult {
        let started = Date()
        var lapStarted = ContinuousClock.now
        func lap(_ name: String) {
            let now = ContinuousClock.now
            phase?(name, now - lapStarted)
            lapStarted = now
        }
        let connection = try ClusterFailure.mapping {
            try DqliteClient(nodes: cluster, database: database, options: client)
        }
        defer { connection.close() }
        connection.afterSending = afterSending
        let leader = ClusterDatabase(client: connection, name: database)
        leader.onSend = sent
        let framing = ClusterFraming(client: connection, leader: leader)
        lap("connect")
        var result: MigrationResult
        var uncommitted: MigrationResult?
        var backedUp: URL?
        do {
            result = try ClusterFailure.mapping {
                try migrate(
                    framedBy: framing,
                    beforeStages: {
                        lap("settings, BEGIN")
                        guard let backup = options.backupURL else { return }
                        try ClusterSnapshot.write(from: connection, to: backup)
                        backedUp = backup
                        lap("DUMP written as the backup")
                    },
                    stagesDone: { done in
                        uncommitted = done
                        lap("stages on the leader")
                    })
            }
        } catch {
            guard let lost = framing.lostCommit, var uncommitted else { throw error }
            uncommitted.duration = Date().timeIntervalSince(started)
            return try outcomeOfLostCommit(lost, result: uncommitted, connection: connection)
        }
        lap("COMMIT, settings restored")
        result.duration = Date().timeIntervalSince(started)
        result.backupURL = backedUp
        return result
    }

    /// The connection dropped after `COMMIT` was sent: reads the version on the new leader.
    private func outcomeOfLostCommit(_ error: DqliteError, result: MigrationResult, connection: DqliteClient) throws
        -> MigrationResult
    {
        let target = result.toVersion
        let found: Schema.Version?
        do {
            try connection.reconnect()
            let leader = ClusterDatabase(client: connection, name: connection.database)
            found = try ClusterFraming(client: connection, leader: leader).recordedVersion(plan: planName())
        } catch let again as DqliteError {
            throw MigrationError(
                .clusterUnavailable,
                "the connection to the leader dropped while COMMIT was in flight, and the cluster could not be read afterwards: whether the migration to \(target) was committed is unknown",
                remedy:
                    "run `migrate status --cluster …` when the cluster has a leader again; do not assume either outcome",
                underlying: "\(error); then \(again)")
        }
        if found == target { return result }
        throw MigrationError(
            .clusterUnavailable,
            "the connection to the leader dropped while COMMIT was in flight; the new leader \(connection.leaderAddress ?? "") is at \(found.map(\.description) ?? "no recorded version"): the migration to \(target) was not committed, nothing was changed",
            version: found, remedy: "run the migration again", underlyingError: error)
    }
}
