/// An error from a dqlite cluster or from the connection to it.
///
/// Every failure the client reports is a `DqliteError`: what went wrong (``code``), SQLite's
/// extended result code and message when the server answered with a failure, the node, and the
/// SQL being run.
///
/// ```swift
/// do {
///     try client.exec("INSERT INTO trip(id) VALUES (1)")
/// } catch let error as DqliteError where error.code == .constraint {
///     print(error.sqliteCode ?? 0, error.message)  // 1555 UNIQUE constraint failed: trip.id
/// }
/// ```
public struct DqliteError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What kind of failure this is. New codes may be added, so match the ones you handle.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// A short name, as printed.
        public let name: String
        /// The code's name.
        public var description: String { name }

        /// The node is not the leader (SQLite extended code 10250): find the leader and retry.
        public static let notLeader = Code(name: "not leader")
        /// The node lost leadership while running the request (10506). The transaction is gone.
        public static let leadershipLost = Code(name: "leadership lost")
        /// The database is locked by another connection (`SQLITE_BUSY`).
        public static let busy = Code(name: "busy")
        /// A constraint failed (`SQLITE_CONSTRAINT` and its extended codes).
        public static let constraint = Code(name: "constraint")
        /// Any other SQLite error the server reported (syntax error, no such table, …).
        public static let sqlite = Code(name: "SQLite error")
        /// A statement that returns rows was sent with `exec`, or one that returns none with `query`.
        public static let wrongStatementKind = Code(name: "wrong statement kind")
        /// The connection closed or reset before the answer came. Nothing in flight was committed
        /// unless the request was a `COMMIT` (that case is ``commitOutcomeUnknown``).
        public static let connectionClosed = Code(name: "connection closed")
        /// The connection was lost (or timed out, or leadership was lost) after `COMMIT` was sent:
        /// the transaction may or may not have been committed. Reconnect and read the data to know.
        public static let commitOutcomeUnknown = Code(name: "commit outcome unknown")
        /// No answer within the configured timeout; the connection is closed.
        public static let timeout = Code(name: "timeout")
        /// No node could be reached, or none knew a leader, before the leader search timed out.
        public static let noLeader = Code(name: "no leader")
        /// The server sent something this client does not understand.
        public static let protocolError = Code(name: "protocol error")
        /// A local file an answer was being written to (``DqliteClient/dump(writingTo:)``) could
        /// not be created or written: the message names it, with the system's reason.
        public static let localFile = Code(name: "local file")
        /// The request cannot be sent (an address that does not parse, too many parameters, a
        /// statement from an earlier connection, a closed client).
        public static let misuse = Code(name: "misuse")
    }

    /// What kind of failure this is.
    public let code: Code
    /// SQLite's (extended) result code, when the server answered with a failure response.
    public let sqliteCode: Int?
    /// SQLite's message, or a description of the connection failure.
    public let message: String
    /// The node (`host:port`) the request went to, when there was one.
    public let address: String?
    /// The SQL being run, when there was one.
    public let sql: String?

    /// Creates an error; the client builds these, tests and wrappers may too.
    public init(code: Code, sqliteCode: Int? = nil, message: String, address: String? = nil, sql: String? = nil) {
        self.code = code
        self.sqliteCode = sqliteCode
        self.message = message
        self.address = address
        self.sql = sql
    }

    /// "dqlite not leader (SQLite 10250): not leader - at 127.0.0.1:9002 - while executing `SQL`".
    public var description: String {
        var text = "dqlite \(code)"
        if let sqliteCode { text += " (SQLite \(sqliteCode))" }
        text += ": \(message)"
        if let address { text += " - at \(address)" }
        if let sql { text += " - while executing `\(sql)`" }
        return text
    }

    /// SQLite's extended code for "not leader".
    public static let notLeaderCode = 10250
    /// SQLite's extended code for "leadership lost".
    public static let leadershipLostCode = 10506

    /// Maps a failure response from the server to an error.
    static func failure(code: UInt64, message: String, address: String?, sql: String?) -> DqliteError {
        let extended = Int(truncatingIfNeeded: code)
        let kind: Code
        switch extended {
        case notLeaderCode: kind = .notLeader
        case leadershipLostCode: kind = .leadershipLost
        case 100: kind = .wrongStatementKind  // SQLITE_ROW: "another row available"
        default:
            switch extended & 0xff {
            case 5: kind = .busy  // SQLITE_BUSY
            case 19: kind = .constraint  // SQLITE_CONSTRAINT
            default: kind = .sqlite
            }
        }
        var text = message
        if kind == .wrongStatementKind {
            text += " (the statement returns rows: send it with query, not exec)"
        }
        return DqliteError(code: kind, sqliteCode: extended, message: text, address: address, sql: sql)
    }

    /// The same error, about `sql`.
    func about(_ sql: String?) -> DqliteError {
        DqliteError(code: code, sqliteCode: sqliteCode, message: message, address: address, sql: sql ?? self.sql)
    }
}
