/// The framing of a migration of a file the library opens itself (``Migrator/migrate(databaseAt:)``,
/// a rehearsal's or a simulation's copy): its own connection, with the busy timeout the options set.
struct FileFraming: MigrationFraming {
    let connection: SQLiteConnection

    var database: any MigrationDatabase { connection }
    func beginImmediate() throws { try connection.execute("BEGIN IMMEDIATE TRANSACTION") }
    func commit() throws { try connection.execute("COMMIT TRANSACTION") }
    func rollback() { connection.rollbackQuietly() }
    var lockWait: String { "\(connection.busyTimeout) s" }
}

/// The framing of a migration through a connection the app lends (``Migrator/migrate(connection:)``):
/// the same steps as a file, on a connection whose journal must be able to roll a failure back
/// (``JournalCheck``), whose busy timeout is its owner's, and whose settings are set back afterwards.
struct LentConnectionFraming: MigrationFraming {
    let connection: SQLiteConnection

    var database: any MigrationDatabase { connection }
    func beginImmediate() throws { try connection.execute("BEGIN IMMEDIATE TRANSACTION") }
    func commit() throws { try connection.execute("COMMIT TRANSACTION") }
    func rollback() { connection.rollbackQuietly() }
    // A lent connection waits as long as its owner set, which SQLite cannot tell us.
    var lockWait: String { "as long as the connection's busy timeout" }
}

extension SQLiteConnection {
    /// The framing of a migration on this connection: a file this package opened, or a connection lent by the app.
    var framing: any MigrationFraming {
        ownsHandle ? FileFraming(connection: self) : LentConnectionFraming(connection: self)
    }
}
