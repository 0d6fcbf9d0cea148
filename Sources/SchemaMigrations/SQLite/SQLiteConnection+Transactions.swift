import CSQLite

extension SQLiteConnection {
    /// How a transaction takes its locks.
    /// Related SQLite documentation: <https://www.sqlite.org/lang_transaction.html>
    package enum TransactionKind: String, Sendable {
        case deferred = "DEFERRED"
        case immediate = "IMMEDIATE"
        case exclusive = "EXCLUSIVE"
    }

    /// Runs `body` inside a transaction: committed when it returns, rolled back when it throws.
    package func transaction<T>(_ kind: TransactionKind = .immediate, _ body: () throws -> T) throws -> T {
        try execute("BEGIN \(kind.rawValue) TRANSACTION")
        return try inOpenTransaction(body)
    }

    /// The second half of ``transaction(_:_:)``, for a caller that began the transaction itself
    /// (to tell a failed `BEGIN` apart): `body`, then `COMMIT`; rolled back when either throws.
    func inOpenTransaction<T>(_ body: () throws -> T) throws -> T {
        do {
            let result = try body()
            try execute("COMMIT TRANSACTION")
            return result
        } catch {
            rollbackQuietly()
            throw error
        }
    }

    /// Runs `body` in one read transaction (`BEGIN … COMMIT`): one shared lock for the many
    /// statements of an introspection, not one each; ended whether `body` returned or threw.
    func inReadTransaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN")
        let result: T
        do {
            result = try body()
        } catch {
            rollbackQuietly()  // it only read: nothing to undo, and `error` says what went wrong
            throw error
        }
        // A COMMIT that fails would leave the connection inside the transaction: said, not ignored.
        try execute("COMMIT")
        return result
    }

    /// Rolls back the open transaction, if any, ignoring errors (used on failure paths).
    func rollbackQuietly() {
        if !isAutocommit { try? execute("ROLLBACK TRANSACTION") }
    }
}
