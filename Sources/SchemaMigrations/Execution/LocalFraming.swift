/// The framing of a migration of a local SQLite database (``MigrationFraming``), reached through
/// a ``SQLiteConnection``: a file the library opens, or a connection the app lends. Both begin and
/// end their transaction the same way; they differ in whose busy timeout applies and in what is
/// checked of the connection first.
protocol LocalMigrationFraming: MigrationFraming {
    var connection: SQLiteConnection { get }
    /// Refuses a connection the migration cannot run on safely, before anything is written.
    func requireSafeConnection() throws
}

extension LocalMigrationFraming {
    var database: any MigrationDatabase { connection }
    func beginImmediate() throws { try connection.execute("BEGIN IMMEDIATE TRANSACTION") }
    func commit() throws { try connection.execute("COMMIT TRANSACTION") }
    func rollback() { connection.rollbackQuietly() }
}

/// The framing of a migration of a file the library opens itself (``Migrator/migrate(databaseAt:)``,
/// a rehearsal's or a simulation's copy): its own connection, with the busy timeout the options set.
struct FileFraming: LocalMigrationFraming {
    let connection: SQLiteConnection

    var lockWait: String { "\(connection.busyTimeout) s" }
    /// The package never sets a journal that cannot roll back, but the SQL environment's hook or an
    /// extension may have (``JournalCheck``).
    func requireSafeConnection() throws { try JournalCheck.requireRollback(connection) }
}

/// The framing of a migration through a connection the app lends (``Migrator/migrate(connection:)``):
/// the same steps as a file, on a connection whose journal must be able to roll a failure back
/// (``JournalCheck``), whose busy timeout is its owner's, and whose settings are set back afterwards.
struct LentConnectionFraming: LocalMigrationFraming {
    let connection: SQLiteConnection

    // A lent connection waits as long as its owner set, which SQLite cannot tell us.
    var lockWait: String { "as long as the connection's busy timeout" }
    func requireSafeConnection() throws { try JournalCheck.requireRollback(connection) }
}

extension SQLiteConnection {
    /// The framing of a migration on this connection: a file this package opened, or a connection lent by the app.
    var framing: any LocalMigrationFraming {
        ownsHandle ? FileFraming(connection: self) : LentConnectionFraming(connection: self)
    }
}
