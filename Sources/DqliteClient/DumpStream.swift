/// Reads the answer to a DUMP as it arrives. The FILES response's body is a file count, then for
/// each file its name (zero-terminated, padded to a word), its size (a word) and its bytes (padded
/// to a word). The bytes go to a ``DumpSink`` a socket buffer at a time, so a database of any
/// size passes through 64 KiB of memory on its way to disk.
struct DumpStream {
    /// The response type of FILES (`DQLITE_RESPONSE_FILES` in dqlite's `src/protocol.h`).
    static let filesType: UInt8 = 9

    let socket: Socket
    let deadline: ContinuousClock.Instant
    /// Body bytes not read yet: every read is checked against the size the header gave.
    private var remaining: Int

    init(socket: Socket, header: Message.Header, deadline: ContinuousClock.Instant) {
        self.socket = socket
        self.deadline = deadline
        self.remaining = header.bodySize
    }

    /// Reads the whole body, giving each file to `sink` in order.
    /// - Throws: `DqliteError` `.protocolError` for a body that ends early or runs past its size;
    ///   whatever `sink` throws.
    mutating func read(into sink: inout some DumpSink) throws {
        let count = try word()
        for index in 0..<count {
            let name = try text()
            let size = try word()
            guard size <= UInt64(remaining) else {
                throw malformed("file \(name) of \(size) bytes in the \(remaining) the message has left")
            }
            try sink.begin(file: Int(index), size: Int(size))
            try take(Int(size)) { try sink.write($0) }
            try take((8 - Int(size % 8)) % 8) { _ in }  // padding to the next word
        }
        // Anything after the last file is not part of any: read past it, so the next answer starts clean.
        try take(remaining) { _ in }
    }

    private mutating func word() throws -> UInt64 {
        var value: UInt64 = 0
        try take(8) { bytes in
            for (index, byte) in bytes.enumerated() { value |= UInt64(byte) << (8 * index) }
        }
        return value
    }

    /// Zero-terminated UTF-8 padded to a word: read a word at a time until one holds the zero.
    private mutating func text() throws -> String {
        var bytes: [UInt8] = []
        while true {
            var ended = false
            try take(8) { word in
                for byte in word where !ended {
                    if byte == 0 { ended = true } else { bytes.append(byte) }
                }
            }
            if ended { return String(decoding: bytes, as: UTF8.self) }
        }
    }

    private mutating func take(_ count: Int, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard count <= remaining else {
            throw malformed("\(count) bytes wanted where the message has \(remaining) left")
        }
        remaining -= count
        guard count > 8 else {
            // A word can arrive split across two reads: gather it before handing it on.
            var word: [UInt8] = []
            try socket.receive(count, deadline: deadline) { word.append(contentsOf: $0) }
            return try word.withUnsafeBytes(body)
        }
        try socket.receive(count, deadline: deadline, into: body)
    }

    private func malformed(_ what: String) -> DqliteError {
        DqliteError(code: .protocolError, message: "malformed DUMP response: \(what)", address: socket.address)
    }
}
