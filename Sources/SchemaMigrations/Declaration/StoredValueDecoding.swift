#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reads a stored SQLite value back as a Swift value of a supported type: the inverse of
/// ``StoredValueType/storedValue(_:as:)``.
enum StoredValueDecoding {
    /// Why a value could not be read, in words ("holds text 'abc'").
    struct Mismatch: Error {
        var found: String
    }

    static func decode<T>(_ value: SQLiteValue, as type: T.Type) throws -> T {
        // Fast paths for the common types: no dynamic casts.
        switch value {
        case .text(let text):
            if T.self == String.self { return text as! T }
            if T.self == String?.self { return Optional(text) as! T }
        case .integer(let number):
            if T.self == Int.self { return Int(number) as! T }
            if T.self == Int?.self { return Optional(Int(number)) as! T }
            if T.self == Int64.self { return number as! T }
        case .real(let number):
            if T.self == Double.self { return number as! T }
            if T.self == Double?.self { return Optional(number) as! T }
        case .null:
            if T.self == String?.self { return String?.none as! T }
            if T.self == Int?.self { return Int?.none as! T }
            if T.self == Double?.self { return Double?.none as! T }
        case .blob:
            break
        }
        guard let decoded = try decodeAny(value, as: type) as? T else { throw Mismatch(found: describe(value)) }
        return decoded
    }

    private static func decodeAny(_ value: SQLiteValue, as type: Any.Type) throws -> Any {
        if type == SQLiteValue.self { return value }  // as stored, NULL included
        if let optional = type as? any OptionalMarker.Type {
            if value.isNull { return optional.noneValue }
            return optional.wrap(try decodeAny(value, as: optional.wrappedType))
        }
        guard !value.isNull else { throw Mismatch(found: "NULL") }
        switch type {
        case is Bool.Type:
            guard let number = value.int64Value, number == 0 || number == 1 else {
                throw Mismatch(found: describe(value))
            }
            return number == 1
        case is Double.Type:
            guard let number = value.doubleValue else { throw Mismatch(found: describe(value)) }
            return number
        case is Float.Type:
            guard let number = value.doubleValue else { throw Mismatch(found: describe(value)) }
            return Float(number)
        case is String.Type:
            guard case .text(let text) = value else { throw Mismatch(found: describe(value)) }
            return text
        case is Date.Type:
            // ISO-8601 text, as GRDB stores dates
            if case .text(let text) = value, let date = DateText.parse(text) { return date }
            guard let seconds = value.doubleValue else { throw Mismatch(found: describe(value)) }
            return Date(timeIntervalSince1970: seconds)
        case is Data.Type:
            guard case .blob(let bytes) = value else { throw Mismatch(found: describe(value)) }
            return Data(bytes)
        case is UUID.Type:
            guard case .text(let text) = value, let uuid = UUID(uuidString: text) else {
                throw Mismatch(found: describe(value))
            }
            return uuid
        case is URL.Type:
            guard case .text(let text) = value, let url = URL(string: text) else {
                throw Mismatch(found: describe(value))
            }
            return url
        case is Decimal.Type:
            guard let text = value.stringValue ?? value.int64Value.map(String.init), let decimal = Decimal(string: text)
            else { throw Mismatch(found: describe(value)) }
            return decimal
        default:
            break
        }
        if let integer = type as? any BinaryInteger.Type {
            guard let number = value.int64Value, let converted = makeInteger(integer, number) else {
                throw Mismatch(found: describe(value))
            }
            return converted
        }
        if let representable = type as? any RawRepresentable.Type {
            return try makeRepresentable(representable, from: value)
        }
        if let decodable = type as? any Decodable.Type {
            guard case .text(let json) = value else { throw Mismatch(found: describe(value)) }
            do {
                return try JSONDecoder().decode(decodable, from: Data(json.utf8))
            } catch {
                throw Mismatch(found: "JSON that does not decode: \(Schema.describe(decodingError: error))")
            }
        }
        throw Mismatch(found: describe(value))
    }

    private static func makeInteger<I: BinaryInteger>(_ type: I.Type, _ value: Int64) -> I? { I(exactly: value) }

    private static func makeRepresentable<R: RawRepresentable>(_ type: R.Type, from value: SQLiteValue) throws -> R {
        let raw = try decodeAny(value, as: R.RawValue.self)
        guard let raw = raw as? R.RawValue, let result = R(rawValue: raw) else {
            throw Mismatch(found: describe(value) + ", not a \(R.self) raw value")
        }
        return result
    }

    static func describe(_ value: SQLiteValue) -> String {
        switch value {
        case .null: return "NULL"
        case .integer(let number): return "integer \(number)"
        case .real(let number): return "real \(number)"
        case .text(let text): return "text " + SQL.quoteString(text.count > 40 ? String(text.prefix(40)) + "…" : text)
        case .blob(let bytes): return "a blob of \(bytes.count) bytes"
        }
    }
}
