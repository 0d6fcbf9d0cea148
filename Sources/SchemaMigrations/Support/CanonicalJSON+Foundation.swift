import Foundation

/// JSON the `migrate` command writes, in the same canonical pretty form as the reports (sorted
/// keys, two-space indentation, `"key": value`), from the objects Foundation's
/// `JSONSerialization` reads and writes: so a report's JSON can be read back, given more keys,
/// and written again without a second JSON writer. For the `migrate` command (package API).
///
/// ```swift
/// var object = CommandJSON.object(parsing: try report.json())
/// object["exitStatus"] = 0
/// print(CommandJSON.text(object))
/// ```
package enum CommandJSON {
    /// `value` (dictionaries with string keys, arrays, strings, numbers, booleans, `NSNull`) as
    /// pretty JSON ending with a newline. Anything else is written as `null`.
    package static func text(_ value: Any) -> String {
        var out = ""
        JSONValue(foundation: value).write(to: &out, indent: "")
        return out + "\n"
    }

    /// A JSON object's text read back into Foundation objects; empty when it is not an object.
    package static func object(parsing json: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any] ?? [:]
    }
}

extension JSONValue {
    /// The JSON tree of a Foundation object. Booleans, parsed or native, are the `NSNumber`s of
    /// Objective-C type `c`; doubles those of type `d` or `f`.
    init(foundation value: Any) {
        switch value {
        case let object as [String: Any]: self = .object(object.mapValues(JSONValue.init(foundation:)))
        case let array as [Any]: self = .array(array.map(JSONValue.init(foundation:)))
        case let string as String: self = .string(string)
        case let number as NSNumber:
            switch String(cString: number.objCType) {
            case "c": self = .bool(number.boolValue)
            case "d", "f": self = .double(number.doubleValue)
            default: self = .integer(number.int64Value)
            }
        default: self = .null
        }
    }
}
