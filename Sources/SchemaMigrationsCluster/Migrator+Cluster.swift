import DqliteClient
import Foundation
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
    /// now on), a DUMP of the database, which is then migrated locally on a copy in memory (every
    /// check, custom stage and refusal of ``migrate(databaseAt:)`` runs there, recording each
    /// statement), and the recorded statements are sent to the leader in that transaction, then
    /// `COMMIT`, which replicates them. Any failure rolls the transaction back: the cluster is
    /// unchanged. With ``MigrationOptions/backupURL`` set, the DUMP is written there first, as an
    /// ordinary SQLite file.
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
        try ClusterFailure.mapping {
            try connection.exec("PRAGMA foreign_keys=OFF")
            try connection.exec("BEGIN IMMEDIATE")
        }
        clock.lap("connect, BEGIN")
        var rehearsed: RehearsedMigration
        do {
            rehearsed = try rehearseOnLeaderDump(connection, clock)
            try ClusterFailure.mapping {
                for statement in rehearsed.statements {
                    if statement.returnsRows { _ = try connection.query(statement.sql) } else { try connection.exec(statement.sql) }
                }
            }
            clock.lap("send \(rehearsed.statements.count) statements")
        } catch {
            _ = try? connection.exec("ROLLBACK")  // the server rolls back anyway when the connection is gone
            throw error
        }
        rehearsed.result.duration = Date().timeIntervalSince(started)
        do {
            try connection.exec(rehearsed.statements.isEmpty ? "ROLLBACK" : "COMMIT")
            clock.lap("COMMIT")
        } catch let error as DqliteError where error.code == .commitOutcomeUnknown || error.code == .connectionClosed {
            return try outcomeOfLostCommit(error, rehearsed: rehearsed, connection: connection)
        } catch let error as DqliteError {
            _ = try? connection.exec("ROLLBACK")
            throw ClusterFailure.migrationError(error)
        }
        return rehearsed.result
    }

    /// The connection dropped after `COMMIT` was sent: reads the version on the new leader.
    private func outcomeOfLostCommit(_ error: DqliteError, rehearsed: RehearsedMigration, connection: DqliteClient) throws -> MigrationResult {
        let target = rehearsed.result.toVersion
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
        if found == target { return rehearsed.result }
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

    /// Takes the leader's DUMP (inside the migration's transaction, so it is what the statements
    /// will run on) and rehearses the migration on it, in memory. With a backup asked for, the
    /// DUMP is written there, once, as an ordinary SQLite file, and rehearsed from it; otherwise
    /// it is written as it is to a temporary file, removed afterwards. The DUMP's bytes are let
    /// go once written, before the rehearsal's copy in memory takes their place.
    private func rehearseOnLeaderDump(_ connection: DqliteClient, _ clock: PhaseClock) throws -> RehearsedMigration {
        func writeDump(to url: URL, asBackup: Bool) throws {
            let dump = try ClusterFailure.mapping { try connection.dump() }
            clock.lap("DUMP transfer")
            if asBackup { try ClusterSnapshot.write(dump, to: url) } else { try ClusterSnapshot.writeAsIs(dump, to: url) }
            clock.lap(asBackup ? "DUMP written as the backup" : "DUMP written")
        }
        var local = self
        local.options.backupURL = nil
        if let backup = options.backupURL {
            try writeDump(to: backup, asBackup: true)
            defer { clock.lap("rehearsal in memory") }
            return try local.rehearse(databaseAt: backup, inMemory: true)
        }
        return try ClusterSnapshot.withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("\(connection.database).sqlite")
            try writeDump(to: url, asBackup: false)
            defer { clock.lap("rehearsal in memory") }
            return try local.rehearse(databaseAt: url, inMemory: true)
        }
    }
}

/// A test seam: called with the database's name and the SQL once each request of a cluster
/// migration is sent, before its answer is read (a test kills the leader there).
enum ClusterTestSeam {
    nonisolated(unsafe) static var afterSending: (@Sendable (String, String?) -> Void)?
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
