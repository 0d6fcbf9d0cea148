import DqliteTestCluster
import Foundation

/// A TCP socket listening on a free loopback port, for stand-in nodes.
enum LoopbackListener {
    /// Opens one. The caller owns the descriptor.
    /// - Returns: the listening descriptor and its `127.0.0.1:port`.
    static func open() throws -> (descriptor: Int32, address: String) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(descriptor, generic, length) == 0 && listen(descriptor, 8) == 0
                    && getsockname(descriptor, generic, &length) == 0
            }
        }
        guard listening else {
            close(descriptor)
            throw ClusterError("cannot listen on loopback")
        }
        return (descriptor, "127.0.0.1:\(UInt16(bigEndian: address.sin_port))")
    }
}
