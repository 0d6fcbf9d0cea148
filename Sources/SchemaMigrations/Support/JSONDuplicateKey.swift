/// A key that an object of a JSON document names twice with different values: JSON (RFC 8259)
/// leaves such a document's meaning to the reader, and readers disagree (one takes the first
/// value, another the last), so a plan file or snapshot that holds one is refused rather than read
/// one way here and another way elsewhere.
///
/// ```swift
/// let duplicate = JSONDuplicateKey.first(in: Array(#"{"name": "app", "name": "lib"}"#.utf8))
/// duplicate?.description   // the key 'name' twice, with different values: "app" and "lib"
/// ```
///
/// A key given twice with the same value is no ambiguity and is not reported. A document that is
/// not JSON at all gives nil: reading it fails with the JSON reader's own error.
struct JSONDuplicateKey: Equatable, CustomStringConvertible {
    /// Where the object is: `stages[0]`, `entities[2].attributes[1]`, or empty for the document itself.
    var path: String
    var key: String
    /// Each value as the document writes it (shortened when long).
    var first: String
    var second: String

    var description: String {
        "the key '\(key)'\(path.isEmpty ? "" : " of \(path)") twice, with different values: \(first) and \(second)"
    }

    /// The first key named twice with different values in the document `bytes` hold, in document
    /// order; nil when there is none or when `bytes` are not JSON.
    /// - Complexity: O(*n* × *d*) for a document of *n* bytes nested *d* deep.
    static func first(in bytes: [UInt8]) -> JSONDuplicateKey? {
        var scanner = Scanner(bytes: bytes)
        scanner.skipWhitespace()
        guard scanner.value(path: "", depth: 0) != nil else { return nil }
        scanner.skipWhitespace()
        return scanner.position == bytes.count ? scanner.found : nil
    }

    /// Reads a document's values just enough to compare them: strings decoded, numbers as written.
    private struct Scanner {
        let bytes: [UInt8]
        var position = 0
        var found: JSONDuplicateKey?

        /// JSONDecoder's own limit: deeper documents are its to refuse.
        static let maximumDepth = 512

        init(bytes: [UInt8]) { self.bytes = bytes }

        var current: UInt8? { position < bytes.count ? bytes[position] : nil }

        mutating func skipWhitespace() {
            while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { position += 1 }
        }

        /// The value at the current position in a form equal for equal values; nil when it is not
        /// JSON. Scanning goes on after the first duplicate, to tell a document from a fragment.
        mutating func value(path: String, depth: Int) -> String? {
            guard depth < Self.maximumDepth, let byte = current else { return nil }
            switch byte {
            case UInt8(ascii: "{"): return object(path: path, depth: depth)
            case UInt8(ascii: "["): return array(path: path, depth: depth)
            case UInt8(ascii: "\""): return string().map { "\"" + $0 }
            default:
                // A number or a literal, compared as written: everything up to a delimiter.
                let start = position
                while let byte = current, !" \t\r\n,]}".utf8.contains(byte) { position += 1 }
                let text = String(decoding: bytes[start..<position], as: UTF8.self)
                return ["true", "false", "null"].contains(text) || Self.isNumber(text) ? text : nil
            }
        }

        /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`: a JSON number (RFC 8259, section 6).
        static func isNumber(_ text: String) -> Bool {
            var rest = Substring(text)
            func digits() -> Int {
                let count = rest.prefix { $0.isASCII && $0.isNumber }.count
                rest = rest.dropFirst(count)
                return count
            }
            if rest.first == "-" { rest = rest.dropFirst() }
            let leadingZero = rest.first == "0"
            let integer = digits()
            guard integer > 0, !leadingZero || integer == 1 else { return false }
            if rest.first == "." {
                rest = rest.dropFirst()
                guard digits() > 0 else { return false }
            }
            if rest.first == "e" || rest.first == "E" {
                rest = rest.dropFirst()
                if rest.first == "+" || rest.first == "-" { rest = rest.dropFirst() }
                guard digits() > 0 else { return false }
            }
            return rest.isEmpty
        }

        mutating func array(path: String, depth: Int) -> String? {
            position += 1
            skipWhitespace()
            var elements: [String] = []
            if current == UInt8(ascii: "]") {
                position += 1
                return "[]"
            }
            while true {
                guard let element = value(path: "\(path)[\(elements.count)]", depth: depth + 1) else { return nil }
                elements.append(element)
                skipWhitespace()
                switch current {
                case UInt8(ascii: ","):
                    position += 1
                    skipWhitespace()
                case UInt8(ascii: "]"):
                    position += 1
                    return "[" + elements.joined(separator: ",") + "]"
                default: return nil
                }
            }
        }

        mutating func object(path: String, depth: Int) -> String? {
            position += 1
            skipWhitespace()
            var members: [(key: String, value: String, written: String)] = []
            if current == UInt8(ascii: "}") {
                position += 1
                return "{}"
            }
            while true {
                guard current == UInt8(ascii: "\""), let key = string() else { return nil }
                skipWhitespace()
                guard current == UInt8(ascii: ":") else { return nil }
                position += 1
                skipWhitespace()
                let start = position
                let memberPath = path.isEmpty ? key : "\(path).\(key)"
                guard let value = value(path: memberPath, depth: depth + 1) else { return nil }
                let written = Self.shortened(String(decoding: bytes[start..<position], as: UTF8.self))
                if found == nil, let earlier = members.first(where: { $0.key == key }), earlier.value != value {
                    found = JSONDuplicateKey(path: path, key: key, first: earlier.written, second: written)
                }
                members.append((key, value, written))
                skipWhitespace()
                switch current {
                case UInt8(ascii: ","):
                    position += 1
                    skipWhitespace()
                case UInt8(ascii: "}"):
                    position += 1
                    let sorted = members.sorted { $0.key < $1.key }
                    return "{" + sorted.map { "\"\($0.key):\($0.value)" }.joined(separator: ",") + "}"
                default: return nil
                }
            }
        }

        /// A string's content with its escapes decoded (`\u` ones too, surrogate pairs joined).
        mutating func string() -> String? {
            position += 1
            var scalars = String.UnicodeScalarView()
            var raw: [UInt8] = []
            func flush() {
                scalars.append(contentsOf: String(decoding: raw, as: UTF8.self).unicodeScalars)
                raw.removeAll()
            }
            while let byte = current {
                position += 1
                switch byte {
                case UInt8(ascii: "\""):
                    flush()
                    return String(scalars)
                case UInt8(ascii: "\\"):
                    guard let escaped = current else { return nil }
                    position += 1
                    flush()
                    switch escaped {
                    case UInt8(ascii: "b"): scalars.append("\u{8}")
                    case UInt8(ascii: "f"): scalars.append("\u{C}")
                    case UInt8(ascii: "n"): scalars.append("\n")
                    case UInt8(ascii: "r"): scalars.append("\r")
                    case UInt8(ascii: "t"): scalars.append("\t")
                    case UInt8(ascii: "u"):
                        guard var code = hexQuad() else { return nil }
                        if (0xD800..<0xDC00).contains(code), current == UInt8(ascii: "\\"),
                            position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "u")
                        {
                            position += 2
                            guard let low = hexQuad(), (0xDC00..<0xE000).contains(low) else { return nil }
                            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        }
                        scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
                    default: scalars.append(Unicode.Scalar(escaped))  // \" \\ \/
                    }
                default: raw.append(byte)
                }
            }
            return nil
        }

        /// Four hexadecimal digits.
        mutating func hexQuad() -> UInt32? {
            guard position + 4 <= bytes.count else { return nil }
            var code: UInt32 = 0
            for byte in bytes[position..<position + 4] {
                guard let digit = Character(Unicode.Scalar(byte)).hexDigitValue else { return nil }
                code = code * 16 + UInt32(digit)
            }
            position += 4
            return code
        }

        /// `text`, or its first 60 characters and an ellipsis.
        static func shortened(_ text: String) -> String {
            text.count <= 60 ? text : text.prefix(60) + "…"
        }
    }
}
