import Foundation

/// A value as SQLite stores it: one of its five storage classes.
///
/// Related SQLite documentation: <https://www.sqlite.org/datatype3.html>
public enum SQLiteValue: Sendable, Hashable, CustomStringConvertible {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    /// The value written as an SQL literal, safe to splice into a statement (`'it''s'`, `X'00FF'`, `NULL`).
    public var sqlLiteral: String {
        switch self {
        case .null: return "NULL"
        case .integer(let value): return String(value)
        case .real(let value): return SQLiteValue.literal(for: value)
        case .text(let value): return SQL.quoteString(value)
        case .blob(let bytes): return "X'" + bytes.map { String(format: "%02X", $0) }.joined() + "'"
        }
    }

    public var description: String {
        switch self {
        case .null: return "NULL"
        case .integer(let value): return String(value)
        case .real(let value): return String(value)
        case .text(let value): return value
        case .blob(let bytes): return "<\(bytes.count) bytes>"
        }
    }

    /// True for `.null`.
    public var isNull: Bool { if case .null = self { return true } else { return false } }

    /// The value as an `Int64` when it is an integer (or a real with an integral value).
    public var int64Value: Int64? {
        switch self {
        case .integer(let value): return value
        case .real(let value) where value.rounded() == value && abs(value) < 9.2e18: return Int64(value)
        default: return nil
        }
    }

    /// The value as a `Double` when it is numeric.
    public var doubleValue: Double? {
        switch self {
        case .integer(let value): return Double(value)
        case .real(let value): return value
        default: return nil
        }
    }

    /// The value as a `String` when it is text.
    public var stringValue: String? { if case .text(let value) = self { return value } else { return nil } }

    static func literal(for value: Double) -> String {
        if value.isNaN { return "NULL" }
        if value.isInfinite { return value > 0 ? "9e999" : "-9e999" }
        var text = String(value)
        if !text.contains(".") && !text.contains("e") && !text.contains("E") { text += ".0" }
        return text
    }
}
