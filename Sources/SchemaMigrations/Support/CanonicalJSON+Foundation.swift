#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// JSON the `migrate` command writes, in the same canonical pretty form as the reports (sorted
/// keys, two-space indentation, `"key": value`), from plain Swift values (`[String: Any]`,
/// `[Any]`, `String`, `Bool`, integers, `Double`, and ``JSONNull``): so a report's JSON can be
/// read back, given more keys, and written again without a second JSON writer. For the
/// `migrate` command (package API).
///
/// ```swift
/// var object = CommandJSON.object(parsing: try report.json())
/// object["exitStatus"] = 0
/// print(CommandJSON.text(object))
/// ```
package enum CommandJSON {
    /// `value` as pretty JSON ending with a newline. Anything that is no JSON value is written as `null`.
    package static func text(_ value: Any) -> String {
        var out = ""
        JSONValue(plain: value).write(to: &out, indent: "")
        return out + "\n"
    }

    /// A JSON object's text read back into plain Swift values; empty when it is not an object.
    package static func object(parsing json: String) -> [String: Any] {
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(json.utf8)) else { return [:] }
        return value.plain as? [String: Any] ?? [:]
    }
}

/// JSON's `null` among plain Swift values (what `NSNull` is to `JSONSerialization`).
package struct JSONNull: Sendable, Equatable {
    package init() {}
}

extension JSONValue: Decodable {
    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(UInt64.self) {
            self = .unsigned(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }
}

extension JSONValue {
    /// The JSON tree of plain Swift values. Booleans are `Bool`, never numbers.
    init(plain value: Any) {
        switch value {
        case let object as [String: Any]: self = .object(object.mapValues(JSONValue.init(plain:)))
        case let array as [Any]: self = .array(array.map(JSONValue.init(plain:)))
        case let string as String: self = .string(string)
        case let value as Bool: self = .bool(value)
        case let value as Int: self = .integer(Int64(value))
        case let value as Int64: self = .integer(value)
        case let value as Int32: self = .integer(Int64(value))
        case let value as UInt64: self = .unsigned(value)
        case let value as UInt: self = .unsigned(UInt64(value))
        case let value as Double: self = .double(value)
        case let value as JSONValue: self = value
        default: self = .null
        }
    }

    /// The tree as plain Swift values (`null` as ``JSONNull``).
    var plain: Any {
        switch self {
        case .null: return JSONNull()
        case .bool(let value): return value
        case .integer(let value): return Int(truncatingIfNeeded: value)
        case .unsigned(let value): return value
        case .double(let value): return value
        case .string(let value): return value
        case .array(let elements): return elements.map(\.plain)
        case .object(let members): return members.mapValues(\.plain)
        }
    }
}
