import CSQLite

extension SQLiteConnection {
    /// Copies the whole database to a file at `path` with SQLite's online backup API, in one pass.
    /// - Throws: `SQLiteError` when the destination cannot be written.
    /// Related SQLite documentation: <https://www.sqlite.org/backup.html>
    public func backup(toPath path: String) throws {
        let destination = try SQLiteConnection(path: path, mode: .readWriteCreate, busyTimeout: busyTimeout)
        try backup(into: destination)
    }

    /// Copies the whole database into another open connection's main database.
    public func backup(into destination: SQLiteConnection) throws {
        guard let backup = sqlite3_backup_init(destination.handle, "main", handle, "main") else {
            throw destination.lastError(code: sqlite3_errcode(destination.handle), sql: nil)
        }
        let code = sqlite3_backup_step(backup, -1)
        sqlite3_backup_finish(backup)
        if code != SQLITE_DONE {
            throw SQLiteError(extendedCode: code, message: "backup failed: " + String(cString: sqlite3_errstr(code)))
        }
    }
}
