/// The responses the server sends (type codes from dqlite's `src/protocol.h`, bodies from
/// `src/response.h`), but for FILES, the answer to DUMP, which ``DumpStream`` reads as it arrives.
enum Response {
    /// A failure: SQLite's (extended) code and message.
    case failure(code: UInt64, message: String)
    /// One node: the answer to LEADER (an empty address when no leader is known).
    case node(id: UInt64, address: String)
    /// The answer to CLIENT.
    case welcome
    /// The nodes of the cluster.
    case nodes([DqliteNode])
    /// An opened database.
    case database(id: UInt32)
    /// A prepared statement.
    case statement(database: UInt32, id: UInt32, parameterCount: UInt64)
    /// The result of a statement that returns no rows.
    case result(DqliteResult)
    /// One batch of rows; `more` when another batch follows in a further message.
    case rows(columns: [String], rows: [[DqliteValue]], more: Bool)
    /// An acknowledgement (FINALIZE).
    case empty

    /// Decodes a message from `address`.
    init(_ message: Message, address: String?) throws {
        var reader = WireReader(message.body, address: address)
        switch message.type {
        case 0:
            self = .failure(code: try reader.uint64(), message: try reader.text())
        case 1:
            self = .node(id: try reader.uint64(), address: try reader.text())
        case 2:
            self = .welcome
        case 3:
            let count = try reader.uint64()
            var nodes: [DqliteNode] = []
            for _ in 0..<count {
                let id = try reader.uint64()
                let nodeAddress = try reader.text()
                let role = try reader.uint64()
                nodes.append(DqliteNode(id: id, address: nodeAddress, role: DqliteNode.Role(rawValue: role)))
            }
            self = .nodes(nodes)
        case 4:
            self = .database(id: try reader.uint32())
        case 5:
            self = .statement(
                database: try reader.uint32(), id: try reader.uint32(), parameterCount: try reader.uint64())
        case 6:
            let lastInsertID = Int64(bitPattern: try reader.uint64())
            let rowsAffected = Int64(bitPattern: try reader.uint64())
            self = .result(DqliteResult(lastInsertedRowID: lastInsertID, changes: rowsAffected))
        case 7:
            self = try RowBatch.decode(&reader)
        case 8:
            self = .empty
        default:
            throw reader.malformed("unknown response type \(message.type)")
        }
    }
}

/// What a statement that returns no rows did.
public struct DqliteResult: Equatable, Sendable {
    /// The rowid of the last row inserted (on this connection), or 0.
    public let lastInsertedRowID: Int64
    /// How many rows the statement inserted, updated or deleted.
    public let changes: Int64

    /// The outcome of an EXEC: the last inserted rowid and the rows changed.
    public init(lastInsertedRowID: Int64, changes: Int64) {
        self.lastInsertedRowID = lastInsertedRowID
        self.changes = changes
    }
}

/// A node of the cluster, as the CLUSTER request lists it.
public struct DqliteNode: Equatable, Sendable {
    /// A node's part in the Raft cluster.
    public struct Role: RawRepresentable, Hashable, Sendable {
        /// The role's number, as the protocol sends it.
        public let rawValue: UInt64
        /// The role numbered `rawValue`.
        public init(rawValue: UInt64) { self.rawValue = rawValue }
        /// Votes and can be elected leader.
        public static let voter = Role(rawValue: 0)
        /// Replicates data, ready to be promoted to voter.
        public static let standBy = Role(rawValue: 1)
        /// Neither votes nor replicates.
        public static let spare = Role(rawValue: 2)
    }

    /// The node's Raft id.
    public let id: UInt64
    /// The node's `host:port`.
    public let address: String
    /// The node's role.
    public let role: Role
}
