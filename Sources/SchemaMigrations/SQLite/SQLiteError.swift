import CSQLite

/// An error SQLite reported, with everything needed to understand it.
///
/// Prints as `SQLite error 2067 (SQLITE_CONSTRAINT_UNIQUE): UNIQUE constraint failed: Trip.name - while executing `INSERT …``.
///
/// ```swift
/// catch let error as SQLiteError where error.resultCode ~= .constraint { … }
/// ```
///
/// Related SQLite documentation: <https://www.sqlite.org/rescode.html>
public struct SQLiteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The extended result code (for example 2067, `SQLITE_CONSTRAINT_UNIQUE`): its name and its
    /// primary code (19, `SQLITE_CONSTRAINT`) are properties of the code.
    public let resultCode: SQLiteResultCode
    /// SQLite's own message (`sqlite3_errmsg`).
    public let message: String
    /// The SQL being prepared or run when the error happened, if any.
    public let sql: String?

    /// True when another connection holds a lock that kept this one waiting past its busy timeout.
    public var isBusy: Bool { resultCode.primary == .busy || resultCode.primary == .locked }

    /// SQLite's error `resultCode` with its message, and the statement that failed.
    public init(resultCode: SQLiteResultCode, message: String, sql: String? = nil) {
        self.resultCode = resultCode
        self.message = message
        self.sql = sql
    }

    /// An error with the code as SQLite's C API returns it.
    package init(extendedCode: Int32, message: String, sql: String? = nil) {
        self.init(resultCode: SQLiteResultCode(rawValue: extendedCode), message: message, sql: sql)
    }

    /// `SQLite error CODE (NAME): message`, and the statement that failed.
    public var description: String {
        var text = "SQLite error \(resultCode.rawValue) (\(resultCode)): \(message)"
        if let sql { text += " - while executing `\(sql)`" }
        return text
    }
}
