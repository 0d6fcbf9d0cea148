import DqliteClient
import SchemaMigrations

/// The framing of a migration of a dqlite database (``MigrationFraming``): steps 1-2 and 10-12 of
/// SQLite's procedure run on the leader, over the wire, exactly as on a file. The same settings are
/// sent and read back (`foreign_keys`, `legacy_alter_table`, `threads`; foreign keys must read back
/// off, or nothing is done) before `BEGIN IMMEDIATE`, and set back after `COMMIT`, which replicates
/// the transaction to the other nodes. Each is a setting of this client's connection on the leader,
/// which the leader's SQLite applies as a file's would (the nodes replicate pages, not statements);
/// a leader that changes mid-migration ends the connection, and the transaction with it. A cluster
/// takes every setting a file takes: none is left out (`ClusterFramingTests` compares the two).
///
/// When the connection drops after `COMMIT` was sent (``lostCommit``), nothing is rolled back: the
/// migration reads what the new leader holds instead.
final class ClusterFraming: MigrationFraming {
    let client: DqliteClient
    let leader: ClusterDatabase
    /// The error of a `COMMIT` whose outcome is unknown (the connection dropped once it was sent).
    private(set) var lostCommit: DqliteError?

    init(client: DqliteClient, leader: ClusterDatabase) {
        self.client = client
        self.leader = leader
    }

    var database: any MigrationDatabase { leader }

    func beginImmediate() throws {
        try client.exec("BEGIN IMMEDIATE")
        leader.isInTransaction = true
    }

    func commit() throws {
        do {
            try client.exec("COMMIT")
            leader.isInTransaction = false
        } catch let error as DqliteError where error.code == .commitOutcomeUnknown || error.code == .connectionClosed {
            lostCommit = error
            leader.isInTransaction = false
            throw error
        }
    }

    /// Rolls back (the server rolls back anyway when the connection is gone); never after a lost `COMMIT`.
    func rollback() {
        leader.isInTransaction = false
        guard lostCommit == nil else { return }
        _ = try? client.exec("ROLLBACK")
    }

    /// dqlite's leader answers a busy `BEGIN` at once (told as `concurrentChange` by ``ClusterFailure``).
    var lockWait: String { "no time (the dqlite leader answers at once)" }
}
