#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

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
        case .blob(let bytes): return "X'" + bytes.map { $0.hexadecimal(digits: 2) }.joined() + "'"
        }
    }

    /// The value as read: a number, the text itself, `NULL`, or the size of a blob.
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

    /// SQL that SQLite evaluates to exactly `value`. SQLite's text-to-double conversion is off
    /// by one unit in the last place for some values (`-5.192078619703863e-235` reads back as
    /// `-5.1920786197038633e-235`), so a double that is not a small integer is written in its
    /// exact binary form, an integer significand multiplied or divided by powers of two (each step
    /// exact), with its decimal form as a comment:
    /// `(CAST(5404319552844597 AS REAL) / 18014398509481984 /* 0.30000000000000004 */)`.
    static func exactLiteral(for value: Double) -> String {
        if !value.isFinite || value == 0 || (value.rounded() == value && value.magnitude < 9_007_199_254_740_992) {
            return literal(for: value)
        }
        var significand = value.isNormal ? (UInt64(1) << 52) | value.significandBitPattern : value.significandBitPattern
        var exponent = value.isNormal ? Int(value.exponent) - 52 : -1074
        while significand & 1 == 0 {
            significand >>= 1
            exponent += 1
        }
        var sql = "CAST(\(value.sign == .minus ? "-" : "")\(significand) AS REAL)"
        while exponent != 0 {
            let step = min(abs(exponent), 62)
            sql += (exponent < 0 ? " / " : " * ") + String(UInt64(1) << step)
            exponent += exponent < 0 ? step : -step
        }
        return "(" + sql + " /* \(literal(for: value)) */)"
    }

    static func literal(for value: Double) -> String {
        if value.isNaN { return "NULL" }
        if value.isInfinite { return value > 0 ? "9e999" : "-9e999" }
        var text = String(value)
        if !text.contains(".") && !text.contains("e") && !text.contains("E") { text += ".0" }
        return text
    }
}
