import Foundation

/// A loopback port that accepts connections (the kernel completes the handshake from the listen
/// backlog) and never answers: a node that hangs.
final class SilentListener {
    let address: String
    private let descriptor: Int32

    init() throws {
        (descriptor, address) = try LoopbackListener.open()
    }

    deinit { close(descriptor) }
}
