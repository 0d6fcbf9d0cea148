/// The requests this client sends (type codes from dqlite's `src/protocol.h`, bodies from
/// `src/request.h`).
enum Request {
    /// Which node the queried node believes is the leader.
    case leader
    /// Registers this client (once per connection, on the leader).
    case client(id: UInt64)
    /// Opens a database by name; the answer is its id.
    case open(name: String)
    /// Compiles one statement; the answer is its id and parameter count.
    case prepare(database: UInt32, sql: String)
    /// Runs a prepared statement that returns no rows.
    case exec(database: UInt32, statement: UInt32, parameters: [DqliteValue])
    /// Runs a prepared statement and returns its rows.
    case query(database: UInt32, statement: UInt32, parameters: [DqliteValue])
    /// Releases a prepared statement.
    case finalize(database: UInt32, statement: UInt32)
    /// Runs SQL text (one or more statements, parameters bound to the last).
    case execSQL(database: UInt32, sql: String, parameters: [DqliteValue])
    /// Runs one statement of SQL text and returns its rows.
    case querySQL(database: UInt32, sql: String, parameters: [DqliteValue])
    /// The database file and its write-ahead log, as the node holds them.
    case dump(name: String)
    /// The nodes of the cluster, with their roles.
    case cluster

    /// The most parameters one request can carry (the schema-0 tuple has a one-byte count).
    static let maximumParameterCount = 255

    /// The message to send.
    var message: Message {
        var body = WireWriter()
        let type: UInt8
        switch self {
        case .leader:
            type = 0
            body.uint64(0)
        case .client(let id):
            type = 1
            body.uint64(id)
        case .open(let name):
            type = 3
            body.text(name)
            body.uint64(0)  // flags: unused
            body.text("")  // VFS: the node's own
        case .prepare(let database, let sql):
            type = 4
            body.uint64(UInt64(database))
            body.text(sql)
        case .exec(let database, let statement, let parameters), .query(let database, let statement, let parameters):
            if case .exec = self { type = 5 } else { type = 6 }
            body.uint32(database)
            body.uint32(statement)
            body.parameters(parameters)
        case .finalize(let database, let statement):
            type = 7
            body.uint32(database)
            body.uint32(statement)
        case .execSQL(let database, let sql, let parameters), .querySQL(let database, let sql, let parameters):
            if case .execSQL = self { type = 8 } else { type = 9 }
            body.uint64(UInt64(database))
            body.text(sql)
            body.parameters(parameters)
        case .dump(let name):
            type = 15
            body.text(name)
        case .cluster:
            type = 16
            body.uint64(1)  // format 1: id, address and role
        }
        return Message(type: type, schema: 0, body: body.bytes)
    }
}
