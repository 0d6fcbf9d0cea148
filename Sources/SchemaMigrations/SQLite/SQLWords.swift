/// The words of a SQL statement: keywords and identifiers (quoted ones unquoted), skipping
/// whitespace and comments. Enough to tell a statement's kind, not a parser.
struct SQLWords {
    private let bytes: [UInt8]
    private var index = 0

    init(_ sql: String) { bytes = Array(sql.utf8) }

    private mutating func skipSpaceAndComments() {
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x20 || (0x09...0x0D).contains(byte) {
                index += 1
            } else if byte == 0x2D, index + 1 < bytes.count, bytes[index + 1] == 0x2D {  // -- to end of line
                while index < bytes.count && bytes[index] != 0x0A { index += 1 }
                // /* … */ (unterminated: to the end)
            } else if byte == 0x2F, index + 1 < bytes.count, bytes[index + 1] == 0x2A {
                index += 2
                while index < bytes.count
                    && !(bytes[index] == 0x2A && index + 1 < bytes.count && bytes[index + 1] == 0x2F)
                { index += 1 }
                index = min(bytes.count, index + 2)
            } else {
                return
            }
        }
    }

    /// The next non-word character, if the next thing is one.
    mutating func peekSymbol() -> Character? {
        skipSpaceAndComments()
        guard index < bytes.count, !isWordByte(bytes[index]), !isQuote(bytes[index]) else { return nil }
        return Character(Unicode.Scalar(bytes[index]))
    }

    mutating func skipSymbol() { index += 1 }

    private func isWordByte(_ byte: UInt8) -> Bool {
        byte >= 0x80 || byte == 0x5F || byte == 0x24 || (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte)
            || (0x61...0x7A).contains(byte)
    }

    private func isQuote(_ byte: UInt8) -> Bool { byte == 0x22 || byte == 0x60 || byte == 0x5B || byte == 0x27 }

    /// The next word, unquoted, or nil at the end or before a symbol.
    mutating func next() -> String? {
        skipSpaceAndComments()
        guard index < bytes.count else { return nil }
        let first = bytes[index]
        if isQuote(first) {
            let close: UInt8 = first == 0x5B ? 0x5D : first
            var word: [UInt8] = []
            index += 1
            while index < bytes.count {
                if bytes[index] == close {
                    if close != 0x5D, index + 1 < bytes.count, bytes[index + 1] == close {  // a doubled quote
                        word.append(close)
                        index += 2
                        continue
                    }
                    index += 1
                    break
                }
                word.append(bytes[index])
                index += 1
            }
            return String(decoding: word, as: UTF8.self)
        }
        guard isWordByte(first) else { return nil }
        let start = index
        while index < bytes.count && isWordByte(bytes[index]) { index += 1 }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }
}
