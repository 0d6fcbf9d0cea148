import CSQLite

extension SQLiteConnection {
    /// Copies the whole database to a file at `path` with SQLite's online backup API.
    /// - Parameter progress: called with pages done and pages in all as the copy goes (it then
    ///   copies 1,024 pages at a time); nil to copy in one pass.
    /// - Throws: `SQLiteError` when the destination cannot be written.
    /// Related SQLite documentation: <https://www.sqlite.org/backup.html>
    public func backup(toPath path: String, progress: ((_ pagesDone: Int, _ pagesTotal: Int) -> Void)? = nil) throws {
        let destination = try SQLiteConnection(path: path, mode: .readWriteCreate, busyTimeout: busyTimeout)
        try backup(into: destination, progress: progress)
    }

    /// Copies the whole database into another open connection's main database.
    /// - Parameter progress: as in ``backup(toPath:progress:)``.
    public func backup(into destination: SQLiteConnection, progress: ((_ pagesDone: Int, _ pagesTotal: Int) -> Void)? = nil) throws {
        guard let backup = sqlite3_backup_init(destination.handle, "main", handle, "main") else {
            throw destination.lastError(code: sqlite3_errcode(destination.handle), sql: nil)
        }
        var code: Int32
        if let progress {
            repeat {
                code = sqlite3_backup_step(backup, 1024)
                let total = Int(sqlite3_backup_pagecount(backup))
                if code == SQLITE_OK || code == SQLITE_DONE { progress(total - Int(sqlite3_backup_remaining(backup)), total) }
            } while code == SQLITE_OK
        } else {
            code = sqlite3_backup_step(backup, -1)
        }
        sqlite3_backup_finish(backup)
        if code != SQLITE_DONE {
            throw SQLiteError(extendedCode: code, message: "backup failed: " + String(cString: sqlite3_errstr(code)))
        }
    }
}
