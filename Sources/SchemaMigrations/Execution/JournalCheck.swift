/// A migration's all-or-nothing promise rests on SQLite's rollback journal (or WAL): with
/// `journal_mode=OFF` a failed migration cannot be rolled back at all, and with `MEMORY` the
/// journal is lost with the process and a large transaction that spills pages to the file
/// before failing can leave it corrupt. The package's own connections never use either; a
/// connection passed to `migrate(connection:)` is checked before anything runs.
///
/// Related SQLite documentation: <https://www.sqlite.org/pragma.html#pragma_journal_mode>
enum JournalCheck {
    /// - Throws: `MigrationError` (code `unsafeConnection`) when the connection's journal cannot
    ///   roll a failed migration back. An in-memory database, whose journal is always in memory, passes.
    static func requireRollback(_ db: SQLiteConnection) throws {
        guard let mode = try db.scalar("PRAGMA main.journal_mode")?.stringValue?.lowercased() else { return }
        let inMemoryDatabase = db.path.isEmpty || db.path == ":memory:"
        guard mode == "off" || (mode == "memory" && !inMemoryDatabase) else { return }
        throw MigrationError(
            .unsafeConnection,
            "the connection's journal_mode is \(mode.uppercased()): a failed migration could not be rolled back and might corrupt the file; nothing was done",
            remedy:
                "set PRAGMA journal_mode = DELETE (or WAL) on the connection before migrating, or call migrate(databaseAt:)"
        )
    }
}
