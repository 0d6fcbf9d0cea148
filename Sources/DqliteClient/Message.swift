/// One message on the wire: an 8-byte header (body size in words, u32; type; schema revision;
/// two unused bytes) and a body that is a whole number of 8-byte words.
struct Message {
    /// The request or response type code.
    let type: UInt8
    /// The revision of the body's schema.
    let schema: UInt8
    /// The body, a multiple of 8 bytes.
    let body: [UInt8]

    /// The header and the body, ready to send.
    var encoded: [UInt8] {
        precondition(body.count % 8 == 0 && !body.isEmpty, "a message body is one or more whole words")
        var writer = WireWriter(capacity: 8 + body.count)
        writer.uint32(UInt32(body.count / 8))
        writer.uint8(type)
        writer.uint8(schema)
        writer.uint8(0)
        writer.uint8(0)
        return writer.bytes + body
    }

    /// Reads one message from `socket`.
    static func receive(from socket: Socket, deadline: ContinuousClock.Instant) throws -> Message {
        let header = try socket.receive(8, deadline: deadline)
        var reader = WireReader(header, address: socket.address)
        let words = try reader.uint32()
        let type = try reader.uint8()
        let schema = try reader.uint8()
        let body = words == 0 ? [] : try socket.receive(Int(words) * 8, deadline: deadline)
        return Message(type: type, schema: schema, body: body)
    }
}
