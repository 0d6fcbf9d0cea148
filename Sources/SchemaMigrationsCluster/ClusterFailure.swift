import DqliteClient
import SchemaMigrations

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension MigrationError.Code {
    /// The dqlite cluster could not be reached, had no leader, or the connection to its leader
    /// dropped: the migration's transaction, if one was open, is gone and nothing was changed.
    public static let clusterUnavailable = MigrationError.Code(rawValue: "clusterUnavailable")
}

/// `DqliteError` turned into `MigrationError`, with the server's code and message kept in
/// ``MigrationError/sqliteError``.
enum ClusterFailure {
    /// Runs `body`, turning a `DqliteError` it throws into a `MigrationError`. Losing the leader
    /// inside a migration's stages (even in a custom stage's code, which wraps what it meets) is
    /// `clusterUnavailable` too, not a failed stage.
    static func mapping<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DqliteError {
            throw migrationError(error)
        } catch let error as MigrationError {
            if let lost = error.cause as? DqliteError, leaderUnavailable.contains(lost.code) {
                throw migrationError(lost)
            }
            throw error
        }
    }

    /// The codes that mean the leader could not be used (not a statement refused): no leader,
    /// a lost or timed-out connection, leadership moved.
    static let leaderUnavailable: Set<DqliteError.Code> = [
        .noLeader, .connectionClosed, .timeout, .notLeader, .leadershipLost,
    ]

    static func migrationError(_ error: DqliteError) -> MigrationError {
        let sqliteError = error.sqliteCode.map {
            SQLiteError(extendedCode: Int32(truncatingIfNeeded: $0), message: error.message, sql: error.sql)
        }
        let at = error.address.map { " at \($0)" } ?? ""
        if leaderUnavailable.contains(error.code) {
            return MigrationError(
                .clusterUnavailable,
                "the dqlite cluster's leader\(at) could not be used (\(error.code)): \(error.message); nothing was changed",
                remedy: "check that a majority of the nodes are running, then run the migration again",
                sqliteError: sqliteError, underlyingError: error)
        }
        switch error.code {
        case .busy:
            return MigrationError(
                .concurrentChange,
                "the dqlite database is locked by another writer on the leader\(at); nothing was changed",
                remedy: "run the migration again when the other write is over", sqliteError: sqliteError,
                underlyingError: error)
        default:
            return MigrationError(
                .sqlite,
                "the dqlite leader\(at) refused a statement of the migration (\(error.code)): \(error.message); the transaction was rolled back, nothing was changed",
                remedy: "the statement is shown below; check that nothing but this migration writes to the database",
                sqliteError: sqliteError, underlyingError: error)
        }
    }
}
