import Foundation

/// Maps Swift types to how their values are stored, and values to SQL default literals.
///
/// The supported types: all integer types, `Double`, `Float`, `Bool`, `String`, `Date`, `Data`,
/// `UUID`, `URL`, `Decimal`, optionals of them, `RawRepresentable` types stored as their raw
/// value, and other `Codable` types stored as JSON text.
struct StoredValueType {
    var valueType: Schema.ValueType
    var isOptional: Bool
    /// The Swift type's name, for reports.
    var swiftTypeName: String
    /// For `RawRepresentable` types: the raw value's stored type.
    var rawValueType: Any.Type?

    /// Classifies `type`, or returns nil when it cannot be stored.
    init?(_ type: Any.Type) {
        var base = type
        var isOptional = false
        if let optional = type as? any OptionalMarker.Type {
            base = optional.wrappedType
            isOptional = true
            if base is any OptionalMarker.Type { return nil }  // T?? has no column meaning
        }
        self.isOptional = isOptional
        self.swiftTypeName = String(describing: base)
        if let primitive = StoredValueType.primitive(base) {
            valueType = primitive
            rawValueType = nil
        } else if let representable = base as? any RawRepresentable.Type,
                  let raw = StoredValueType.primitive(StoredValueType.rawType(of: representable)) {
            valueType = raw
            rawValueType = StoredValueType.rawType(of: representable)
        } else if base is any Codable.Type, !(base is AnyObject.Type) {
            valueType = .json
            rawValueType = nil
        } else {
            return nil
        }
    }

    private static func rawType<T: RawRepresentable>(of type: T.Type) -> Any.Type { T.RawValue.self }

    private static func primitive(_ type: Any.Type) -> Schema.ValueType? {
        switch type {
        case is Int.Type, is Int8.Type, is Int16.Type, is Int32.Type, is Int64.Type,
             is UInt.Type, is UInt8.Type, is UInt16.Type, is UInt32.Type, is UInt64.Type:
            return .integer
        case is Double.Type, is Float.Type: return .double
        case is Bool.Type: return .bool
        case is String.Type: return .string
        case is Date.Type: return .date
        case is Data.Type: return .data
        case is UUID.Type: return .uuid
        case is URL.Type: return .url
        case is Decimal.Type: return .decimal
        default: return nil
        }
    }

    /// The SQL literal storing `value` (a value of this type), or nil for `nil`.
    func sqlLiteral(for value: Any) throws -> String? {
        guard let unwrapped = StoredValueType.unwrap(value) else { return nil }
        return try StoredValueType.storedValue(unwrapped, as: valueType).sqlLiteral
    }

    /// `value` as SQLite stores it for `valueType`.
    static func storedValue(_ value: Any, as valueType: Schema.ValueType) throws -> SQLiteValue {
        if let representable = value as? any RawRepresentable, valueType != .json {
            return try storedValue(representable.rawValue, as: valueType)
        }
        switch (valueType, value) {
        case (.integer, let number as any BinaryInteger): return .integer(Int64(truncatingIfNeeded: number))
        case (.double, let number as Double): return .real(number)
        case (.double, let number as Float): return .real(Double(number))
        case (.bool, let flag as Bool): return .integer(flag ? 1 : 0)
        case (.string, let text as String): return .text(text)
        case (.date, let date as Date): return .real(date.timeIntervalSince1970)
        case (.data, let data as Data): return .blob(Array(data))
        case (.uuid, let uuid as UUID): return .text(uuid.uuidString)
        case (.url, let url as URL): return .text(url.absoluteString)
        case (.decimal, let decimal as Decimal): return .text(decimal.description)
        case (.json, let encodable as any Encodable): return .text(try CanonicalJSON.encode(encodable))
        default:
            throw MigrationError(.unsupportedType, "a value of type \(type(of: value)) cannot be stored as \(valueType.rawValue)")
        }
    }

    /// The wrapped value of an optional, or the value itself; nil for `.none`.
    static func unwrap(_ value: Any) -> Any? {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return value }
        guard let child = mirror.children.first else { return nil }
        return unwrap(child.value)
    }
}

/// Lets reflection see through `Optional<Wrapped>`.
protocol OptionalMarker {
    static var wrappedType: Any.Type { get }
    /// `Optional<Wrapped>.none`, boxed.
    static var noneValue: Any { get }
    /// `Optional<Wrapped>.some(value)`, boxed; `value` must be a `Wrapped`.
    static func wrap(_ value: Any) -> Any
}

extension Optional: OptionalMarker {
    static var wrappedType: Any.Type { Wrapped.self }
    static var noneValue: Any { Optional<Wrapped>.none as Any }
    static func wrap(_ value: Any) -> Any { Optional<Wrapped>.some(value as! Wrapped) as Any }
}
