/// What running a migration needs from a connection, beyond reading (``SQLQuerying``): prepared
/// statements for custom stages' loops, savepoints, compiling a statement without running it, and
/// a way to watch the statements a custom stage's code runs.
///
/// The executor (``StageExecutor``, ``AlterTableProcedure``, the checks, ``MigrationContext``)
/// takes one, so the same stages run on a local file (``SQLiteConnection``) and, statement by
/// statement, on a replicated database's leader over its wire protocol (the dqlite cluster's
/// connection conforms in `SchemaMigrationsCluster`). Transactions and connection settings are the
/// caller's: the migration's framing (`MigrationFraming`) sets them around the stages, the same
/// on a file, a lent connection and a cluster.
package protocol MigrationDatabase: SQLQuerying {
    /// A statement compiled once and run many times with different arguments.
    /// - Throws: `SQLiteError`, with SQLite's extended code and message.
    func prepareStatement(_ sql: String) throws -> any PreparedStatement
    /// Compiles `sql` without running it: a view or trigger that names what is gone fails here.
    /// - Throws: `SQLiteError`, with SQLite's extended code and message.
    func compile(_ sql: String) throws
    /// The rowid of the last row inserted on this connection.
    var lastInsertRowID: Int64 { get }
    /// How many rows the last statement inserted, updated or deleted (not counting triggers').
    var changes: Int { get }
    /// False once a statement ended the migration's transaction (custom code must not).
    var isInTransaction: Bool { get }
    /// Runs `body`, a custom stage's code, with `footprint` told about each statement it runs:
    /// through SQLite's authorizer where the connection allows it (every table access, before the
    /// statement runs), otherwise from each statement's text (``CustomCodeWatcher/watchNothing(on:)``
    /// then checks every table up front).
    func watchingCustomCode<T>(_ footprint: any CustomCodeWatcher, _ body: () throws -> T) throws -> T
    /// Runs `body` with `handler` called every `instructions` virtual machine steps of whatever
    /// statement runs meanwhile (progress of a long copy); a connection whose statements run on a
    /// server runs `body` alone.
    func withProgressHandler<T>(every instructions: Int32, _ handler: @escaping () -> Void, _ body: () throws -> T)
        rethrows -> T
    /// How many rows the running statement's full scan has stepped through; 0 when unknown.
    var runningStatementFullScanSteps: Int { get }
}

/// What watches a custom stage's code while a connection runs it: Execution's `CodeFootprint`,
/// which the connection tells about each statement (the layer below does not know what it checks).
package protocol CustomCodeWatcher: AnyObject {
    /// False once it gave up watching table accesses (``watchNothing(on:)``).
    var isWatching: Bool { get }
    /// Gives up watching, for a connection whose authorizer is not ours to replace: checks
    /// every table now, before the code runs.
    func watchNothing(on db: any SQLQuerying) throws
    /// Checks a statement by its text, before it runs, where accesses are not watched.
    func checkText(_ sql: String) throws
    /// The observer to install on a local connection while the code runs.
    func observer(on db: SQLiteConnection) -> SQLiteAccessObserver
}

/// A statement prepared on a ``MigrationDatabase``: bind, step, read the current row, reset.
package protocol PreparedStatement: AnyObject {
    /// The statement's SQL, as given.
    var sql: String { get }
    /// How many columns each row has.
    var columnCount: Int { get }
    /// How many parameters the statement has (its largest parameter index), or nil when the
    /// connection cannot tell before the statement runs.
    var parameterCount: Int? { get }
    /// The name of a result column.
    func columnName(_ index: Int) -> String
    /// Binds every parameter, in order.
    func bind(_ values: [SQLiteValue]) throws
    /// Binds one parameter (1-based, as SQLite counts).
    func bind(_ value: SQLiteValue, at index: Int) throws
    /// Runs to the next row: true when there is one to read with ``column(_:)``.
    @discardableResult
    func step() throws -> Bool
    /// A column of the current row.
    func column(_ index: Int) -> SQLiteValue
    /// Makes the statement ready to run again; bindings are kept.
    func reset()
}

extension PreparedStatement {
    /// Unknown, unless the statement says otherwise.
    package var parameterCount: Int? { nil }
}

extension MigrationDatabase {
    /// Runs `body` inside a savepoint, which nests inside a transaction: released when it returns,
    /// rolled back to (and released) when it throws.
    package func savepoint<T>(_ name: String, _ body: () throws -> T) throws -> T {
        let quoted = SQL.quoteIdentifier(name)
        try execute("SAVEPOINT \(quoted)")
        do {
            let result = try body()
            try execute("RELEASE SAVEPOINT \(quoted)")
            return result
        } catch {
            // The body's error is the one to report. Should undoing the savepoint fail too, the
            // caller's failure path rolls the whole transaction back (``MigrationFraming``).
            try? execute("ROLLBACK TO SAVEPOINT \(quoted)")
            try? execute("RELEASE SAVEPOINT \(quoted)")
            throw error
        }
    }
}

extension SQLiteStatement: PreparedStatement {}

extension SQLiteConnection: MigrationDatabase {
    package func prepareStatement(_ sql: String) throws -> any PreparedStatement { try prepare(sql) }

    package func compile(_ sql: String) throws { _ = try prepare(sql) }

    package var isInTransaction: Bool { !isAutocommit }

    package func watchingCustomCode<T>(_ footprint: any CustomCodeWatcher, _ body: () throws -> T) throws -> T {
        // A borrowed connection may have its owner's authorizer (GRDB's observation uses one), which
        // SQLite would let us replace but not restore: check everything instead of watching.
        if !ownsHandle { try footprint.watchNothing(on: self) }
        let observer = footprint.observer(on: self)
        return footprint.isWatching ? try observingAccess(observer, body) : try observingStatements(observer, body)
    }
}
