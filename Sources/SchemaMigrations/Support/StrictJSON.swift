/// A JSON document read without `Codable`, for the files every run of the `migrate` command reads
/// (`plan.json` and the schema snapshots): `JSONDecoder` instantiates its generic containers and
/// looks up their conformances at run time, which costs a short-lived process more than the
/// reading itself.
///
/// It reads a strict subset of JSON only, and says nil for anything outside it, so that callers
/// fall back on `JSONDecoder`, which then decodes the document or refuses it with its own error:
/// what a file means, and every error a malformed file gets, stay `JSONDecoder`'s.
///
/// Outside the subset (nil): numbers other than integers that fit an `Int`, `\u` escapes, raw
/// control characters and invalid UTF-8 in strings, an object naming a key twice, nesting deeper
/// than ``maximumDepth``, anything after the document, and anything not JSON at all.
///
/// ```swift
/// let document = StrictJSON.parse(Array(#"{"versions": ["1.0.0"]}"#.utf8))
/// document?.member("versions")?.array?.first?.string   // "1.0.0"
/// ```
enum StrictJSON: Sendable, Equatable {
    case null
    case bool(Bool)
    case integer(Int)
    case string(String)
    case array([StrictJSON])
    /// Members in the order the document gives them; no key is repeated.
    case object([(key: String, value: StrictJSON)])

    /// Deeper documents are left to `JSONDecoder`.
    static let maximumDepth = 64

    /// The document `bytes` hold, or nil when it is outside the subset (see ``StrictJSON``).
    static func parse(_ bytes: UnsafeRawBufferPointer) -> StrictJSON? {
        var reader = Reader(bytes: bytes)
        reader.skipWhitespace()
        guard let value = reader.value(depth: 0) else { return nil }
        reader.skipWhitespace()
        return reader.position == bytes.count ? value : nil
    }

    /// The document `bytes` hold, or nil when it is outside the subset.
    static func parse(_ bytes: [UInt8]) -> StrictJSON? {
        bytes.withUnsafeBytes { parse($0) }
    }

    var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    var array: [StrictJSON]? {
        if case .array(let value) = self { return value }
        return nil
    }

    var members: [(key: String, value: StrictJSON)]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The value of member `key` of an object; nil when absent or when this is not an object.
    func member(_ key: String) -> StrictJSON? {
        members?.first { $0.key == key }?.value
    }

    static func == (lhs: StrictJSON, rhs: StrictJSON) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.integer(let a), .integer(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    /// Whether `bytes` are well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing
    /// above U+10FFFF).
    static func isValidUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let count: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: count = 1
            case 0xE0:
                count = 2
                low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: count = 2
            case 0xED:
                count = 2
                high = 0x9F
            case 0xF0:
                count = 3
                low = 0x90
            case 0xF1...0xF3: count = 3
            case 0xF4:
                count = 3
                high = 0x8F
            default: return false
            }
            for offset in 1...count {
                guard index + offset < bytes.count else { return false }
                let byte = bytes[index + offset]
                let (lower, upper) = offset == 1 ? (low, high) : (UInt8(0x80), UInt8(0xBF))
                guard byte >= lower, byte <= upper else { return false }
            }
            index += count + 1
        }
        return true
    }

    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var position = 0

        init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

        var current: UInt8? { position < bytes.count ? bytes[position] : nil }

        mutating func skipWhitespace() {
            while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { position += 1 }
        }

        mutating func value(depth: Int) -> StrictJSON? {
            guard depth < StrictJSON.maximumDepth, let byte = current else { return nil }
            switch byte {
            case UInt8(ascii: "{"): return object(depth: depth)
            case UInt8(ascii: "["): return array(depth: depth)
            case UInt8(ascii: "\""): return string().map(StrictJSON.string)
            case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
            case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
            case UInt8(ascii: "n"): return literal("null") ? .null : nil
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return integer().map(StrictJSON.integer)
            default: return nil
            }
        }

        mutating func literal(_ word: StaticString) -> Bool {
            let count = word.utf8CodeUnitCount
            guard bytes.count - position >= count else { return false }
            let matches = word.withUTF8Buffer { word in (0..<count).allSatisfy { bytes[position + $0] == word[$0] } }
            guard matches else { return false }
            position += count
            return true
        }

        /// `-?(0|[1-9][0-9]*)` with no fraction or exponent, within `Int`'s range.
        mutating func integer() -> Int? {
            let negative = current == UInt8(ascii: "-")
            if negative { position += 1 }
            guard let first = current, first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9") else { return nil }
            var magnitude: UInt64 = 0
            var digits = 0
            while let byte = current, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                let (times, overflowTimes) = magnitude.multipliedReportingOverflow(by: 10)
                let (sum, overflowSum) = times.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
                guard !overflowTimes, !overflowSum else { return nil }
                magnitude = sum
                digits += 1
                position += 1
            }
            if first == UInt8(ascii: "0") && digits > 1 { return nil }  // a leading zero is not JSON
            if let byte = current, byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                return nil
            }
            if negative {
                guard magnitude <= UInt64(Int.max) + 1 else { return nil }
                return magnitude == UInt64(Int.max) + 1 ? Int.min : -Int(magnitude)
            }
            guard magnitude <= UInt64(Int.max) else { return nil }
            return Int(magnitude)
        }

        /// A string with the two-character escapes only; its bytes must be valid UTF-8.
        mutating func string() -> String? {
            position += 1  // the opening quote
            let start = position
            var unescaped: [UInt8]?
            while let byte = current {
                switch byte {
                case UInt8(ascii: "\""):
                    let raw = UnsafeRawBufferPointer(rebasing: bytes[start..<position])
                    position += 1
                    if let unescaped {
                        return unescaped.withUnsafeBytes { StrictJSON.isValidUTF8($0) }
                            ? String(decoding: unescaped, as: UTF8.self) : nil
                    }
                    return StrictJSON.isValidUTF8(raw) ? String(decoding: raw, as: UTF8.self) : nil
                case UInt8(ascii: "\\"):
                    guard position + 1 < bytes.count else { return nil }
                    let replacement: UInt8
                    switch bytes[position + 1] {
                    case UInt8(ascii: "\""): replacement = UInt8(ascii: "\"")
                    case UInt8(ascii: "\\"): replacement = UInt8(ascii: "\\")
                    case UInt8(ascii: "/"): replacement = UInt8(ascii: "/")
                    case UInt8(ascii: "b"): replacement = 0x08
                    case UInt8(ascii: "f"): replacement = 0x0C
                    case UInt8(ascii: "n"): replacement = 0x0A
                    case UInt8(ascii: "r"): replacement = 0x0D
                    case UInt8(ascii: "t"): replacement = 0x09
                    default: return nil  // \u and anything else: left to JSONDecoder
                    }
                    if unescaped == nil { unescaped = Array(bytes[start..<position]) }
                    unescaped!.append(replacement)
                    position += 2
                case 0x00..<0x20:
                    return nil
                default:
                    unescaped?.append(byte)
                    position += 1
                }
            }
            return nil
        }

        mutating func array(depth: Int) -> StrictJSON? {
            position += 1
            var elements: [StrictJSON] = []
            skipWhitespace()
            if current == UInt8(ascii: "]") {
                position += 1
                return .array(elements)
            }
            while true {
                skipWhitespace()
                guard let element = value(depth: depth + 1) else { return nil }
                elements.append(element)
                skipWhitespace()
                switch current {
                case UInt8(ascii: ","): position += 1
                case UInt8(ascii: "]"):
                    position += 1
                    return .array(elements)
                default: return nil
                }
            }
        }

        mutating func object(depth: Int) -> StrictJSON? {
            position += 1
            var members: [(key: String, value: StrictJSON)] = []
            skipWhitespace()
            if current == UInt8(ascii: "}") {
                position += 1
                return .object(members)
            }
            while true {
                skipWhitespace()
                guard current == UInt8(ascii: "\""), let key = string() else { return nil }
                guard !members.contains(where: { $0.key == key }) else { return nil }
                skipWhitespace()
                guard current == UInt8(ascii: ":") else { return nil }
                position += 1
                skipWhitespace()
                guard let value = value(depth: depth + 1) else { return nil }
                members.append((key, value))
                skipWhitespace()
                switch current {
                case UInt8(ascii: ","): position += 1
                case UInt8(ascii: "}"):
                    position += 1
                    return .object(members)
                default: return nil
                }
            }
        }
    }
}

/// The members of a JSON object read as a `Decodable` type's `init(from:)` reads them, for
/// readers built on ``StrictJSON``: a required key must be there, an optional one may be absent,
/// and every other case throws ``StrictObject/OutsideSubset``, for the caller to hand the whole
/// document to `JSONDecoder` instead. That covers what `JSONDecoder` would refuse (a missing key,
/// a value of the wrong type) and, to stay on the safe side, what it would read without a word:
/// `null`, and keys the type does not know.
///
/// ```swift
/// let object = try StrictObject(json, keys: ["name", "isOptional"])
/// let name = try object.required("name", \.string)
/// let isOptional = try object.optional("isOptional", \.bool) ?? false
/// ```
struct StrictObject {
    /// What makes a document a fallback's: see ``StrictObject``.
    struct OutsideSubset: Error {}

    let members: [(key: String, value: StrictJSON)]

    /// - Throws: ``OutsideSubset`` unless `json` is an object whose every key is one of `keys`.
    init(_ json: StrictJSON, keys: [String]) throws {
        guard let members = json.members, members.allSatisfy({ keys.contains($0.key) }) else {
            throw OutsideSubset()
        }
        self.members = members
    }

    /// The value of `key` read by `read`.
    /// - Throws: ``OutsideSubset`` when `key` is absent or `read` says nil.
    func required<T>(_ key: String, _ read: (StrictJSON) throws -> T?) throws -> T {
        guard let value = try optional(key, read) else { throw OutsideSubset() }
        return value
    }

    /// The value of `key` read by `read`, nil when `key` is absent.
    /// - Throws: ``OutsideSubset`` when the value is `null` or `read` says nil.
    func optional<T>(_ key: String, _ read: (StrictJSON) throws -> T?) throws -> T? {
        guard let value = members.first(where: { $0.key == key })?.value else { return nil }
        guard let read = try read(value) else { throw OutsideSubset() }
        return read
    }

    /// An array's elements, each read by `read`; nil unless `json` is an array and `read` reads every element.
    static func array<T>(_ json: StrictJSON, _ read: (StrictJSON) throws -> T?) throws -> [T]? {
        guard let elements = json.array else { return nil }
        var values: [T] = []
        values.reserveCapacity(elements.count)
        for element in elements {
            guard let value = try read(element) else { return nil }
            values.append(value)
        }
        return values
    }
}

extension StrictJSON {
    var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    var integer: Int? {
        if case .integer(let value) = self { return value }
        return nil
    }

    /// An array of strings, nil unless every element is one.
    var strings: [String]? {
        guard let elements = array else { return nil }
        var values: [String] = []
        values.reserveCapacity(elements.count)
        for element in elements {
            guard let value = element.string else { return nil }
            values.append(value)
        }
        return values
    }
}
