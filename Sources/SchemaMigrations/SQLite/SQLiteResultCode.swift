import CSQLite

/// A SQLite result code, primary or extended, named rather than written as a number.
///
/// A primary code matches every extended code of its kind in a `switch` or `~=`:
/// `case .busy:` matches `SQLITE_BUSY_TIMEOUT` (773) as well as `SQLITE_BUSY` (5).
///
/// Related SQLite documentation: <https://www.sqlite.org/rescode.html>
public struct SQLiteResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The primary code: the low 8 bits of an extended one.
    public var primary: SQLiteResultCode { SQLiteResultCode(rawValue: rawValue & 0xFF) }
    /// Whether this is an extended code rather than a primary one.
    public var isExtended: Bool { rawValue > 0xFF }
    /// The name in SQLite's documentation: `SQLITE_CONSTRAINT_UNIQUE`.
    public var description: String { SQLiteError.name(of: rawValue) }

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

    /// Whether the code says the file is damaged or not a database at all: what
    /// `PRAGMA quick_check` reports as findings, as opposed to an error reading the file.
    public var isDamage: Bool { primary == .corrupt || primary == .notADatabase }

    /// Matches `code` against `pattern`: a primary pattern matches every extended code of its
    /// kind, an extended pattern only itself.
    public static func ~= (pattern: SQLiteResultCode, code: SQLiteResultCode) -> Bool {
        pattern.isExtended ? pattern == code : pattern == code.primary
    }
}

extension SQLiteError {
    /// The extended result code, typed.
    public var resultCode: SQLiteResultCode { SQLiteResultCode(rawValue: extendedCode) }
}
