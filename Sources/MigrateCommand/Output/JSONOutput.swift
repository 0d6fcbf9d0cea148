import Foundation
import SchemaMigrations

/// JSON written by the command: sorted keys, two-space indentation, like the library's reports.
enum JSONOutput {
    /// `value` (dictionaries, arrays, strings, numbers, booleans, `NSNull`) as indented JSON, ending with a newline.
    static func string(_ value: Any) -> String {
        var out = ""
        write(value, indent: "", to: &out)
        return out + "\n"
    }

    private static func write(_ value: Any, indent: String, to out: inout String) {
        let inner = indent + "  "
        switch value {
        case let object as [String: Any]:
            guard !object.isEmpty else { return out += "{}" }
            out += "{\n"
            for (index, key) in object.keys.sorted().enumerated() {
                out += inner + quoted(key) + ": "
                write(object[key]!, indent: inner, to: &out)
                out += index == object.count - 1 ? "\n" : ",\n"
            }
            out += indent + "}"
        case let array as [Any]:
            guard !array.isEmpty else { return out += "[]" }
            out += "[\n"
            for (index, element) in array.enumerated() {
                out += inner
                write(element, indent: inner, to: &out)
                out += index == array.count - 1 ? "\n" : ",\n"
            }
            out += indent + "]"
        case let string as String:
            out += quoted(string)
        case let number as NSNumber:
            // Booleans, parsed or native, are the NSNumbers of type "c"; doubles "d" or "f".
            switch String(cString: number.objCType) {
            case "c": out += number.boolValue ? "true" : "false"
            case "d", "f": out += number.doubleValue.isFinite ? "\(number.doubleValue)" : "null"
            default: out += "\(number.int64Value)"
            }
        default:
            out += "null"
        }
    }

    private static func quoted(_ string: String) -> String {
        var out = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// A JSON object written by the library (a report), to add keys to.
    static func object(parsing json: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any] ?? [:]
    }

    /// A version, or JSON null.
    static func version(_ version: Schema.Version?) -> Any { version.map(\.description) ?? NSNull() }

    /// An error as an object: `code`, `message`, and the context the error has.
    static func error(_ error: Error) -> [String: Any] {
        guard let error = error as? MigrationError else { return ["code": "error", "message": "\(error)"] }
        var object: [String: Any] = ["code": error.code.rawValue, "message": error.message, "details": error.details]
        object["entity"] = error.entity
        object["property"] = error.property
        object["version"] = error.version?.description
        object["remedy"] = error.remedy
        object["sqlite"] = error.sqliteError?.description
        return object
    }

    /// A stage with its steps, as a migration ran it.
    static func stage(_ stage: PlannedStage) -> [String: Any] {
        ["from": stage.from.description, "to": stage.to.description, "kind": stage.kind.rawValue,
         "steps": stage.allSteps.map { step -> [String: Any] in
             ["op": step.op.rawValue, "table": step.table, "summary": step.summary, "sql": step.sql,
              "rewritesRows": step.rewritesRows, "destructive": step.destructive]
         }]
    }
}
