/// Reads a message body written as ``WireWriter`` writes one; every read is bounds-checked and
/// throws `.protocolError` past the end.
struct WireReader {
    private let bytes: [UInt8]
    private(set) var offset = 0
    /// Where errors say the message came from.
    let address: String?

    init(_ bytes: [UInt8], address: String?) {
        self.bytes = bytes
        self.address = address
    }

    /// Whether every byte has been read.
    var isAtEnd: Bool { offset >= bytes.count }

    mutating func uint8() throws -> UInt8 {
        try need(1)
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func uint32() throws -> UInt32 {
        try need(4)
        var value: UInt32 = 0
        for index in 0..<4 { value |= UInt32(bytes[offset + index]) << (8 * index) }
        offset += 4
        return value
    }

    mutating func uint64() throws -> UInt64 {
        let value = try peekUInt64()
        offset += 8
        return value
    }

    /// The next word, without moving past it.
    func peekUInt64() throws -> UInt64 {
        try need(8)
        var value: UInt64 = 0
        for index in 0..<8 { value |= UInt64(bytes[offset + index]) << (8 * index) }
        return value
    }

    mutating func int64() throws -> Int64 { Int64(bitPattern: try uint64()) }

    mutating func double() throws -> Double { Double(bitPattern: try uint64()) }

    /// Zero-terminated UTF-8, then padding to the next word.
    mutating func text() throws -> String {
        guard let end = bytes[offset...].firstIndex(of: 0) else {
            throw malformed("text without a terminating zero")
        }
        let value = String(decoding: bytes[offset..<end], as: UTF8.self)
        offset = (end + 1 + 7) & ~7
        return value
    }

    /// A length word, the bytes, then padding to the next word.
    mutating func blob() throws -> [UInt8] {
        let count = Int(try uint64())
        return try raw(count, padded: true)
    }

    /// `count` bytes, optionally followed by padding to the next word.
    mutating func raw(_ count: Int, padded: Bool) throws -> [UInt8] {
        try need(count)
        let value = Array(bytes[offset..<(offset + count)])
        offset += padded ? (count + 7) & ~7 : count
        return value
    }

    /// Skips to the next 8-byte boundary.
    mutating func align() { offset = (offset + 7) & ~7 }

    func malformed(_ what: String) -> DqliteError {
        DqliteError(code: .protocolError, message: "malformed response: \(what)", address: address)
    }

    private func need(_ count: Int) throws {
        guard count >= 0, offset + count <= bytes.count else {
            throw malformed("\(count) bytes wanted at offset \(offset) of \(bytes.count)")
        }
    }
}
