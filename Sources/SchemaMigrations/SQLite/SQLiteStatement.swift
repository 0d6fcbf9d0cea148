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

/// A prepared statement, finalized when released.
///
/// ```swift
/// let insert = try db.prepare("INSERT INTO trip(name) VALUES (?)")
/// for name in names {
///     insert.reset()
///     try insert.bind([.text(name)])
///     _ = try insert.step()
/// }
/// ```
/// Related SQLite documentation: <https://www.sqlite.org/c3ref/stmt.html>
package final class SQLiteStatement {
    let handle: OpaquePointer
    private unowned let connection: SQLiteConnection

    /// The connection's recorder when the statement was prepared: told the values bound, so the
    /// statement can be written with them (no lookup through the connection on each bind).
    private let recorder: StatementRecorder?

    init(handle: OpaquePointer, connection: SQLiteConnection) {
        self.handle = handle
        self.connection = connection
        self.recorder = connection.recorder
        recorder?.clearBindings(of: handle)  // a finalized statement's handle may be reused
    }

    deinit { sqlite3_finalize(handle) }

    /// The statement's SQL text.
    package var sql: String { String(cString: sqlite3_sql(handle)) }

    /// The statement's SQL text as SQLite holds it, valid while the statement lives: no copy.
    var sqlText: UnsafeBufferPointer<CChar> {
        guard let text = sqlite3_sql(handle) else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(start: text, count: strlen(text))
    }

    /// The number of result columns.
    package var columnCount: Int { Int(sqlite3_column_count(handle)) }

    /// The largest parameter index: `?` and `?NNN` and named parameters alike.
    package var parameterCount: Int? { Int(sqlite3_bind_parameter_count(handle)) }

    /// The name of result column `index`.
    package func columnName(_ index: Int) -> String { String(cString: sqlite3_column_name(handle, Int32(index))) }

    /// True when the statement only reads (SELECT, most PRAGMAs).
    package var isReadOnly: Bool { sqlite3_stmt_readonly(handle) != 0 }

    /// Binds positional arguments (`?`), starting at 1.
    package func bind(_ values: [SQLiteValue]) throws {
        for (offset, value) in values.enumerated() {
            try bind(value, at: offset + 1)
        }
    }

    /// Binds one value at a 1-based parameter index.
    package func bind(_ value: SQLiteValue, at index: Int) throws {
        let position = Int32(index)
        recorder?.bind(value, at: position, of: handle)
        let code: Int32
        switch value {
        case .null: code = sqlite3_bind_null(handle, position)
        case .integer(let value): code = sqlite3_bind_int64(handle, position, value)
        case .real(let value): code = sqlite3_bind_double(handle, position, value)
        case .text(var value):
            // By length, not up to the first NUL: text may hold one.
            code = value.withUTF8 { utf8 in
                guard let base = utf8.baseAddress, utf8.count > 0 else {
                    return sqlite3_bind_text(handle, position, "", 0, schemamigrations_sqlite_transient())
                }
                return base.withMemoryRebound(to: CChar.self, capacity: utf8.count) {
                    sqlite3_bind_text(handle, position, $0, Int32(utf8.count), schemamigrations_sqlite_transient())
                }
            }
        case .blob(let bytes):
            code = bytes.withUnsafeBytes { buffer in
                sqlite3_bind_blob(
                    handle, position, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(buffer.count),
                    schemamigrations_sqlite_transient())
            }
        }
        if code != SQLITE_OK { throw connection.lastError(code: code, sql: sql) }
    }

    /// Advances to the next row.
    /// - Returns: true when a row is available, false when the statement is done.
    @discardableResult
    package func step() throws -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw connection.lastError(code: code, sql: sql)
        }
    }

    /// Resets the statement so it can run again, and clears its bindings.
    package func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        recorder?.clearBindings(of: handle)
    }

    /// The value of column `index` in the current row.
    package func column(_ index: Int) -> SQLiteValue {
        let position = Int32(index)
        switch sqlite3_column_type(handle, position) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, position))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, position))
        case SQLITE_TEXT:
            // By length, not up to the first NUL: text may hold one, and no strlen is needed.
            guard let text = sqlite3_column_text(handle, position) else { return .text("") }
            return .text(
                String(
                    decoding: UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(handle, position))),
                    as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(handle, position))
            guard count > 0, let pointer = sqlite3_column_blob(handle, position) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: pointer, count: count)))
        default: return .null
        }
    }

    /// The current row's values in column order.
    package func row() -> [SQLiteValue] { (0..<columnCount).map(column) }
}
