import CSQLite

/// A SQLite result code, primary or extended, named rather than written as a number.
///
/// A primary code matches every extended code of its kind in a `switch` or `~=`:
/// `case .busy:` matches `SQLITE_BUSY_TIMEOUT` (773) as well as `SQLITE_BUSY` (5).
///
/// Related SQLite documentation: <https://www.sqlite.org/rescode.html>
public struct SQLiteResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The extended result code, as SQLite returns it.
    public let rawValue: Int32
    /// The result code `rawValue`.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The primary code: the low 8 bits of an extended one.
    public var primary: SQLiteResultCode { SQLiteResultCode(rawValue: rawValue & 0xFF) }
    /// Whether this is an extended code rather than a primary one.
    public var isExtended: Bool { rawValue > 0xFF }
    /// The name in SQLite's documentation: `SQLITE_CONSTRAINT_UNIQUE`.
    public var description: String {
        Self.extendedNames[rawValue] ?? Self.primaryNames[rawValue & 0xFF] ?? "SQLITE_\(rawValue)"
    }

    /// `SQLITE_ERROR`: a generic error (a syntax error, a missing table…).
    public static let error = SQLiteResultCode(rawValue: SQLITE_ERROR)
    /// `SQLITE_BUSY`: another connection holds a lock this one waited for in vain.
    public static let busy = SQLiteResultCode(rawValue: SQLITE_BUSY)
    /// `SQLITE_LOCKED`: a lock conflict within the same connection or shared cache.
    public static let locked = SQLiteResultCode(rawValue: SQLITE_LOCKED)
    /// `SQLITE_READONLY`: a write to a database opened, or only writable, read-only.
    public static let readOnly = SQLiteResultCode(rawValue: SQLITE_READONLY)
    /// `SQLITE_IOERR`: the operating system reported an I/O error.
    public static let ioError = SQLiteResultCode(rawValue: SQLITE_IOERR)
    /// `SQLITE_CORRUPT`: the file's content is damaged.
    public static let corrupt = SQLiteResultCode(rawValue: SQLITE_CORRUPT)
    /// `SQLITE_FULL`: the disk (or a size limit) is full.
    public static let full = SQLiteResultCode(rawValue: SQLITE_FULL)
    /// `SQLITE_CANTOPEN`: the file or its journal cannot be opened.
    public static let cannotOpen = SQLiteResultCode(rawValue: SQLITE_CANTOPEN)
    /// `SQLITE_CONSTRAINT`: a constraint refused a write.
    public static let constraint = SQLiteResultCode(rawValue: SQLITE_CONSTRAINT)
    /// `SQLITE_MISUSE`: the library was used wrongly.
    public static let misuse = SQLiteResultCode(rawValue: SQLITE_MISUSE)
    /// `SQLITE_AUTH`: an authorizer denied the statement.
    public static let notAuthorized = SQLiteResultCode(rawValue: SQLITE_AUTH)
    /// `SQLITE_NOTADB`: the file is not a SQLite database.
    public static let notADatabase = SQLiteResultCode(rawValue: SQLITE_NOTADB)

    /// `SQLITE_READONLY_ROLLBACK`: a hot journal that a read-only connection cannot replay.
    public static let readOnlyRollback = SQLiteResultCode(rawValue: 776)
    /// `SQLITE_READONLY_DIRECTORY`: the database's directory cannot be written (no journal there).
    public static let readOnlyDirectory = SQLiteResultCode(rawValue: 1544)
    /// `SQLITE_IOERR_FSYNC`: flushing a file to disk failed.
    public static let ioErrorFsync = SQLiteResultCode(rawValue: 1034)
    /// `SQLITE_CONSTRAINT_DATATYPE`: a STRICT table's column refused a value of another type.
    public static let constraintDatatype = SQLiteResultCode(rawValue: 3091)
    /// `SQLITE_CONSTRAINT_UNIQUE`: a UNIQUE constraint or unique index met a value twice.
    public static let constraintUnique = SQLiteResultCode(rawValue: 2067)

    /// Whether the code says the file is damaged or not a database at all: what
    /// `PRAGMA quick_check` reports as findings, as opposed to an error reading the file.
    public var isDamage: Bool { primary == .corrupt || primary == .notADatabase }

    /// Matches `code` against `pattern`: a primary pattern matches every extended code of its
    /// kind, an extended pattern only itself.
    public static func ~= (pattern: SQLiteResultCode, code: SQLiteResultCode) -> Bool {
        pattern.isExtended ? pattern == code : pattern == code.primary
    }
}

extension SQLiteResultCode {
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
