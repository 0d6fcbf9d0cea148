#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A connection to the leader of a dqlite cluster, with one database open, speaking dqlite's
/// wire protocol over TCP.
///
/// ```swift
/// let client = try DqliteClient(nodes: ["127.0.0.1:9001", "127.0.0.1:9002", "127.0.0.1:9003"], database: "app")
/// try client.exec("CREATE TABLE trip(id INTEGER PRIMARY KEY, name TEXT)")
/// try client.exec("INSERT INTO trip(name) VALUES (?)", [.text("Lisbon")])
/// let names = try client.query("SELECT name FROM trip").column("name")
/// ```
///
/// Requests run one at a time, in order, on the leader; a transaction (`BEGIN IMMEDIATE` …
/// `COMMIT`) spans requests and is replicated to the other nodes at `COMMIT`. Send each
/// statement the right way: ``exec(_:_:)`` for statements that return no rows, ``query(_:_:)``
/// for those that do (the server refuses a row-returning statement sent with exec, and does not
/// run a statement without result columns sent with query).
///
/// When the leader goes away, requests fail with `.connectionClosed`, `.notLeader` or
/// `.leadershipLost`: the open transaction is gone. Call ``reconnect()`` to find the new leader.
/// A `COMMIT` whose answer never came fails with `.commitOutcomeUnknown`: read the data to learn
/// whether it was applied, never re-run blindly.
///
/// libdqlite 1.11 (Debian 12) aborts the node, on an assertion, when a query returns a REAL from
/// a column declared `DATETIME`, `DATE` or `TIMESTAMP`; select `CAST(column AS REAL)` instead.
///
/// Not thread-safe: use one client from one task at a time.
public final class DqliteClient {
    /// Timeouts and the leader search's pace.
    public struct Options: Sendable {
        /// How long to wait for a node to accept a connection.
        public var connectTimeout: Duration
        /// How long to wait for the answer to one request (a whole result set, a COMMIT).
        public var requestTimeout: Duration
        /// How long to keep looking for a leader (an election takes a few seconds).
        public var leaderSearchTimeout: Duration
        /// The pause between rounds of the leader search.
        public var leaderSearchInterval: Duration
        /// Whether SQLite may write dirty pages out before `COMMIT` when a transaction outgrows
        /// the page cache. dqlite's VFS cannot take such a spill: the statement fails with
        /// "disk I/O error" (522), seen on a 100,000-row table rebuild. So by default the client
        /// runs `PRAGMA cache_spill=OFF` on every connection, and the cache grows instead.
        public var cacheSpill: Bool

        /// Options: each timeout, the leader search's pace, and whether the cache may spill.
        public init(
            connectTimeout: Duration = .seconds(2), requestTimeout: Duration = .seconds(60),
            leaderSearchTimeout: Duration = .seconds(15), leaderSearchInterval: Duration = .milliseconds(200),
            cacheSpill: Bool = false
        ) {
            self.connectTimeout = connectTimeout
            self.requestTimeout = requestTimeout
            self.leaderSearchTimeout = leaderSearchTimeout
            self.leaderSearchInterval = leaderSearchInterval
            self.cacheSpill = cacheSpill
        }
    }

    /// The addresses the leader is searched among, in the order given.
    public let nodes: [String]
    /// The database's name in the cluster.
    public let database: String
    /// Timeouts and the leader search's pace.
    public let options: Options

    private var connection: NodeConnection?
    /// Called with the SQL once a request is sent, before its answer is read (a test seam).
    package var afterSending: ((String?) -> Void)? {
        didSet { connection?.afterSending = afterSending }
    }
    private var databaseID: UInt32 = 0
    private let clientID = UInt64.random(in: 1...UInt64.max)
    /// Bumped at each (re)connection; statements from an earlier one are refused.
    private var generation = 0

    /// Finds the leader among `nodes` and opens `database` on it (creating it when new), with
    /// `PRAGMA cache_spill=OFF` unless ``Options/cacheSpill`` says otherwise.
    /// - Parameters:
    ///   - nodes: `host:port` addresses of some or all nodes; followers and unreachable nodes are fine.
    ///   - database: the database's name.
    /// - Throws: `DqliteError` `.noLeader` when no leader answers within `leaderSearchTimeout`.
    public init(nodes: [String], database: String, options: Options = Options()) throws {
        self.nodes = nodes
        self.database = database
        self.options = options
        try connect()
    }

    deinit { connection?.close() }

    /// The leader's address, while connected.
    public var leaderAddress: String? { connection?.socket.isOpen == true ? connection?.address : nil }

    /// Drops the current connection (and with it any open transaction and prepared statement),
    /// finds the leader again and reopens the database.
    public func reconnect() throws {
        connection?.close()
        connection = nil
        try connect()
    }

    /// Closes the connection; an open transaction is rolled back by the server.
    public func close() {
        connection?.close()
        connection = nil
    }

    // MARK: - SQL text

    /// Runs SQL that returns no rows: one statement with `parameters`, or several separated by
    /// semicolons without parameters.
    /// - Returns: the last statement's changes and last inserted rowid.
    /// - Throws: `DqliteError`; `.wrongStatementKind` for a statement that returns rows.
    @discardableResult
    public func exec(_ sql: String, _ parameters: [DqliteValue] = []) throws -> DqliteResult {
        let node = try leader(sql)
        let response = try send(
            .execSQL(database: databaseID, sql: sql, parameters: try checked(parameters, sql)), sql, on: node)
        guard case .result(let result) = response else { throw node.unexpected("EXEC_SQL") }
        return result
    }

    /// Runs one statement that returns rows, bound to `parameters`, and gathers every row.
    /// - Throws: `DqliteError`; `.wrongStatementKind` for a statement without result columns.
    public func query(_ sql: String, _ parameters: [DqliteValue] = []) throws -> DqliteRows {
        let node = try leader(sql)
        let first = try sendQuery(
            .querySQL(database: databaseID, sql: sql, parameters: try checked(parameters, sql)), sql, on: node)
        return try gather(first, sql, on: node)
    }

    // MARK: - Prepared statements

    /// Compiles one statement on the leader, to be run many times with different parameters.
    public func prepare(_ sql: String) throws -> DqliteStatement {
        let node = try leader(sql)
        guard case .statement(_, let id, let count) = try send(.prepare(database: databaseID, sql: sql), sql, on: node)
        else {
            throw node.unexpected("PREPARE")
        }
        return DqliteStatement(id: id, sql: sql, parameterCount: Int(count), generation: generation)
    }

    /// Runs a prepared statement that returns no rows.
    @discardableResult
    public func exec(_ statement: DqliteStatement, _ parameters: [DqliteValue] = []) throws -> DqliteResult {
        let node = try leader(statement)
        let request = Request.exec(
            database: databaseID, statement: statement.id, parameters: try checked(parameters, statement.sql))
        guard case .result(let result) = try send(request, statement.sql, on: node) else {
            throw node.unexpected("EXEC")
        }
        return result
    }

    /// Runs a prepared statement that returns rows, and gathers every row.
    public func query(_ statement: DqliteStatement, _ parameters: [DqliteValue] = []) throws -> DqliteRows {
        let node = try leader(statement)
        let request = Request.query(
            database: databaseID, statement: statement.id, parameters: try checked(parameters, statement.sql))
        return try gather(try sendQuery(request, statement.sql, on: node), statement.sql, on: node)
    }

    /// Releases a prepared statement on the server.
    public func finalize(_ statement: DqliteStatement) throws {
        let node = try leader(statement)
        guard case .empty = try send(.finalize(database: databaseID, statement: statement.id), statement.sql, on: node)
        else {
            throw node.unexpected("FINALIZE")
        }
    }

    // MARK: - Private

    private func connect() throws {
        let node = try LeaderDiscovery(addresses: nodes, options: options).connect(clientID: clientID)
        guard case .database(let id) = try node.call(.open(name: database)) else { throw node.unexpected("OPEN") }
        if !options.cacheSpill {
            let sql = "PRAGMA cache_spill=OFF"
            _ = try node.call(.execSQL(database: id, sql: sql, parameters: []), sql: sql)
        }
        node.afterSending = afterSending
        connection = node
        databaseID = id
        generation += 1
    }

    private func leader(_ sql: String?) throws -> NodeConnection {
        guard let connection, connection.socket.isOpen else {
            throw DqliteError(
                code: .connectionClosed, message: "not connected to the leader: call reconnect()", sql: sql)
        }
        return connection
    }

    private func leader(_ statement: DqliteStatement) throws -> NodeConnection {
        guard statement.generation == generation else {
            throw DqliteError(
                code: .misuse, message: "the statement was prepared on an earlier connection: prepare it again",
                sql: statement.sql)
        }
        return try leader(statement.sql)
    }

    private func checked(_ parameters: [DqliteValue], _ sql: String) throws -> [DqliteValue] {
        guard parameters.count <= Request.maximumParameterCount else {
            throw DqliteError(
                code: .misuse,
                message: "\(parameters.count) parameters: at most \(Request.maximumParameterCount) per statement",
                sql: sql)
        }
        return parameters
    }

    /// Sends a request, turning a lost answer to a COMMIT into `.commitOutcomeUnknown`.
    private func send(_ request: Request, _ sql: String, on node: NodeConnection) throws -> Response {
        do {
            return try node.call(request, sql: sql)
        } catch let error as DqliteError {
            if !node.socket.isOpen { connection = nil }
            throw CommitOutcome.classify(error, sql: sql)
        }
    }

    /// Sends a QUERY or QUERY_SQL. dqlite answers one for a statement without result columns
    /// with SQLite's "not an error" (code 1) and does not run it: say what to do instead.
    private func sendQuery(_ request: Request, _ sql: String, on node: NodeConnection) throws -> Response {
        do {
            return try send(request, sql, on: node)
        } catch let error as DqliteError where error.sqliteCode == 1 && error.message == "not an error" {
            throw Self.notRowReturning(sql, node, sqliteCode: 1)
        }
    }

    private static func notRowReturning(_ sql: String, _ node: NodeConnection, sqliteCode: Int? = nil) -> DqliteError {
        DqliteError(
            code: .wrongStatementKind, sqliteCode: sqliteCode,
            message: "the statement returns no rows and dqlite does not run it as a query: send it with exec",
            address: node.address, sql: sql)
    }

    /// Reads the further batches of a result set.
    private func gather(_ first: Response, _ sql: String, on node: NodeConnection) throws -> DqliteRows {
        guard case .rows(let columns, var rows, var more) = first else { throw node.unexpected("QUERY") }
        let deadline = ContinuousClock.now + options.requestTimeout
        while more {
            guard case .rows(_, let batch, let next) = try node.receive(deadline: deadline, sql: sql) else {
                throw node.unexpected("QUERY")
            }
            rows += batch
            more = next
        }
        guard !columns.isEmpty else { throw Self.notRowReturning(sql, node) }
        return DqliteRows(columns: columns, rows: rows)
    }
}
