import DqliteClient
import Foundation

/// A 3-node dqlite cluster of `dqlite-demo` processes on free loopback ports, each node with its
/// own temporary directory. `nodes` is set while starting and only read afterwards, so the shared
/// cluster may be used from concurrent tests. Every process it starts is stopped by its PID in ``stop()`` (called
/// by ``with(_:)`` however the test ends, by `deinit`, and at process exit as a last resort).
public final class DqliteCluster: @unchecked Sendable {
    /// One node: its process and the address clients and the other nodes reach it on.
    public struct Node {
        public let address: String
        public let process: Process
        /// The command line it was started with (a restart reuses it).
        let arguments: [String]
        public var pid: Int32 { process.processIdentifier }
    }

    public let directory: URL
    public private(set) var nodes: [Node] = []

    /// The nodes' addresses, in start order (node 0 bootstrapped the cluster).
    public var addresses: [String] { nodes.map(\.address) }

    /// Runs `body` with a fresh cluster, stopping it afterwards, whether `body` returns or throws.
    public static func with<T>(size: Int = 3, _ body: (DqliteCluster) async throws -> T) async throws -> T {
        let cluster = try DqliteCluster(size: size)
        defer { cluster.stop() }
        return try await body(cluster)
    }

    /// One cluster for the tests that neither stop nor kill a node (each uses its own database),
    /// started at first use and stopped when the test process exits.
    public static func shared() throws -> DqliteCluster {
        try sharedCluster.get()
    }

    private static let sharedCluster: Result<DqliteCluster, any Error> = {
        let result = Result { try DqliteCluster() }
        if case .success(let cluster) = result { LiveProcesses.shared.removeAtExit(cluster.directory) }
        return result
    }()

    /// Starts `size` nodes and waits until they are all voters of one cluster.
    public init(size: Int = 3) throws {
        guard let demo = DqliteBinaries.demo else { throw ClusterError("dqlite-demo is not installed") }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("dqlite-cluster-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        do {
            let ports = try FreePorts.pick(2 * size)
            for index in 0..<size {
                let address = "127.0.0.1:\(ports[2 * index])"
                var arguments = [
                    "-a", "127.0.0.1:\(ports[2 * index + 1])", "-d", address, "-D", try nodeDirectory(index).path,
                ]
                if index > 0 { arguments += ["-j", nodes[0].address] }
                nodes.append(
                    Node(address: address, process: try launch(demo, arguments, log: index), arguments: arguments))
                if index == 0 { try waitForLeader(among: [address]) }
            }
            try waitForVoters(size)
        } catch {
            stop()
            throw error
        }
    }

    deinit { stop() }

    /// Stops every node still running, by PID, with SIGKILL (a node given SIGTERM hands its
    /// leadership over first, which takes seconds when its peers are stopping too), and removes
    /// the nodes' files.
    public func stop() {
        for node in nodes where node.process.isRunning { Foundation.kill(node.pid, SIGKILL) }
        for node in nodes {
            node.process.waitUntilExit()
            LiveProcesses.shared.remove(node.pid)
        }
        try? FileManager.default.removeItem(at: directory)
    }

    /// Kills node `index` with SIGKILL (as a crash or a power cut sees it) and waits for it to end.
    public func kill(node index: Int) {
        let node = nodes[index]
        Foundation.kill(node.pid, SIGKILL)
        node.process.waitUntilExit()
        LiveProcesses.shared.remove(node.pid)
    }

    /// Starts node `index` again (after ``kill(node:)``) on its directory and addresses, and waits
    /// until it answers and knows a leader.
    public func restart(node index: Int) throws {
        guard let demo = DqliteBinaries.demo else { throw ClusterError("dqlite-demo is not installed") }
        let node = nodes[index]
        nodes[index] = Node(
            address: node.address, process: try launch(demo, node.arguments, log: index), arguments: node.arguments)
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if (try? DqliteClient.leader(
                accordingTo: node.address, options: DqliteClient.Options(connectTimeout: .milliseconds(300)))) ?? nil
                != nil
            {
                return
            }
            usleep(100_000)
        }
        throw ClusterError("node \(index) did not rejoin the cluster:\n\(log(of: index))")
    }

    /// Which node leads now, as a client finds it.
    public func leaderIndex() throws -> Int {
        let client = try DqliteClient(nodes: addresses, database: "harness")
        defer { client.close() }
        guard let index = addresses.firstIndex(of: client.leaderAddress ?? "") else { throw ClusterError("no leader") }
        return index
    }

    /// The last lines a node wrote, for failure messages.
    public func log(of index: Int) -> String {
        let text =
            (try? String(contentsOf: directory.appendingPathComponent("node\(index).log"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(20).joined(separator: "\n")
    }

    // MARK: - Private

    private func nodeDirectory(_ index: Int) throws -> URL {
        let url = directory.appendingPathComponent("node\(index)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private func launch(_ executable: URL, _ arguments: [String], log index: Int) throws -> Process {
        let logURL = directory.appendingPathComponent("node\(index).log")
        _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
        let log = try FileHandle(forWritingTo: logURL)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = log
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
        try process.run()
        LiveProcesses.shared.add(process.processIdentifier)
        return process
    }

    private func waitForLeader(among addresses: [String]) throws {
        let options = DqliteClient.Options(
            connectTimeout: .milliseconds(500), leaderSearchTimeout: .seconds(15),
            leaderSearchInterval: .milliseconds(50))
        do {
            _ = try DqliteClient(nodes: addresses, database: "harness", options: options)
        } catch {
            throw ClusterError("the first node did not become leader: \(error)\n\(log(of: 0))")
        }
    }

    private func waitForVoters(_ count: Int) throws {
        let deadline = Date().addingTimeInterval(30)
        var seen: [DqliteNode] = []
        while Date() < deadline {
            seen = (try? DqliteClient.cluster(at: nodes[0].address)) ?? []
            if seen.filter({ $0.role == .voter }).count == count { return }
            usleep(100_000)
        }
        throw ClusterError("\(count) voters expected, the cluster lists \(seen)")
    }
}

/// A harness failure, with what went wrong.
public struct ClusterError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Picks loopback ports nobody listens on: binds them all to port 0 at once, then releases them.
public enum FreePorts {
    public static func pick(_ count: Int) throws -> [Int] {
        var descriptors: [Int32] = []
        defer { for descriptor in descriptors { _ = close(descriptor) } }
        var ports: [Int] = []
        for _ in 0..<count {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            descriptors.append(descriptor)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = 0
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                    bind(descriptor, generic, length) == 0 && getsockname(descriptor, generic, &length) == 0
                }
            }
            guard bound else { throw ClusterError("no free loopback port") }
            ports.append(Int(UInt16(bigEndian: address.sin_port)))
        }
        return ports
    }
}

/// The PIDs of the nodes running now, killed at process exit if a test left any behind.
public final class LiveProcesses: @unchecked Sendable {
    public static let shared: LiveProcesses = {
        atexit {
            for pid in LiveProcesses.shared.all() {
                kill(pid, SIGKILL)
                waitpid(pid, nil, 0)
            }
            for directory in LiveProcesses.shared.directories() { try? FileManager.default.removeItem(at: directory) }
        }
        return LiveProcesses()
    }()

    private let lock = NSLock()
    private var pids: Set<Int32> = []
    private var directoriesToRemove: [URL] = []

    public func removeAtExit(_ directory: URL) { lock.withLock { directoriesToRemove.append(directory) } }
    func directories() -> [URL] { lock.withLock { directoriesToRemove } }

    func add(_ pid: Int32) { lock.withLock { _ = pids.insert(pid) } }
    func remove(_ pid: Int32) { lock.withLock { _ = pids.remove(pid) } }
    func all() -> Set<Int32> { lock.withLock { pids } }
}
