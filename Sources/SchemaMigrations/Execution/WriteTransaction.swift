/// The one way this package writes to a database: `BEGIN IMMEDIATE … COMMIT`, rolled back on any
/// error (``SQLiteConnection/transaction(_:_:)``), with SQLite's errors told as migration errors
/// that say what was being done. A migration (steps 2 and 11 of ``AlterTableProcedure``), each
/// stage of a per-stage migration, and a baseline all go through it.
enum WriteTransaction {
    /// Runs `body` in its own transaction on `db`, which must not be in one.
    /// - Parameter work: what the transaction does, for messages: "migration", "baseline".
    static func run<T>(on db: SQLiteConnection, doing work: String, _ body: () throws -> T) throws -> T {
        do {
            try db.execute("BEGIN IMMEDIATE TRANSACTION")
        } catch let error as SQLiteError {
            // A borrowed connection waits as long as its owner set, which SQLite cannot tell us.
            let waited = db.ownsHandle ? "\(db.busyTimeout) s" : "as long as the connection's busy timeout"
            throw MigrationError.wrap(error, message: error.isBusy ? "the database is locked by another connection; waited \(waited)" : "cannot begin the \(work)'s transaction; nothing was written")
        }
        do {
            return try db.inOpenTransaction(body)
        } catch let error as SQLiteError {
            throw MigrationError.wrap(error, message: "the \(work) failed and was rolled back")
        }
    }
}
