/// A migration's all-or-nothing promise rests on SQLite's rollback journal (or WAL): with
/// `journal_mode=OFF` a failed migration cannot be rolled back at all, and with `MEMORY` the
/// journal is lost with the process and a large transaction that spills pages to the file
/// before failing can leave it corrupt. The package never sets either, but the application's SQL
/// environment may (its `prepareConnection` hook, an extension), and a connection passed to
/// `migrate(connection:)` may use either: every connection is checked before anything runs, and
/// the dry run refuses what the migration would, in its words.
///
/// Related SQLite documentation: <https://www.sqlite.org/pragma.html#pragma_journal_mode>
enum JournalCheck {
    /// - Throws: `MigrationError` (code `unsafeConnection`) when the connection's journal cannot
    ///   roll a failed migration back. An in-memory database, whose journal is always in memory, passes.
    static func requireRollback(_ db: SQLiteConnection) throws {
        if let refusal = try refusal(db) { throw refusal }
    }

    /// The refusal of a connection whose journal cannot roll a failed migration back, nil when it can.
    static func refusal(_ db: SQLiteConnection) throws -> MigrationError? {
        guard let mode = try db.scalar("PRAGMA main.journal_mode")?.stringValue?.lowercased() else { return nil }
        let inMemoryDatabase = db.path.isEmpty || db.path == ":memory:"
        guard mode == "off" || (mode == "memory" && !inMemoryDatabase) else { return nil }
        let remedy =
            db.ownsHandle
            ? "take journal_mode = \(mode.uppercased()) out of the SQL environment (its prepareConnection hook, or the extension that sets it): the migration's connection needs a journal that rolls back (DELETE or WAL)"
            : "set PRAGMA journal_mode = DELETE (or WAL) on the connection before migrating, or call migrate(databaseAt:)"
        return MigrationError(
            .unsafeConnection,
            "the connection's journal_mode is \(mode.uppercased()): a failed migration could not be rolled back and might corrupt the file; nothing was done",
            remedy: remedy)
    }
}
