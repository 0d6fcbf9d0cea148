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
        try Header.receive(from: socket, deadline: deadline).body(from: socket, deadline: deadline)
    }

    /// A message's first 8 bytes: what its body is and how long. A body too large to hold (a
    /// DUMP's files) can then be read from the socket piece by piece instead (``DumpStream``).
    struct Header {
        let type: UInt8
        let schema: UInt8
        /// The body's length in bytes, a multiple of 8.
        let bodySize: Int

        static func receive(from socket: Socket, deadline: ContinuousClock.Instant) throws -> Header {
            var reader = WireReader(try socket.receive(8, deadline: deadline), address: socket.address)
            let words = try reader.uint32()
            return Header(type: try reader.uint8(), schema: try reader.uint8(), bodySize: Int(words) * 8)
        }

        /// The whole message, its body read from `socket`.
        func body(from socket: Socket, deadline: ContinuousClock.Instant) throws -> Message {
            let body = bodySize == 0 ? [] : try socket.receive(bodySize, deadline: deadline)
            return Message(type: type, schema: schema, body: body)
        }
    }
}
