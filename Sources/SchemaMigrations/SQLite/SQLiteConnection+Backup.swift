import CSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension SQLiteConnection {
    /// Copies the whole database to a file at `path` with SQLite's online backup API.
    /// - Parameter progress: called with pages done and pages in all as the copy goes (it then
    ///   copies 1,024 pages at a time); nil to copy in one pass.
    /// - Throws: `SQLiteError` when the destination cannot be written.
    /// Related SQLite documentation: <https://www.sqlite.org/backup.html>
    ///
    /// The copy is written to a temporary file beside `path` without a journal (nobody else can
    /// see that file), flushed to disk once, then renamed to `path`: a crash leaves either no
    /// backup or a whole one, for two flushes instead of SQLite's four for a journaled copy.
    package func backup(toPath path: String, progress: ((_ pagesDone: Int, _ pagesTotal: Int) -> Void)? = nil) throws {
        let partial = path + ".partial-\(UInt32.random(in: 0...UInt32.max))"
        do {
            try copyUnjournaled(to: partial, progress: progress)
            try SQLiteConnection.flush(partial)
            guard rename(partial, path) == 0 else {
                throw SQLiteError(
                    extendedCode: SQLITE_CANTOPEN,
                    message: "backup failed: cannot rename the copy to '\(path)': " + String(cString: strerror(errno)))
            }
        } catch {
            unlink(partial)
            throw error
        }
        // Makes the rename durable where the file system can (some refuse fsync on a directory,
        // EINVAL); the backup itself was flushed before its rename, and is complete either way.
        try? SQLiteConnection.flush(URL(fileURLWithPath: path).deletingLastPathComponent().path)
    }

    /// Copies into a new file at `path`, its connection closed on return.
    private func copyUnjournaled(to path: String, progress: ((Int, Int) -> Void)?) throws {
        let destination = try SQLiteConnection(path: path, mode: .readWriteCreate, busyTimeout: busyTimeout)
        try destination.execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF")
        try backup(into: destination, progress: progress)
    }

    /// `fsync` of a file or directory, so that what was written (or renamed) survives a crash.
    private static func flush(_ path: String) throws {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            throw SQLiteError(extendedCode: SQLITE_IOERR, message: "cannot open '\(path)' to flush it")
        }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else {
            throw SQLiteError(
                extendedCode: SQLiteResultCode.ioErrorFsync.rawValue, message: "cannot flush '\(path)' to disk")
        }
    }

    /// Copies the whole database into another open connection's main database.
    /// - Parameter progress: as in ``backup(toPath:progress:)``.
    package func backup(
        into destination: SQLiteConnection, progress: ((_ pagesDone: Int, _ pagesTotal: Int) -> Void)? = nil
    ) throws {
        guard let backup = sqlite3_backup_init(destination.handle, "main", handle, "main") else {
            throw destination.lastError(code: sqlite3_errcode(destination.handle), sql: nil)
        }
        var code: Int32
        if let progress {
            repeat {
                code = sqlite3_backup_step(backup, 1024)
                let total = Int(sqlite3_backup_pagecount(backup))
                if code == SQLITE_OK || code == SQLITE_DONE {
                    progress(total - Int(sqlite3_backup_remaining(backup)), total)
                }
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
