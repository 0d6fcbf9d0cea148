import DqliteClient
import SchemaMigrations

/// A statement prepared on the leader (``ClusterDatabase/prepareStatement(_:)``), for a custom
/// stage's loops: compiled once, then each run sends only its id and arguments. A run that returns
/// rows gathers them all at once (dqlite sends them in batches); ``step()`` then walks them.
/// Its columns are known once it ran. Released on the leader when it goes away.
final class ClusterStatement: PreparedStatement {
    private let database: ClusterDatabase
    private let statement: DqliteStatement
    private let mayReturnRows: Bool
    private var arguments: [SQLiteValue] = []
    private var result: DqliteRows?
    private var ran = false
    private var position = -1

    init(database: ClusterDatabase, statement: DqliteStatement, mayReturnRows: Bool) {
        self.database = database
        self.statement = statement
        self.mayReturnRows = mayReturnRows
    }

    deinit { database.release(statement) }

    var sql: String { statement.sql }
    var columnCount: Int { result?.columns.count ?? 0 }
    var parameterCount: Int? { statement.parameterCount }
    func columnName(_ index: Int) -> String { result?.columns[index] ?? "" }

    func bind(_ values: [SQLiteValue]) throws {
        reset()
        for (offset, value) in values.enumerated() { try bind(value, at: offset + 1) }
    }

    /// - Throws: `SQLiteError` `SQLITE_RANGE` for an index the statement has no parameter at, as
    ///   SQLite's own binding does.
    func bind(_ value: SQLiteValue, at index: Int) throws {
        reset()
        guard (1...max(1, statement.parameterCount)).contains(index), statement.parameterCount > 0 else {
            // SQLITE_RANGE
            throw SQLiteError(extendedCode: 25, message: "column index out of range", sql: statement.sql)
        }
        if arguments.count < index { arguments += Array(repeating: .null, count: index - arguments.count) }
        arguments[index - 1] = value
    }

    @discardableResult
    func step() throws -> Bool {
        if !ran {
            ran = true
            result = try database.run(statement, arguments, mayReturnRows: mayReturnRows)
        }
        position += 1
        return position < (result?.rows.count ?? 0)
    }

    func column(_ index: Int) -> SQLiteValue { SQLiteValue(result!.rows[position][index]) }

    func reset() {
        ran = false
        position = -1
    }
}
