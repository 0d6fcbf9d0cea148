#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// How a column's default is said in Swift: as the property's initial value (`= ""`,
/// `= Date(timeIntervalSince1970: 0)`), or, when no Swift value stores exactly that SQL text
/// (`0` in a REAL column, `CURRENT_TIMESTAMP`), as `@Attribute(defaultExpression:)` with no initial
/// value.
///
/// Every initial value is checked by storing it the way reflection will: it is chosen only when
/// that gives back the very literal the schema records, so the declaration hashes as its schema.
enum SwiftInitialValue: Equatable {
    /// No default: `@Attribute var rating: Int`.
    case none
    /// The initial value as Swift source: `""`, `nil`, `UUID(uuidString: "…")!`.
    case value(String)
    /// `@Attribute(defaultExpression: "…")`, the SQL as written.
    case expression(String)

    /// How `attribute`'s default is said.
    init(_ attribute: Schema.Attribute) {
        guard let literal = attribute.defaultValue else {
            self = attribute.isOptional ? .value("nil") : .none
            return
        }
        self = Self.value(of: literal, attribute).map(SwiftInitialValue.value) ?? .expression(literal)
    }

    /// The Swift value that reflection stores as exactly `literal`, or nil.
    private static func value(of literal: String, _ attribute: Schema.Attribute) -> String? {
        let storage = attribute.dateStorage ?? .secondsSince1970
        switch attribute.valueType {
        case .integer:
            return Int64(literal).flatMap { SQLiteValue.integer($0).sqlLiteral == literal ? String($0) : nil }
        case .bool:
            return literal == "1" ? "true" : literal == "0" ? "false" : nil
        case .double:
            guard let number = Double(literal), number.isFinite, SQLiteValue.literal(for: number) == literal else {
                return nil
            }
            return number.description
        case .string:
            return text(in: literal).map(stringLiteral)
        case .date:
            // The date the generated `Date(timeIntervalSince1970: seconds)` makes, stored as reflection stores it.
            guard let stored = storedValue(literal), let seconds = storage.date(from: stored)?.timeIntervalSince1970,
                seconds.isFinite
            else { return nil }
            let rebuilt = Date(timeIntervalSince1970: seconds)
            guard storage.storedValue(rebuilt).sqlLiteral == literal,
                // a date this close to now reads as `Date()`, which stores no default
                abs(rebuilt.timeIntervalSinceNow) >= 86_400
            else { return nil }
            return "Date(timeIntervalSince1970: \(seconds.description))"
        case .data:
            guard case .blob(let bytes)? = storedValue(literal) else { return nil }
            return bytes.isEmpty
                ? "Data()" : "Data([" + bytes.map { "0x" + $0.hexadecimal(digits: 2) }.joined(separator: ", ") + "])"
        case .uuid:
            guard let text = text(in: literal), let uuid = UUID(uuidString: text), uuid.uuidString == text else {
                return nil
            }
            return "UUID(uuidString: \(stringLiteral(text)))!"
        case .url:
            guard let text = text(in: literal), URL(string: text)?.absoluteString == text else { return nil }
            return "URL(string: \(stringLiteral(text)))!"
        case .decimal:
            guard let text = text(in: literal), Decimal(string: text)?.description == text else { return nil }
            return "Decimal(string: \(stringLiteral(text)))!"
        case .json, .sqliteValue:
            return nil
        }
    }

    /// The text of an SQL string literal written as SQLite writes one (`'it''s'` → `it's`).
    private static func text(in literal: String) -> String? {
        guard case .text(let text)? = storedValue(literal) else { return nil }
        return text
    }

    /// The value an SQL literal stands for, when it is one written the canonical way.
    private static func storedValue(_ literal: String) -> SQLiteValue? {
        if literal.count >= 2, literal.hasPrefix("'"), literal.hasSuffix("'") {
            let text = String(literal.dropFirst().dropLast()).replacing("''", with: "'")
            return SQL.quoteString(text) == literal ? .text(text) : nil
        }
        if literal.count >= 3, literal.hasPrefix("X'"), literal.hasSuffix("'") {
            let hex = Array(literal.utf8.dropFirst(2).dropLast())
            guard hex.count % 2 == 0 else { return nil }
            var bytes: [UInt8] = []
            for index in stride(from: 0, to: hex.count, by: 2) {
                guard let byte = UInt8(String(decoding: hex[index..<index + 2], as: UTF8.self), radix: 16) else {
                    return nil
                }
                bytes.append(byte)
            }
            return SQLiteValue.blob(bytes).sqlLiteral == literal ? .blob(bytes) : nil
        }
        if let number = Int64(literal) { return .integer(number) }
        if let number = Double(literal) { return .real(number) }
        return nil
    }

    /// `text` as a Swift string literal: quotes, backslashes and control characters escaped.
    static func stringLiteral(_ text: String) -> String {
        // Most names and defaults are printable ASCII with nothing to escape: no per-scalar work.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
            return "\"" + text + "\""
        }
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\0": out += "\\0"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value)
                    || scalar.properties.generalCategory == .format
                    || scalar.properties.generalCategory == .lineSeparator
                    || scalar.properties.generalCategory == .paragraphSeparator
                {
                    out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
