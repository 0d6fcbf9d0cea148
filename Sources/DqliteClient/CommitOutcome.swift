#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Whether a lost answer means the outcome of a commit is unknown.
///
/// A transaction is replicated at `COMMIT`: when the connection drops (or times out, or the
/// leader loses leadership) after `COMMIT` was sent, a majority may or may not have stored it.
/// The caller must read the data to know, so such failures become `.commitOutcomeUnknown`.
/// Before `COMMIT`, a lost connection loses the transaction, and the error stays what it was.
enum CommitOutcome {
    static func classify(_ error: DqliteError, sql: String) -> DqliteError {
        let uncertain: Set<DqliteError.Code> = [.connectionClosed, .timeout, .leadershipLost]
        guard uncertain.contains(error.code), endsTransaction(sql) else { return error }
        return DqliteError(
            code: .commitOutcomeUnknown, sqliteCode: error.sqliteCode,
            message:
                "\(error.message); the transaction may or may not have been committed: reconnect and read the data to know",
            address: error.address, sql: sql)
    }

    /// Whether the SQL's last statement is `COMMIT` or `END` (with or without `TRANSACTION`).
    static func endsTransaction(_ sql: String) -> Bool {
        let statements = sql.split(separator: ";").map { $0.trimmingWhitespace() }
        guard let last = statements.last(where: { !$0.isEmpty })?.uppercased() else { return false }
        return last.hasPrefix("COMMIT") || last.hasPrefix("END")
    }
}
