/// A value bound to a statement parameter or read from a row: SQLite's five storage classes.
///
/// ```swift
/// try client.exec("INSERT INTO trip(id, name, cost, photo, note) VALUES (?, ?, ?, ?, ?)",
///                 [.integer(1), .text("Lisbon"), .real(12.5), .blob([0xFF]), .null])
/// ```
public enum DqliteValue: Hashable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    /// The integer, when this is one.
    public var integer: Int64? { if case .integer(let value) = self { value } else { nil } }
    /// The floating-point value, when this is one.
    public var real: Double? { if case .real(let value) = self { value } else { nil } }
    /// The text, when this is text.
    public var text: String? { if case .text(let value) = self { value } else { nil } }
    /// The bytes, when this is a blob.
    public var blob: [UInt8]? { if case .blob(let value) = self { value } else { nil } }
    /// Whether this is SQL NULL.
    public var isNull: Bool { self == .null }
}

extension DqliteValue: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByStringLiteral,
    ExpressibleByNilLiteral
{
    /// An integer.
    public init(integerLiteral value: Int64) { self = .integer(value) }
    /// A floating-point number.
    public init(floatLiteral value: Double) { self = .real(value) }
    /// A text value.
    public init(stringLiteral value: String) { self = .text(value) }
    /// NULL.
    public init(nilLiteral: ()) { self = .null }
}

/// The type codes of values in tuples (parameters and rows).
enum ValueType: UInt8 {
    case integer = 1
    case float = 2
    case text = 3
    case blob = 4
    case null = 5
    /// Seconds since the epoch, as an int64 (returned for some time columns).
    case unixTime = 9
    /// An ISO-8601 date as text (returned for `DATETIME`, `DATE`, `TIMESTAMP` columns).
    case iso8601 = 10
    /// 0 or 1 as a uint64 (returned for `BOOLEAN` columns).
    case boolean = 11
}
