#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Finds the leader of a cluster from a list of node addresses, any of which may be a follower
/// or down: each node is asked whom it believes leads; a node that names itself is the leader,
/// one that names another sends the search there. Rounds repeat (an election takes seconds)
/// until the search timeout.
struct LeaderDiscovery {
    let addresses: [String]
    let options: DqliteClient.Options

    /// A connection to the leader, registered as a client.
    /// - Throws: `.noLeader` naming what each node answered, once the search timeout passes.
    func connect(clientID: UInt64) throws -> NodeConnection {
        guard !addresses.isEmpty else {
            throw DqliteError(code: .misuse, message: "no node addresses given")
        }
        let deadline = ContinuousClock.now + options.leaderSearchTimeout
        var answers: [String: String] = [:]
        while true {
            for address in addresses {
                do {
                    if let leader = try ask(address, clientID: clientID, answers: &answers) { return leader }
                } catch {
                    answers[address] = "\(error)"
                }
            }
            guard ContinuousClock.now + options.leaderSearchInterval < deadline else { break }
            sleepThread(options.leaderSearchInterval)
        }
        let summary = addresses.map { "\($0): \(answers[$0] ?? "no answer")" }.joined(separator: "; ")
        throw DqliteError(
            code: .noLeader, message: "no leader found within \(options.leaderSearchTimeout) (\(summary))")
    }

    /// Asks `address`; follows its answer once when it names another node.
    private func ask(_ address: String, clientID: UInt64, answers: inout [String: String]) throws -> NodeConnection? {
        let node = try open(address)
        guard let leader = try node.leader() else {
            answers[address] = "knows no leader"
            return nil
        }
        if leader == address { return try register(node, clientID: clientID) }
        node.close()
        answers[address] = "names \(leader)"
        let named = try open(leader)
        guard try named.leader() == leader else {
            answers[leader] = "is no longer the leader"
            return nil
        }
        return try register(named, clientID: clientID)
    }

    private func open(_ address: String) throws -> NodeConnection {
        try NodeConnection(
            address: address, connectTimeout: options.connectTimeout, requestTimeout: options.requestTimeout)
    }

    private func register(_ node: NodeConnection, clientID: UInt64) throws -> NodeConnection {
        guard case .welcome = try node.call(.client(id: clientID)) else { throw node.unexpected("CLIENT") }
        return node
    }
}

/// Sleeps the calling thread for `duration` (nanosleep: no Foundation needed).
func sleepThread(_ duration: Duration) {
    let (seconds, attoseconds) = duration.components
    var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
    var remaining = timespec()
    while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
}
