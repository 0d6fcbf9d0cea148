#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Deterministic, platform-independent JSON serialisation of `Encodable` values.
///
/// Foundation's `JSONEncoder` escapes and formats numbers differently on Darwin and Linux,
/// so checksums of its output are not portable. `CanonicalJSON` uses its own `Encoder`
/// and writer, following the spirit of RFC 8785 (JSON Canonicalization Scheme):
///
/// - Object keys are sorted by their UTF-16 code units; there is no insignificant whitespace.
///   (Keys are Swift `String`s, so canonically equivalent spellings of a key are one key.)
/// - Strings escape `"` `\` `\b` `\f` `\n` `\r` `\t` and other characters below U+0020 as
///   `\u00xx` (lowercase hex); everything else, including `/` and non-ASCII, is raw UTF-8.
/// - Integers are plain decimal (`Int64.min` through `UInt64.max`).
/// - Doubles: NaN and infinities throw `EncodingError.invalidValue`; integral values with
///   magnitude up to 2^53 are written as integers (`1.0` → `1`, `-0.0` → `0`); other values
///   use Swift's shortest round-trip `description` (`0.5`, `1e+300`, `1e-05`,
///   `9.007199254740994e+15`). `Float`s keep their own shortest form (`Float(0.1)` → `0.1`).
/// - `nil` optionals encoded with `encodeIfPresent` (the synthesized default) are omitted;
///   an explicit `encodeNil` writes `null`.
/// - Like `JSONEncoder`'s defaults, `Data` is written as a Base64 string, `URL` as its
///   `absoluteString` and `Date` as seconds since 2001-01-01, so `JSONDecoder` reads output back.
///
/// ```swift
/// struct Point: Encodable { var y = 2.0, x = 1 }
/// try CanonicalJSON.encode(Point())       // {"x":1,"y":2}
/// try CanonicalJSON.encodePretty(Point()) // "{\n  \"x\": 1,\n  \"y\": 2\n}"
/// ```
enum CanonicalJSON {
    /// Encodes a value as compact canonical JSON text.
    ///
    /// ```swift
    /// try CanonicalJSON.encode(["b": 1, "a": 2]) // {"a":2,"b":1}
    /// ```
    ///
    /// - Throws: `EncodingError.invalidValue` for non-finite floating-point numbers, for values
    ///   that encode nothing at the top level, or for integers outside the 64-bit range.
    /// - Complexity: O(n log n), where n is the size of the encoded value (keys are sorted).
    static func encode<T: Encodable>(_ value: T) throws -> String {
        var output = ""
        try JSONValue(encoding: value).write(to: &output, indent: nil)
        return output
    }

    /// Encodes a value as compact canonical JSON, returned as UTF-8 bytes.
    ///
    /// ```swift
    /// let data = try CanonicalJSON.data(config) // e.g. for SHA256.hash(data)
    /// ```
    ///
    /// - Throws: The same errors as ``encode(_:)``.
    /// - Complexity: O(n log n), where n is the size of the encoded value.
    static func data<T: Encodable>(_ value: T) throws -> Data {
        Data(try encode(value).utf8)
    }

    /// Encodes a value as deterministic, human-friendly JSON for snapshot files.
    ///
    /// Keys are sorted as in ``encode(_:)``, every array element and object member is on its
    /// own line indented by two spaces, members are written `"key": value`, empty arrays and
    /// objects are `[]` and `{}`, and there is no trailing newline.
    ///
    /// ```swift
    /// try CanonicalJSON.encodePretty(["b": [1], "a": []]) // "{\n  \"a\": [],\n  \"b\": [\n    1\n  ]\n}"
    /// ```
    ///
    /// - Throws: The same errors as ``encode(_:)``.
    /// - Complexity: O(n log n), where n is the size of the encoded value.
    static func encodePretty<T: Encodable>(_ value: T) throws -> String {
        var output = ""
        try JSONValue(encoding: value).write(to: &output, indent: "")
        return output
    }
}

/// An in-memory JSON document, the intermediate form produced by `CanonicalJSON`.
enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    /// An unsigned integer above `Int64.max`; smaller values use `integer`.
    case unsigned(UInt64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Builds the JSON tree for an `Encodable` value using the canonical encoding rules.
    ///
    /// - Throws: `EncodingError.invalidValue` if the value cannot be represented.
    /// - Complexity: O(n), where n is the size of the encoded value.
    init<T: Encodable>(encoding value: T) throws {
        guard let encoded = try CanonicalEncoder.box(value, codingPath: []) else {
            throw EncodingError.invalidValue(
                value,
                .init(
                    codingPath: [], debugDescription: "Top-level \(T.self) did not encode any values."))
        }
        self = encoded
    }

    /// Appends the JSON text; `indent` is the current indentation when pretty-printing, `nil` for compact.
    func write(to out: inout String, indent: String?) {
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .integer(let value): out += String(value)
        case .unsigned(let value): out += String(value)
        case .double(let value): out += JSONValue.format(value) ?? "null"
        case .string(let value): JSONValue.writeString(value, to: &out)
        case .array(let elements):
            JSONValue.writeContainer("[", "]", elements, to: &out, indent: indent) { element, out, indent in
                element.write(to: &out, indent: indent)
            }
        case .object(let members):
            let keys = members.keys.sorted { $0.utf16.lexicographicallyPrecedes($1.utf16) }
            JSONValue.writeContainer("{", "}", keys, to: &out, indent: indent) { key, out, indent in
                JSONValue.writeString(key, to: &out)
                out += indent == nil ? ":" : ": "
                members[key]!.write(to: &out, indent: indent)
            }
        }
    }

    private static func writeContainer<Element>(
        _ open: String, _ close: String, _ elements: [Element], to out: inout String, indent: String?,
        writeElement: (Element, inout String, String?) -> Void
    ) {
        out += open
        let inner = indent.map { $0 + "  " }
        for (index, element) in elements.enumerated() {
            if index > 0 { out += "," }
            if let inner { out += "\n" + inner }
            writeElement(element, &out, inner)
        }
        if let indent, !elements.isEmpty { out += "\n" + indent }
        out += close
    }

    /// The canonical text of a finite double, or `nil` for NaN and infinities.
    static func format(_ value: Double) -> String? {
        guard value.isFinite else { return nil }
        // Swift prints integral doubles up to 2^53 as "…0.0" and larger ones in exponent form.
        if value == value.rounded(.towardZero), value.magnitude <= 9_007_199_254_740_992 {
            return String(Int64(value))  // Also maps -0.0 to "0".
        }
        return value.description
    }

    /// `["a","b"]`: each string written as ``writeString(_:to:)`` writes it.
    static func writeStrings(_ strings: [String], to out: inout String) {
        out += "["
        for (position, string) in strings.enumerated() {
            if position > 0 { out += "," }
            writeString(string, to: &out)
        }
        out += "]"
    }

    static func writeString(_ string: String, to out: inout String) {
        if !string.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) {
            // Nothing to escape: one append instead of one per scalar.
            out += "\""
            out += string
            out += "\""
            return
        }
        out += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{00}"..."\u{1F}":
                let hex = String(scalar.value, radix: 16, uppercase: false)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}

// MARK: - Encoder

/// A mutable node of the tree under construction, shared between an encoder and its containers.
private final class CanonicalJSONNode {
    enum Storage {
        case empty
        case value(JSONValue)
        case array([CanonicalJSONNode])
        case object([String: CanonicalJSONNode])
    }
    var storage: Storage

    init(_ storage: Storage = .empty) { self.storage = storage }

    /// The finished value; `nil` if nothing was encoded into this node.
    var value: JSONValue? {
        switch storage {
        case .empty: nil
        case .value(let value): value
        case .array(let nodes): .array(nodes.map { $0.value ?? .object([:]) })
        case .object(let nodes): .object(nodes.mapValues { $0.value ?? .object([:]) })
        }
    }
}

/// A coding key for array indices and `super`.
private struct CanonicalIndexKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue }
    init(intValue: Int) { (self.stringValue, self.intValue) = ("Index \(intValue)", intValue) }
}

/// The `Encoder` behind `CanonicalJSON`; it also serves as its own single-value container.
private struct CanonicalEncoder: Encoder, SingleValueEncodingContainer {
    let node: CanonicalJSONNode
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// Converts one value to JSON, special-casing scalars so they never recurse.
    static func box<T: Encodable>(_ value: T, codingPath: [any CodingKey]) throws -> JSONValue? {
        func invalid(_ reason: String) -> EncodingError {
            .invalidValue(value, .init(codingPath: codingPath, debugDescription: reason))
        }
        switch value {
        case let value as Bool: return .bool(value)
        case let value as String: return .string(value)
        case let value as Double:
            guard value.isFinite else { throw invalid("Non-finite number \(value) is not valid JSON.") }
            return .double(value)
        case let value as Float:
            guard value.isFinite else { throw invalid("Non-finite number \(value) is not valid JSON.") }
            return .double(Double(value.description)!)  // Keeps Float's shortest form, e.g. 0.1.
        case let value as any BinaryInteger:
            if let signed = Int64(exactly: value) { return .integer(signed) }
            if let unsigned = UInt64(exactly: value) { return .unsigned(unsigned) }
            throw invalid("Integer \(value) does not fit in 64 bits.")
        case let value as Data: return .string(value.base64EncodedString())
        case let value as URL: return .string(value.absoluteString)
        default:
            let node = CanonicalJSONNode()
            try value.encode(to: CanonicalEncoder(node: node, codingPath: codingPath))
            if let unordered = value as? any UnorderedEncodable, case .array(let elements)? = node.value {
                return .array(unordered.canonicalOrder(elements))
            }
            return node.value
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object = node.storage {} else { node.storage = .object([:]) }
        return KeyedEncodingContainer(CanonicalKeyedContainer<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = node.storage {} else { node.storage = .array([]) }
        return CanonicalUnkeyedContainer(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    func encodeNil() throws { node.storage = .value(.null) }

    func encode<T: Encodable>(_ value: T) throws {
        node.storage = try CanonicalEncoder.box(value, codingPath: codingPath).map { .value($0) } ?? .empty
    }
}

private struct CanonicalKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: CanonicalJSONNode
    let codingPath: [any CodingKey]

    private func set(_ child: CanonicalJSONNode, forKey key: any CodingKey) {
        guard case .object(var members) = node.storage else { preconditionFailure("Not an object") }
        node.storage = .empty  // Drop the reference so `members` is mutated in place.
        members[key.stringValue] = child
        node.storage = .object(members)
    }

    mutating func encodeNil(forKey key: Key) throws { set(CanonicalJSONNode(.value(.null)), forKey: key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        let child = try CanonicalEncoder.box(value, codingPath: codingPath + [key])
        set(CanonicalJSONNode(child.map { .value($0) } ?? .empty), forKey: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        superEncoder(forKey: key).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        superEncoder(forKey: key).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { encoder(forKey: CanonicalIndexKey(stringValue: "super")) }

    mutating func superEncoder(forKey key: Key) -> any Encoder { encoder(forKey: key) }

    /// An encoder writing into the member for `key`, reusing an existing container there.
    private func encoder(forKey key: any CodingKey) -> CanonicalEncoder {
        let child: CanonicalJSONNode
        if case .object(let members) = node.storage, let existing = members[key.stringValue] {
            child = existing
        } else {
            child = CanonicalJSONNode()
            set(child, forKey: key)
        }
        return CanonicalEncoder(node: child, codingPath: codingPath + [key])
    }
}

private struct CanonicalUnkeyedContainer: UnkeyedEncodingContainer {
    let node: CanonicalJSONNode
    let codingPath: [any CodingKey]

    var count: Int {
        guard case .array(let elements) = node.storage else { return 0 }
        return elements.count
    }

    /// Appends a new element node and returns it.
    @discardableResult
    private func append(_ child: CanonicalJSONNode = CanonicalJSONNode()) -> CanonicalJSONNode {
        guard case .array(var elements) = node.storage else { preconditionFailure("Not an array") }
        node.storage = .empty  // Drop the reference so `elements` is mutated in place.
        elements.append(child)
        node.storage = .array(elements)
        return child
    }

    private var nextPath: [any CodingKey] { codingPath + [CanonicalIndexKey(intValue: count)] }

    mutating func encodeNil() throws { append(CanonicalJSONNode(.value(.null))) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let child = try CanonicalEncoder.box(value, codingPath: nextPath)
        append(CanonicalJSONNode(child.map { .value($0) } ?? .empty))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        superEncoder().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        superEncoder().unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let path = nextPath
        return CanonicalEncoder(node: append(), codingPath: path)
    }
}

/// A collection whose encoded order is its iteration order, which changes from one process to the
/// next (`Set`, and a `Dictionary` whose keys are neither strings nor integers, encoded as an array
/// of alternating keys and values): canonical JSON sorts it, so one value always encodes alike.
protocol UnorderedEncodable {
    /// The elements as encoded, in a canonical order.
    func canonicalOrder(_ elements: [JSONValue]) -> [JSONValue]
}

/// The order canonical JSON gives unordered elements: numbers by value (integers before the
/// rest when equal), then everything else by its JSON text.
private func canonicallyPrecedes(_ a: JSONValue, _ b: JSONValue) -> Bool {
    func number(_ value: JSONValue) -> Double? {
        switch value {
        case .integer(let n): return Double(n)
        case .unsigned(let n): return Double(n)
        case .double(let n): return n
        default: return nil
        }
    }
    func text(_ value: JSONValue) -> String {
        var text = ""
        value.write(to: &text, indent: nil)
        return text
    }
    switch (number(a), number(b)) {
    case (let x?, let y?): return x != y ? x < y : text(a) < text(b)
    case (_?, nil): return true
    case (nil, _?): return false
    case (nil, nil): return text(a) < text(b)
    }
}

extension Set: UnorderedEncodable {
    func canonicalOrder(_ elements: [JSONValue]) -> [JSONValue] {
        elements.sorted(by: canonicallyPrecedes)
    }
}

extension Dictionary: UnorderedEncodable {
    func canonicalOrder(_ elements: [JSONValue]) -> [JSONValue] {
        guard elements.count % 2 == 0 else { return elements }
        let pairs = stride(from: 0, to: elements.count, by: 2).map { (elements[$0], elements[$0 + 1]) }
        return pairs.sorted { canonicallyPrecedes($0.0, $1.0) }.flatMap { [$0.0, $0.1] }
    }
}
