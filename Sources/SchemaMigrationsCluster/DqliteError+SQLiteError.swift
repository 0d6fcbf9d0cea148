import DqliteClient
import SchemaMigrations

/// A leader's refusal carries SQLite's code and message: a `MigrationError` caused by it prints
/// them as SQLite's error, as it does for a local file.
extension DqliteError: SQLiteErrorCarrying {
    package var sqliteError: SQLiteError? {
        sqliteCode.map { SQLiteError(extendedCode: Int32(truncatingIfNeeded: $0), message: message, sql: sql) }
    }
}
