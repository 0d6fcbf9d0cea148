import DqliteTestCluster
import Foundation

/// A loopback port that accepts connections (the kernel completes the handshake from the listen
/// backlog) and never answers: a node that hangs.
final class SilentListener {
    let address: String
    private let descriptor: Int32

    init() throws {
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
        self.descriptor = descriptor
        self.address = "127.0.0.1:\(UInt16(bigEndian: address.sin_port))"
    }

    deinit { close(descriptor) }
}
