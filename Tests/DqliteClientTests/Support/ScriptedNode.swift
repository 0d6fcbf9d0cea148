import Foundation

/// A loopback dqlite node that answers LEADER (itself), CLIENT, OPEN and EXEC_SQL (the client's
/// settings) as a real node does, and answers DUMP with a message a test scripts, sent a few bytes
/// at a time, then hangs up: the client's reading of a DUMP is tried on answers no real node sends
/// (words split across reads, a body cut short, sizes that lie).
final class ScriptedNode: @unchecked Sendable {
    let address: String
    private let listener: Int32

    /// - Parameters:
    ///   - dumpAnswer: the whole answer to DUMP, header included (``message(type:body:)``).
    ///   - piece: how many bytes each `send` carries.
    init(dumpAnswer: [UInt8], piece: Int) throws {
        let (listener, address) = try LoopbackListener.open()
        self.listener = listener
        self.address = address
        let script = Script(address: self.address, dumpAnswer: dumpAnswer, piece: piece)
        Thread.detachNewThread { Self.serve(listener, script) }
    }

    /// Wakes the thread waiting in `accept`, which then closes the listener: closed here, its
    /// number could be reused before that thread's next `accept`.
    deinit { shutdown(listener, Int32(SHUT_RDWR)) }

    /// A message: the header (body size in words, type, schema 0) and `body`, padded to a word.
    static func message(type: UInt8, body: [UInt8]) -> [UInt8] {
        let padded = body + [UInt8](repeating: 0, count: (8 - body.count % 8) % 8)
        return word32(UInt32(padded.count / 8)) + [type, 0, 0, 0] + padded
    }

    /// A FILES answer to DUMP: `files` named and sized as given, `announce` overriding a size.
    static func files(_ files: [(name: String, bytes: [UInt8])], announcing sizes: [Int: UInt64] = [:]) -> [UInt8] {
        var body = word64(UInt64(files.count))
        for (index, file) in files.enumerated() {
            body += text(file.name) + word64(sizes[index] ?? UInt64(file.bytes.count)) + file.bytes
            body += [UInt8](repeating: 0, count: (8 - file.bytes.count % 8) % 8)
        }
        return message(type: 9, body: body)
    }

    static func word64(_ value: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
    static func word32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
    static func text(_ value: String) -> [UInt8] {
        let bytes = Array(value.utf8) + [0]
        return bytes + [UInt8](repeating: 0, count: (8 - bytes.count % 8) % 8)
    }

    // MARK: - Private

    private static func serve(_ listener: Int32, _ script: Script) {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { break }  // the listener was shut down
            Thread.detachNewThread {
                script.answer(connection)
                close(connection)
            }
        }
        close(listener)
    }
}

/// What a scripted node answers, shared by the threads serving its connections.
private struct Script: Sendable {
    let address: String
    let dumpAnswer: [UInt8]
    let piece: Int

    /// The handshake, then requests until DUMP (answered as scripted) or one it does not know.
    func answer(_ connection: Int32) {
        guard receive(8, from: connection) != nil else { return }
        while let header = receive(8, from: connection) {
            let words = Int(header[0]) | Int(header[1]) << 8 | Int(header[2]) << 16 | Int(header[3]) << 24
            guard receive(words * 8, from: connection) != nil else { return }
            typealias Node = ScriptedNode
            switch header[4] {
            case 0:  // LEADER: itself
                send(Node.message(type: 1, body: Node.word64(1) + Node.text(address)), to: connection)
            case 1:  // CLIENT: welcome
                send(Node.message(type: 2, body: Node.word64(0)), to: connection)
            case 3:  // OPEN: database 0
                send(Node.message(type: 4, body: Node.word64(0)), to: connection)
            case 8:  // EXEC_SQL: a result
                send(Node.message(type: 6, body: Node.word64(0) + Node.word64(0)), to: connection)
            case 15:
                send(dumpAnswer, to: connection)
                return
            default: return
            }
        }
    }

    private func receive(_ count: Int, from connection: Int32) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let read = bytes.withUnsafeMutableBytes { recv(connection, $0.baseAddress! + done, count - done, 0) }
            guard read > 0 else { return nil }
            done += read
        }
        return bytes
    }

    private func send(_ bytes: [UInt8], to connection: Int32) {
        var offset = 0
        while offset < bytes.count {
            let count = min(piece, bytes.count - offset)
            let sent = bytes.withUnsafeBytes {
                Foundation.send(connection, $0.baseAddress! + offset, count, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else { return }
            offset += sent
        }
    }
}
