import DqliteClient
import SchemaMigrations

/// A dqlite database read through its leader, the way the library's readers read a local file
/// (``SQLQuerying``): the schema, the recorded version and metadata, other tools' bookkeeping.
/// Each statement goes as QUERY when it returns rows and as EXEC when it does not (dqlite
/// refuses the other way round); a statement the server refuses is thrown as the `SQLiteError`
/// it carries, so the readers' handling of SQLite's errors applies unchanged. Losing the
/// connection stays a `DqliteError` (``ClusterFailure`` tells it).
final class ClusterDatabase: SQLQuerying {
    let client: DqliteClient
    /// The database's name in the cluster, for messages.
    let path: String

    init(client: DqliteClient, name: String) {
        self.client = client
        self.path = name
    }

    func execute(_ sql: String) throws {
        try translatingErrors { _ = try client.exec(sql) }
    }

    func execute(_ sql: String, _ arguments: [SQLiteValue]) throws {
        try translatingErrors { _ = try client.exec(sql, arguments.map(DqliteValue.init)) }
    }

    func rows(_ sql: String, _ arguments: [SQLiteValue]) throws -> [[SQLiteValue]] {
        try translatingErrors { try client.query(sql, arguments.map(DqliteValue.init)).rows.map { $0.map(SQLiteValue.init) } }
    }

    private func translatingErrors<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DqliteError where !ClusterFailure.leaderUnavailable.contains(error.code) && error.code != .commitOutcomeUnknown {
            guard let code = error.sqliteCode else { throw error }
            throw SQLiteError(extendedCode: Int32(truncatingIfNeeded: code), message: error.message, sql: error.sql)
        }
    }
}

extension DqliteValue {
    init(_ value: SQLiteValue) {
        switch value {
        case .null: self = .null
        case .integer(let integer): self = .integer(integer)
        case .real(let real): self = .real(real)
        case .text(let text): self = .text(text)
        case .blob(let bytes): self = .blob(bytes)
        }
    }
}

extension SQLiteValue {
    init(_ value: DqliteValue) {
        switch value {
        case .null: self = .null
        case .integer(let integer): self = .integer(integer)
        case .real(let real): self = .real(real)
        case .text(let text): self = .text(text)
        case .blob(let bytes): self = .blob(bytes)
        }
    }
}
