import Foundation
import SchemaMigrations

/// Random stored values of each attribute type, their defaults, and the reference model's
/// lossless conversions, written in Swift: the model never asks SQLite what a conversion gives.
enum PropertyValues {
    /// A random value as SQLite stores it for `type`.
    static func random(_ type: Schema.ValueType, using random: inout SeededRandom) -> SQLiteValue {
        switch type {
        case .integer:
            if random.chance(0.05) {
                return .integer([Int64.max, Int64.min, 0, -1, 1 << 53][Int.random(in: 0..<5, using: &random)])
            }
            return .integer(Int64.random(in: -1_000_000...1_000_000, using: &random))
        case .bool: return .integer(Int64.random(in: 0...1, using: &random))
        case .double: return .real(niceDouble(using: &random))
        case .date: return .real(1_700_000_000 + niceDouble(using: &random))
        case .string: return .text(text(using: &random))
        case .data:
            return .blob(
                (0..<Int.random(in: 0...8, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) })
        case .uuid:
            let bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &random) }
            return .text(
                UUID(
                    uuid: (
                        bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8],
                        bytes[9],
                        bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
                    )
                ).uuidString)
        case .url:
            return .text("https://example.com/\(Int.random(in: 0...999, using: &random))?q='\(text(using: &random))'")
        case .decimal:
            return .text(
                "\(Int.random(in: -99_999...99_999, using: &random)).\(Int.random(in: 0...99, using: &random))")
        case .json:
            return .text(
                #"{"k":\#(Int.random(in: 0...99, using: &random)),"s":"\#(text(using: &random).replacingOccurrences(of: "\"", with: ""))"}"#
            )
        case .sqliteValue:
            // Any storage class, as an application stores it by design: kept as is by every rebuild.
            switch Int.random(in: 0..<4, using: &random) {
            case 0: return Self.random(.integer, using: &random)
            case 1: return Self.random(.double, using: &random)
            case 2: return .text(["12", "0x1F", "1e3", " 7"].randomElement(using: &random)! + text(using: &random))
            default: return Self.random(.data, using: &random)
            }
        }
    }

    /// A random default for `type`, as the value it gives (its SQL literal is `sqlLiteral`).
    static func randomDefault(_ type: Schema.ValueType, using random: inout SeededRandom) -> SQLiteValue {
        switch type {
        case .string: return .text(["", "it's", "none", "日本"][Int.random(in: 0..<4, using: &random)])
        case .data: return .blob(random.chance(0.5) ? [] : [0, 255])
        case .integer: return .integer([0, 42, -7][Int.random(in: 0..<3, using: &random)])
        case .sqliteValue: return [.integer(7), .text("12"), .blob([1, 2])][Int.random(in: 0..<3, using: &random)]
        default: return self.random(type, using: &random)
        }
    }

    /// The value an SQL literal made by `SQLiteValue.sqlLiteral` stands for, in a column of `type`.
    static func value(ofLiteral literal: String, type: Schema.ValueType) -> SQLiteValue {
        if literal == "NULL" { return .null }
        if literal.hasPrefix("'") {
            return .text(String(literal.dropFirst().dropLast()).replacingOccurrences(of: "''", with: "'"))
        }
        if literal.hasPrefix("X'") {
            let hex = Array(literal.dropFirst(2).dropLast())
            return .blob(stride(from: 0, to: hex.count, by: 2).map { UInt8(String(hex[$0...$0 + 1]), radix: 16)! })
        }
        if type.storageType == .real { return .real(Double(literal)!) }
        return .integer(Int64(literal)!)
    }

    /// Multiples of 1/8 below a million, and a few others: at most 15 significant digits, so
    /// that their text form is the same however SQLite prints a REAL.
    static func niceDouble(using random: inout SeededRandom) -> Double {
        if random.chance(0.1) { return [0.1, 0.001, 123_456.789, -2.5e-3][Int.random(in: 0..<4, using: &random)] }
        return Double(Int.random(in: -8_000_000...8_000_000, using: &random)) / 8
    }

    static func text(using random: inout SeededRandom) -> String {
        let pieces = ["a", "Z", "A", "z", "it's", " ", "é", "日本", "\"q\"", "NULL", "0", "x_y", "🙂", "\\", "%"]
        return (0..<Int.random(in: 0...4, using: &random)).map { _ in
            pieces[Int.random(in: 0..<pieces.count, using: &random)]
        }.joined()
    }

    /// The target types a lightweight stage converts `type` to without loss (MIGRATIONS.md).
    static func losslessTargets(of type: Schema.ValueType) -> [Schema.ValueType] {
        switch type {
        case .integer: return [.double, .string, .decimal, .sqliteValue]
        case .bool: return [.integer, .double, .string, .sqliteValue]
        case .double: return [.string, .sqliteValue]
        case .date: return [.double, .sqliteValue]
        case .uuid, .url, .decimal, .json: return [.string, .sqliteValue]
        case .string, .data: return [.sqliteValue]  // every value kept as stored
        case .sqliteValue: return []
        }
    }

    /// What a value becomes when its attribute changes from `source` to `target` type.
    static func convert(_ value: SQLiteValue, from source: Schema.ValueType, to target: Schema.ValueType) -> SQLiteValue
    {
        guard source != target else { return value }
        switch (value, target) {
        case (.integer(let number), .double): return .real(Double(number))
        case (.integer(let number), .string), (.integer(let number), .decimal): return .text(String(number))
        case (.real(let number), .string): return .text(exactText(number))
        default: return value  // NULL, and the conversions that keep the stored value
        }
    }

    /// Whether an integer survives the trip through a double.
    static func isExactDouble(_ number: Int64) -> Bool {
        let double = Double(number)
        return double < 9223372036854775808.0 && Int64(double) == number
    }

    /// The shortest of SQLite's texts for a double that reads back as the same double: the
    /// 15-digit `CAST` form, else 16, else 17 significant digits (MIGRATIONS.md's conversion table).
    static func exactText(_ number: Double) -> String {
        let fifteen = sqliteText(number)
        if Double(fifteen) == number { return fifteen }
        for digits in [16, 17] {
            var text = String(format: "%.\(digits)g", number)
            if !text.contains(".") && !text.contains("e") && !text.contains("n") && !text.contains("i") { text += ".0" }
            if Double(text) == number { return text }
        }
        return fifteen
    }

    /// A REAL as SQLite's `CAST(x AS TEXT)` writes it (`%!.15g`: 15 significant digits, and
    /// always a decimal point): `1.0`, `0.125`, `-0.0025`.
    static func sqliteText(_ number: Double) -> String {
        var text = String(format: "%.15g", number)
        if let e = text.firstIndex(where: { $0 == "e" }) {
            let mantissa = text[..<e]
            if !mantissa.contains(".") { text = mantissa + ".0" + text[e...] }
        } else if !text.contains(".") && !text.contains("inf") && !text.contains("nan") {
            text += ".0"
        }
        return text
    }
}
