/// One connection to one node: the protocol handshake, then requests answered one at a time.
///
/// Requests that any node answers (LEADER, CLUSTER, DUMP) go through this directly; the SQL
/// requests go through ``DqliteClient``, which keeps one of these open to the leader.
final class NodeConnection {
    /// dqlite's protocol version 1 (`DQLITE_PROTOCOL_VERSION` in `src/protocol.h`).
    static let protocolVersion: UInt64 = 1

    let socket: Socket
    let requestTimeout: Duration
    /// Called with the request's SQL once a request is on the wire, before its answer is read: the
    /// tests' seam to kill the leader at exactly that moment.
    var afterSending: ((String?) -> Void)?

    /// The node's `host:port`.
    var address: String { socket.address }

    /// Connects to `address` and sends the protocol version.
    init(address: String, connectTimeout: Duration, requestTimeout: Duration) throws {
        socket = try Socket(address: address, timeout: connectTimeout)
        self.requestTimeout = requestTimeout
        var handshake = WireWriter()
        handshake.uint64(Self.protocolVersion)
        try socket.send(handshake.bytes, deadline: .now + requestTimeout)
    }

    /// Closes the connection.
    func close() { socket.close() }

    /// Sends `request` and reads its (first) response; a failure response is thrown as an error.
    func call(_ request: Request, sql: String? = nil) throws -> Response {
        let deadline = ContinuousClock.now + requestTimeout
        do {
            try socket.send(request.message.encoded, deadline: deadline)
            afterSending?(sql)
            return try receive(deadline: deadline, sql: sql)
        } catch let error as DqliteError {
            throw error.about(sql)
        }
    }

    /// Reads the next response of the request in flight (a further batch of rows). After a
    /// response it cannot decode, the connection is closed: what follows on it is unknown.
    func receive(deadline: ContinuousClock.Instant, sql: String?) throws -> Response {
        try response(to: try Message.receive(from: socket, deadline: deadline), sql: sql)
    }

    /// Decodes `message`; a failure response is thrown as an error.
    private func response(to message: Message, sql: String?) throws -> Response {
        let response: Response
        do {
            response = try Response(message, address: address)
        } catch {
            socket.close()
            throw error
        }
        if case .failure(let code, let message) = response {
            throw DqliteError.failure(code: code, message: message, address: address, sql: sql)
        }
        return response
    }

    /// Which node this one believes leads the cluster; nil when it knows of none.
    func leader() throws -> String? {
        guard case .node(_, let leader) = try call(.leader) else { throw unexpected("LEADER") }
        return leader.isEmpty ? nil : leader
    }

    /// The cluster's nodes, as this node knows them.
    func cluster() throws -> [DqliteNode] {
        guard case .nodes(let nodes) = try call(.cluster) else { throw unexpected("CLUSTER") }
        return nodes
    }

    /// The database `name` as this node holds it, each file given to `sink` as its bytes arrive.
    func dump(_ name: String, into sink: inout some DumpSink) throws {
        let deadline = ContinuousClock.now + requestTimeout
        try socket.send(Request.dump(name: name).message.encoded, deadline: deadline)
        afterSending?(nil)
        let header = try Message.Header.receive(from: socket, deadline: deadline)
        guard header.type == DumpStream.filesType else {
            // A failure (no such database) or an answer of the wrong type: small, read whole.
            _ = try response(to: try header.body(from: socket, deadline: deadline), sql: nil)
            throw unexpected("DUMP")
        }
        var stream = DumpStream(socket: socket, header: header, deadline: deadline)
        do {
            try stream.read(into: &sink)
        } catch {
            socket.close()  // the rest of the answer is still on the wire
            throw error
        }
    }

    /// An error for a response of the wrong type.
    func unexpected(_ request: String) -> DqliteError {
        DqliteError(code: .protocolError, message: "unexpected response to \(request)", address: address)
    }
}
