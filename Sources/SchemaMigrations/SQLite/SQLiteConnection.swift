import CSQLite

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An open SQLite database connection: a thin owner of a `sqlite3*` handle.
///
/// ```swift
/// let db = try SQLiteConnection(path: "/tmp/app.sqlite", mode: .readWriteCreate)
/// try db.execute("CREATE TABLE t(x)")
/// let count = try db.scalar("SELECT count(*) FROM t")?.int64Value
/// ```
///
/// A connection is not thread-safe: use it from one thread (or task) at a time.
/// Related SQLite documentation: <https://www.sqlite.org/c3ref/open.html>
package final class SQLiteConnection {
    /// How to open the file.
    package enum OpenMode: Sendable {
        /// Read only: any write fails with `SQLITE_READONLY`.
        case readOnly
        /// Read and write an existing file; a missing file is an error.
        case readWrite
        /// Read and write, creating the file when it does not exist.
        case readWriteCreate
    }

    /// The raw handle, for interoperation with other SQLite code.
    package let handle: OpaquePointer
    /// The path the connection was opened with.
    package let path: String
    /// False for a connection made with ``init(borrowing:)``, whose settings are the owner's.
    let ownsHandle: Bool
    /// Told about each statement compiled while installed (``observingAccess(_:_:)``).
    var accessObserver: SQLiteAccessObserver?
    /// Told about every statement run and value bound while recording (``startRecording(into:)``).
    var recorder: StatementRecorder?
    /// Set by ``Migrator/open(_:mode:readTransaction:)`` when it left the connection inside the
    /// read transaction its opening check began, for the up-to-date check to read in and end.
    var holdsOpeningReadTransaction = false
    /// The live schema's last read on this connection (``SQLQuerying/schemaCache``).
    package var schemaCache: AnyObject?

    /// Opens the database at `path`.
    /// - Parameters:
    ///   - path: a file path, or `":memory:"`.
    ///   - mode: read-only, read-write, or read-write-create.
    ///   - busyTimeout: how long to wait for another connection's lock before failing with `SQLITE_BUSY`.
    ///   - vfs: the name of a registered SQLite VFS to open the file through, or nil for the default one.
    /// - Throws: `SQLiteError` when the file cannot be opened.
    /// Related SQLite documentation: <https://www.sqlite.org/vfs.html>
    package init(path: String, mode: OpenMode = .readWriteCreate, busyTimeout: TimeInterval = 5, vfs: String? = nil)
        throws
    {
        var flags: Int32 = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI
        switch mode {
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        case .readWrite: flags |= SQLITE_OPEN_READWRITE
        case .readWriteCreate: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        }
        var raw: OpaquePointer?
        let code = sqlite3_open_v2(path, &raw, flags, vfs)
        guard let raw else {
            throw SQLiteError(extendedCode: code, message: "cannot open \(path)")
        }
        if code != SQLITE_OK {
            let error = SQLiteError(
                extendedCode: sqlite3_extended_errcode(raw),
                message: String(cString: sqlite3_errmsg(raw)) + " (\(path))")
            sqlite3_close_v2(raw)
            throw error
        }
        sqlite3_extended_result_codes(raw, 1)
        self.handle = raw
        self.path = path
        self.ownsHandle = true
        self.busyTimeout = busyTimeout
        // An initializer's assignment does not run `didSet`: set SQLite's busy handler here too.
        sqlite3_busy_timeout(raw, SQLiteConnection.milliseconds(busyTimeout))
    }

    /// Wraps a handle the caller already owns (for example GRDB's). The handle is not closed by this object.
    package init(borrowing handle: OpaquePointer) {
        self.handle = handle
        self.path = sqlite3_db_filename(handle, "main").map { String(cString: $0) } ?? ""
        self.ownsHandle = false
        sqlite3_extended_result_codes(handle, 1)
    }

    deinit {
        if ownsHandle { sqlite3_close_v2(handle) }
    }

    /// How long a statement waits for another connection's lock before failing with `SQLITE_BUSY`.
    package var busyTimeout: TimeInterval = 0 {
        didSet { sqlite3_busy_timeout(handle, SQLiteConnection.milliseconds(busyTimeout)) }
    }

    /// True when the connection was opened read-only (or the file is not writable).
    package var isReadOnly: Bool { sqlite3_db_readonly(handle, "main") == 1 }

    /// True outside an explicit transaction.
    package var isAutocommit: Bool { sqlite3_get_autocommit(handle) != 0 }

    /// The version of the SQLite library in use, as `3_040_001` for 3.40.1.
    package static var libraryVersionNumber: Int32 { sqlite3_libversion_number() }

    /// Runs one or more statements separated by semicolons, discarding any rows.
    /// - Throws: `SQLiteError` naming the statement that failed.
    package func execute(_ sql: String) throws {
        var remaining = Substring(sql)
        while true {
            let trimmed = remaining.trimmingWhitespace()
            if trimmed.isEmpty { return }
            var tail = ""
            guard let statement = try prepareFirst(String(remaining), tail: &tail) else { return }
            _ = try statement.step()
            remaining = Substring(tail)
        }
    }

    /// Runs one statement with arguments, discarding any rows.
    package func execute(_ sql: String, _ arguments: [SQLiteValue]) throws {
        let statement = try prepare(sql)
        try statement.bind(arguments)
        while try statement.step() {}
    }

    /// Prepares one statement.
    package func prepare(_ sql: String) throws -> SQLiteStatement {
        var tail = ""
        guard let statement = try prepareFirst(sql, tail: &tail) else {
            throw SQLiteError(extendedCode: SQLITE_MISUSE, message: "no statement to prepare", sql: sql)
        }
        return statement
    }

    /// All rows of a query, each as an array of values in column order.
    package func rows(_ sql: String, _ arguments: [SQLiteValue] = []) throws -> [[SQLiteValue]] {
        let statement = try prepare(sql)
        try statement.bind(arguments)
        var result: [[SQLiteValue]] = []
        while try statement.step() { result.append(statement.row()) }
        return result
    }

    /// The first column of the first row of a query, or nil when it returns no row.
    package func scalar(_ sql: String, _ arguments: [SQLiteValue] = []) throws -> SQLiteValue? {
        let statement = try prepare(sql)
        try statement.bind(arguments)
        return try statement.step() ? statement.column(0) : nil
    }

    /// The rowid of the last row inserted on this connection.
    package var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// The number of rows the last INSERT, UPDATE or DELETE changed.
    package var changes: Int { Int(sqlite3_changes64(handle)) }

    /// SQLite's last error on this connection, with the given SQL.
    func lastError(code: Int32, sql: String?) -> SQLiteError {
        let extended = sqlite3_extended_errcode(handle)
        return SQLiteError(
            extendedCode: extended != 0 ? extended : code, message: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }

    private func prepareFirst(_ sql: String, tail: inout String) throws -> SQLiteStatement? {
        var raw: OpaquePointer?
        var tailOut = ""
        let code: Int32 = sql.withCString { cSQL in
            var tailPointer: UnsafePointer<CChar>?
            let code = sqlite3_prepare_v2(handle, cSQL, -1, &raw, &tailPointer)
            if let tailPointer { tailOut = String(cString: tailPointer) }
            return code
        }
        tail = tailOut
        if code != SQLITE_OK, let denial = accessObserver?.denial {
            accessObserver?.denial = nil
            throw denial
        }
        guard code == SQLITE_OK else {
            throw lastError(code: code, sql: sql.trimmingWhitespace())
        }
        guard let raw else { return nil }  // only whitespace or comments
        let statement = SQLiteStatement(handle: raw, connection: self)
        if accessObserver != nil { try notifyPrepared(statement) }
        return statement
    }

    /// A busy timeout as SQLite takes it: whole milliseconds in an `int`. Negative and NaN wait
    /// not at all; anything past `Int32.max` milliseconds (about 24.8 days), infinity included,
    /// waits that long.
    static func milliseconds(_ seconds: TimeInterval) -> Int32 {
        guard seconds > 0 else { return 0 }
        return seconds * 1000 >= Double(Int32.max) ? Int32.max : Int32(seconds * 1000)
    }
}
