import DqliteClient
import SchemaMigrations

/// A dqlite database reached through its leader, the way the library reads and migrates a local
/// file (``MigrationDatabase``): the schema, the recorded version and metadata, other tools'
/// bookkeeping, and every statement of a migration's stages, custom code included.
///
/// Each statement goes as QUERY when it returns rows and as EXEC when it does not (dqlite refuses
/// the other way round). A statement the server refuses is thrown as the `SQLiteError` it
/// carries, so the library's handling of SQLite's errors applies unchanged; losing the connection
/// stays a `DqliteError` (``ClusterFailure`` tells it).
///
/// Custom code is watched from each statement's text: SQLite's authorizer runs on the leader,
/// out of reach, so the checks around the code cover every table (as on a borrowed connection).
final class ClusterDatabase: MigrationDatabase {
    let client: DqliteClient
    /// The database's name in the cluster, for messages.
    let path: String
    /// True while the migration's transaction is open; the migration sets it.
    var isInTransaction = false
    /// The rowid of the last row an EXEC inserted.
    private(set) var lastInsertRowID: Int64 = 0
    /// How many rows the last EXEC inserted, updated or deleted.
    private(set) var changes = 0
    /// Called with each statement's SQL before it is sent, while custom code runs.
    private var statementCheck: ((String) throws -> Void)?
    /// Told of each statement the leader ran, with its arguments and whether it went as QUERY
    /// (the measurements replay them).
    var onSend: ((_ sql: String, _ arguments: [SQLiteValue], _ asQuery: Bool) -> Void)?

    init(client: DqliteClient, name: String) {
        self.client = client
        self.path = name
    }

    /// Runs each statement of `sql` in its own request: a multi-statement EXEC_SQL was once seen
    /// run again from its start on a busy node.
    func execute(_ sql: String) throws {
        for statement in SQL.statements(in: sql) { try execute(statement, []) }
    }

    func execute(_ sql: String, _ arguments: [SQLiteValue]) throws {
        try statementCheck?(sql)
        _ = try send(
            sql, arguments, mayReturnRows: Self.mayReturnRows(sql),
            query: { try client.query(sql, $0) }, exec: { try client.exec(sql, $0) })
    }

    func rows(_ sql: String, _ arguments: [SQLiteValue]) throws -> [[SQLiteValue]] {
        try statementCheck?(sql)
        let rows = try translatingErrors {
            try client.query(sql, arguments.map(DqliteValue.init)).rows.map { $0.map(SQLiteValue.init) }
        }
        onSend?(sql, arguments, true)
        return rows
    }

    func prepareStatement(_ sql: String) throws -> any PreparedStatement {
        try statementCheck?(sql)
        let prepared = try translatingErrors { try client.prepare(sql) }
        return ClusterStatement(database: self, statement: prepared, mayReturnRows: Self.mayReturnRows(sql))
    }

    func compile(_ sql: String) throws {
        let prepared = try translatingErrors { try client.prepare(sql) }
        try translatingErrors { try client.finalize(prepared) }
    }

    func watchingCustomCode<T>(_ footprint: any CustomCodeWatcher, _ body: () throws -> T) throws -> T {
        try footprint.watchNothing(on: self)
        statementCheck = { try footprint.checkText($0) }
        defer { statementCheck = nil }
        return try body()
    }

    func withProgressHandler<T>(every instructions: Int32, _ handler: @escaping () -> Void, _ body: () throws -> T)
        rethrows -> T
    {
        try body()  // the statements run on the leader: no progress from inside them
    }

    var runningStatementFullScanSteps: Int { 0 }

    /// Runs a prepared statement, as ``send(_:_:mayReturnRows:query:exec:)`` says.
    func run(_ statement: DqliteStatement, _ arguments: [SQLiteValue], mayReturnRows: Bool) throws -> DqliteRows? {
        try send(
            statement.sql, arguments, mayReturnRows: mayReturnRows,
            query: { try client.query(statement, $0) }, exec: { try client.exec(statement, $0) })
    }

    /// One statement: as QUERY when it may return rows, then as EXEC when the server says it
    /// returns none (dqlite does not run a statement without result columns sent as QUERY, so
    /// nothing runs twice); as EXEC straight away otherwise.
    /// - Returns: the rows, or nil when it ran as EXEC.
    private func send(
        _ sql: String, _ arguments: [SQLiteValue], mayReturnRows: Bool,
        query: ([DqliteValue]) throws -> DqliteRows, exec: ([DqliteValue]) throws -> DqliteResult
    ) throws -> DqliteRows? {
        let values = arguments.map(DqliteValue.init)
        if mayReturnRows {
            do {
                let rows = try query(values)
                onSend?(sql, arguments, true)
                return rows
            } catch let error as DqliteError where error.code == .wrongStatementKind {
                // falls through to EXEC
            } catch let error as DqliteError {
                throw translated(error)
            }
        }
        let result = try translatingErrors { try exec(values) }
        onSend?(sql, arguments, false)
        lastInsertRowID = result.lastInsertedRowID
        changes = Int(result.changes)
        return nil
    }

    /// Releases a prepared statement on the leader, quietly: a lost connection released it already.
    func release(_ statement: DqliteStatement) {
        try? client.finalize(statement)
    }

    /// True unless the statement's first word says it returns no rows (`INSERT`, `UPDATE`,
    /// `DELETE`, `CREATE`… without `RETURNING`): those go straight to EXEC, the rest to QUERY first.
    /// A `PRAGMA` goes to QUERY first even when it sets a value: some answer with the value they
    /// set (`PRAGMA threads = 4` returns 4), which dqlite refuses as EXEC.
    static func mayReturnRows(_ sql: String) -> Bool {
        let words = sql.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") }).prefix(1)
        guard let first = words.first?.uppercased() else { return false }
        let noRows: Set<String> = [
            "INSERT", "UPDATE", "DELETE", "REPLACE", "CREATE", "DROP", "ALTER", "BEGIN", "COMMIT", "END",
            "ROLLBACK", "SAVEPOINT", "RELEASE", "ANALYZE", "REINDEX", "VACUUM", "ATTACH", "DETACH",
        ]
        guard noRows.contains(first) else { return true }
        return sql.uppercased().contains("RETURNING")
    }

    private func translatingErrors<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DqliteError {
            throw translated(error)
        }
    }

    /// A statement the server refused, as the `SQLiteError` it carries; anything else (the
    /// connection lost, no leader) as it is.
    private func translated(_ error: DqliteError) -> Error {
        guard !ClusterFailure.leaderUnavailable.contains(error.code), error.code != .commitOutcomeUnknown,
            let code = error.sqliteCode
        else { return error }
        return SQLiteError(extendedCode: Int32(truncatingIfNeeded: code), message: error.message, sql: error.sql)
    }
}

extension DqliteValue {
    /// The same value, to send to a dqlite node.
    public init(_ value: SQLiteValue) {
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
    /// The same value, as a dqlite node sent it.
    public init(_ value: DqliteValue) {
        switch value {
        case .null: self = .null
        case .integer(let integer): self = .integer(integer)
        case .real(let real): self = .real(real)
        case .text(let text): self = .text(text)
        case .blob(let bytes): self = .blob(bytes)
        }
    }
}
