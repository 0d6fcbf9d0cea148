import CSQLite

/// An error SQLite reported, with everything needed to understand it.
///
/// Prints as `SQLite error 2067 (SQLITE_CONSTRAINT_UNIQUE): UNIQUE constraint failed: Trip.name - while executing `INSERT …``.
///
/// Related SQLite documentation: <https://www.sqlite.org/rescode.html>
public struct SQLiteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The extended result code (for example 2067, `SQLITE_CONSTRAINT_UNIQUE`).
    public let extendedCode: Int32
    /// SQLite's own message (`sqlite3_errmsg`).
    public let message: String
    /// The SQL being prepared or run when the error happened, if any.
    public let sql: String?

    /// The primary result code (the low 8 bits of the extended code), for example 19 `SQLITE_CONSTRAINT`.
    public var primaryCode: Int32 { extendedCode & 0xFF }

    /// The symbolic name of the extended code, as SQLite's documentation spells it.
    public var codeName: String { SQLiteError.name(of: extendedCode) }

    /// True when another connection holds a lock that kept this one waiting past its busy timeout.
    public var isBusy: Bool { resultCode.primary == .busy || resultCode.primary == .locked }

    public init(extendedCode: Int32, message: String, sql: String? = nil) {
        self.extendedCode = extendedCode
        self.message = message
        self.sql = sql
    }

    public var description: String {
        var text = "SQLite error \(extendedCode) (\(codeName)): \(message)"
        if let sql { text += " - while executing `\(sql)`" }
        return text
    }

    static func name(of code: Int32) -> String {
        return extendedNames[code] ?? primaryNames[code & 0xFF] ?? "SQLITE_\(code)"
    }

    private static let primaryNames: [Int32: String] = [
        0: "SQLITE_OK", 1: "SQLITE_ERROR", 2: "SQLITE_INTERNAL", 3: "SQLITE_PERM", 4: "SQLITE_ABORT",
        5: "SQLITE_BUSY", 6: "SQLITE_LOCKED", 7: "SQLITE_NOMEM", 8: "SQLITE_READONLY", 9: "SQLITE_INTERRUPT",
        10: "SQLITE_IOERR", 11: "SQLITE_CORRUPT", 12: "SQLITE_NOTFOUND", 13: "SQLITE_FULL", 14: "SQLITE_CANTOPEN",
        15: "SQLITE_PROTOCOL", 16: "SQLITE_EMPTY", 17: "SQLITE_SCHEMA", 18: "SQLITE_TOOBIG", 19: "SQLITE_CONSTRAINT",
        20: "SQLITE_MISMATCH", 21: "SQLITE_MISUSE", 22: "SQLITE_NOLFS", 23: "SQLITE_AUTH", 24: "SQLITE_FORMAT",
        25: "SQLITE_RANGE", 26: "SQLITE_NOTADB", 27: "SQLITE_NOTICE", 28: "SQLITE_WARNING",
    ]

    private static let extendedNames: [Int32: String] = [
        261: "SQLITE_BUSY_RECOVERY", 517: "SQLITE_BUSY_SNAPSHOT", 773: "SQLITE_BUSY_TIMEOUT",
        262: "SQLITE_LOCKED_SHAREDCACHE", 264: "SQLITE_READONLY_RECOVERY", 520: "SQLITE_READONLY_CANTLOCK",
        776: "SQLITE_READONLY_ROLLBACK", 1032: "SQLITE_READONLY_DBMOVED", 266: "SQLITE_IOERR_READ",
        522: "SQLITE_IOERR_SHORT_READ", 778: "SQLITE_IOERR_WRITE", 1034: "SQLITE_IOERR_FSYNC",
        3338: "SQLITE_IOERR_LOCK", 267: "SQLITE_CORRUPT_VTAB", 270: "SQLITE_CANTOPEN_NOTEMPDIR",
        526: "SQLITE_CANTOPEN_ISDIR", 275: "SQLITE_CONSTRAINT_CHECK", 531: "SQLITE_CONSTRAINT_COMMITHOOK",
        787: "SQLITE_CONSTRAINT_FOREIGNKEY", 1043: "SQLITE_CONSTRAINT_FUNCTION", 1299: "SQLITE_CONSTRAINT_NOTNULL",
        1555: "SQLITE_CONSTRAINT_PRIMARYKEY", 1811: "SQLITE_CONSTRAINT_TRIGGER", 2067: "SQLITE_CONSTRAINT_UNIQUE",
        2323: "SQLITE_CONSTRAINT_VTAB", 2579: "SQLITE_CONSTRAINT_ROWID", 516: "SQLITE_ABORT_ROLLBACK",
    ]
}
