#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Maps Swift types to how their values are stored, and values to SQL default literals.
///
/// The supported types: all integer types, `Double`, `Float`, `Bool`, `String`, `Date`, `Data`,
/// `UUID`, `URL`, `Decimal`, ``SQLiteValue`` (any value, as stored), optionals of them, `RawRepresentable` types stored as their raw
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
            let raw = StoredValueType.primitive(StoredValueType.rawType(of: representable))
        {
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
        case is SQLiteValue.Type: return .sqliteValue
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
        // The value's own type first (one cheap cast each); a RawRepresentable's raw value after.
        switch valueType {
        case .string: if let text = value as? String { return .text(text) }
        case .integer:
            if let number = value as? Int { return .integer(Int64(number)) }
            // One that does not fit (`UInt64.max`) is refused below rather than stored wrapped around.
            if let number = value as? any BinaryInteger, let exact = Int64(exactly: number) { return .integer(exact) }
        case .double:
            if let number = value as? Double { return .real(number) }
            if let number = value as? Float { return .real(Double(number)) }
        case .bool: if let flag = value as? Bool { return .integer(flag ? 1 : 0) }
        case .date: if let date = value as? Date { return .real(date.timeIntervalSince1970) }
        case .data: if let data = value as? Data { return .blob(Array(data)) }
        case .uuid: if let uuid = value as? UUID { return .text(uuid.uuidString) }
        case .url: if let url = value as? URL { return .text(url.absoluteString) }
        case .decimal: if let decimal = value as? Decimal { return .text(decimal.description) }
        case .json: if let encodable = value as? any Encodable { return .text(try CanonicalJSON.encode(encodable)) }
        case .sqliteValue: if let stored = value as? SQLiteValue { return stored }
        }
        if valueType != .json, let representable = value as? any RawRepresentable {
            return try storedValue(representable.rawValue, as: valueType)
        }
        throw MigrationError(
            .unsupportedType, "a value of type \(type(of: value)) cannot be stored as \(valueType.rawValue)")
    }

    /// The wrapped value of an optional, or the value itself; nil for `.none`.
    static func unwrap(_ value: Any) -> Any? {
        // the common cases, without a protocol cast
        if value is String || value is Int || value is Double { return value }
        guard let optional = value as? any OptionalValue else { return value }
        return optional.wrappedAny.flatMap(unwrap)
    }
}

/// Lets a boxed optional value be opened without reflection.
protocol OptionalValue {
    var wrappedAny: Any? { get }
}

extension Optional: OptionalValue {
    var wrappedAny: Any? { self.map { $0 as Any } }
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
