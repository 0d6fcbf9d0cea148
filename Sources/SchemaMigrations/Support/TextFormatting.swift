/// Small text helpers the library and the command use instead of Foundation's (`String(format:)`,
/// `trimmingCharacters(in:)`), so neither needs more than `FoundationEssentials`.
extension StringProtocol {
    /// The text without leading and trailing whitespace and newlines (Unicode's definition, as
    /// `trimmingCharacters(in: .whitespacesAndNewlines)`).
    package func trimmingWhitespace() -> String {
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(self[first...last])
    }

    /// The text left-aligned in `width` characters, spaces after it; longer text is kept whole.
    package func paddedRight(toWidth width: Int) -> String {
        count >= width ? String(self) : self + String(repeating: " ", count: width - count)
    }

    /// The text right-aligned in `width` characters (`String(format: "%6s")`); longer text is kept whole.
    package func padded(toWidth width: Int) -> String {
        count >= width ? String(self) : String(repeating: " ", count: width - count) + self
    }
}

extension BinaryFloatingPoint {
    /// The value with `decimals` digits after the point, rounded half away from zero, as
    /// `String(format: "%.Nf")` writes it: `12.35` for `12.345` with 2 (up to binary rounding).
    package func fixedPoint(_ decimals: Int) -> String {
        let value = Double(self)
        guard value.isFinite else { return value.isNaN ? "nan" : value < 0 ? "-inf" : "inf" }
        let digits = Swift.max(0, Swift.min(decimals, 9))
        var scale: UInt64 = 1
        for _ in 0..<digits { scale *= 10 }
        let magnitude = (abs(value) * Double(scale)).rounded(.toNearestOrAwayFromZero)
        guard magnitude < 9e18 else { return "\(value)" }
        let scaled = UInt64(magnitude)
        let sign = value < 0 && scaled != 0 ? "-" : ""
        let whole = String(scaled / scale)
        guard digits > 0 else { return sign + whole }
        let fraction = String(scaled % scale)
        return sign + whole + "." + String(repeating: "0", count: digits - fraction.count) + fraction
    }
}

extension FixedWidthInteger {
    /// The value in upper-case hexadecimal, zero-padded to `digits` (`String(format: "%02X")`).
    package func hexadecimal(digits: Int) -> String {
        let text = String(self, radix: 16, uppercase: true)
        return String(repeating: "0", count: Swift.max(0, digits - text.count)) + text
    }
}
