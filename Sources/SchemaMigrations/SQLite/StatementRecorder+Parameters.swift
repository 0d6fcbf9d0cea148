extension StatementRecorder {
    /// `sql` with each parameter (`?`, `?NNN`, `:name`, `@name`, `$name`) replaced by the literal
    /// of its bound value (NULL when unbound), numbered as SQLite numbers them. Doubles keep every
    /// digit (`0.30000000000000004`), text and blobs are quoted; what is inside string literals,
    /// quoted identifiers and comments is left alone.
    static func expand(_ sql: String, values: [Int32: SQLiteValue], index: (String) -> Int32) -> String {
        let bytes = Array(sql.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 16)
        var i = 0
        var largest: Int32 = 0
        func isNameByte(_ byte: UInt8) -> Bool {
            byte >= 0x80 || byte == 0x5F || byte == 0x24 || (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte)
                || (0x61...0x7A).contains(byte)
        }
        func copy(until end: Int) {
            out.append(contentsOf: bytes[i..<min(end, bytes.count)])
            i = min(end, bytes.count)
        }
        func write(_ position: Int32) {
            largest = max(largest, position)
            let value = values[position] ?? .null
            if case .real(let number) = value {
                out.append(contentsOf: SQLiteValue.exactLiteral(for: number).utf8)
            } else if case .text(let text) = value, text.utf8.contains(0) {
                // SQL text ends at a NUL: write the text's bytes as a blob cast back to text.
                out.append(contentsOf: ("CAST(" + SQLiteValue.blob(Array(text.utf8)).sqlLiteral + " AS TEXT)").utf8)
            } else {
                out.append(contentsOf: value.sqlLiteral.utf8)
            }
        }
        while i < bytes.count {
            let byte = bytes[i]
            switch byte {
            case UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "`"), UInt8(ascii: "["):
                let close = byte == UInt8(ascii: "[") ? UInt8(ascii: "]") : byte
                var end = i + 1
                while end < bytes.count && bytes[end] != close { end += 1 }
                copy(until: end + 1)  // a doubled quote is two literals back to back: copied alike
            case UInt8(ascii: "-") where i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "-"):
                var end = i
                while end < bytes.count && bytes[end] != UInt8(ascii: "\n") { end += 1 }
                copy(until: end)
            case UInt8(ascii: "/") where i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "*"):
                var end = i + 2
                while end + 1 < bytes.count && !(bytes[end] == UInt8(ascii: "*") && bytes[end + 1] == UInt8(ascii: "/"))
                { end += 1 }
                copy(until: end + 2)
            case UInt8(ascii: "?"):
                var end = i + 1
                while end < bytes.count && (0x30...0x39).contains(bytes[end]) { end += 1 }
                let position =
                    end > i + 1 ? Int32(String(decoding: bytes[(i + 1)..<end], as: UTF8.self)) ?? 0 : largest + 1
                i = end
                write(position)
            case UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "$"):
                var end = i + 1
                while end < bytes.count && isNameByte(bytes[end]) { end += 1 }
                guard end > i + 1 else {
                    copy(until: i + 1)
                    continue
                }
                let position = index(String(decoding: bytes[i..<end], as: UTF8.self))
                i = end
                write(position)
            default:
                var end = i + 1
                while end < bytes.count && !"'\"`[-/?:@$".utf8.contains(bytes[end]) { end += 1 }
                copy(until: end)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
