#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Schema {
    /// How a `Date` attribute's values are stored.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/lang_datefunc.html>
    public enum DateStorage: String, Codable, Hashable, Sendable, CaseIterable {
        /// REAL seconds since 1970-01-01 00:00:00 UTC: the default, written nowhere (`datetime(c, 'unixepoch')` reads it).
        case secondsSince1970
        /// TEXT `'YYYY-MM-DD HH:MM:SS.SSS'` in UTC, as GRDB stores a `Date` (`datetime(c)` reads it).
        /// Milliseconds are the finest precision kept.
        case iso8601Text
        /// REAL Julian day number, as SQLite's `julianday()` returns it.
        case julianDay

        /// The storage class of the values.
        public var storageType: StorageType { self == .iso8601Text ? .text : .real }

        /// `date` as stored.
        func storedValue(_ date: Date) -> SQLiteValue {
            switch self {
            case .secondsSince1970: return .real(date.timeIntervalSince1970)
            case .iso8601Text: return .text(DateText.format(date))
            case .julianDay: return .real(date.timeIntervalSince1970 / 86_400 + 2_440_587.5)
            }
        }

        /// The date a stored value holds, or nil when it holds none.
        func date(from value: SQLiteValue) -> Date? {
            switch (self, value) {
            case (_, .text(let text)): return DateText.parse(text)
            case (.julianDay, _):
                return value.doubleValue.map { Date(timeIntervalSince1970: ($0 - 2_440_587.5) * 86_400) }
            default: return value.doubleValue.map(Date.init(timeIntervalSince1970:))
            }
        }
    }
}

/// Dates as `'YYYY-MM-DD HH:MM:SS.SSS'` UTC text (GRDB's and SQLite's `datetime()` form), written
/// and read without a formatter: pure calendar arithmetic, safe from any thread.
enum DateText {
    /// `2024-02-29 13:45:07.250`: milliseconds truncated, as GRDB writes them.
    static func format(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        let (days, dayMilliseconds) = milliseconds.quotientAndRemainderFloored(dividingBy: 86_400_000)
        let (year, month, day) = civil(fromDays: days)
        let seconds = dayMilliseconds / 1000
        func pad(_ value: Int64, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return
            "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2)) \(pad(seconds / 3600, 2)):\(pad(seconds / 60 % 60, 2)):\(pad(seconds % 60, 2)).\(pad(dayMilliseconds % 1000, 3))"
    }

    /// Reads `YYYY-MM-DD`, `YYYY-MM-DD HH:MM`, `YYYY-MM-DD HH:MM:SS` and `…SS.SSS` (a `T` for the
    /// space, and a trailing `Z`, accepted too), as UTC.
    static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        func number(_ start: Int, _ count: Int) -> Int64? {
            guard start + count <= bytes.count else { return nil }
            var value: Int64 = 0
            for byte in bytes[start..<start + count] {
                guard byte >= 48 && byte <= 57 else { return nil }
                value = value * 10 + Int64(byte - 48)
            }
            return value
        }
        guard bytes.count >= 10, bytes[4] == 45, bytes[7] == 45, let year = number(0, 4), let month = number(5, 2),
            let day = number(8, 2),
            (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        var end = bytes.count
        if bytes.last == UInt8(ascii: "Z") { end -= 1 }
        var milliseconds: Int64 = 0
        if end > 10 {
            guard end >= 16, bytes[10] == 32 || bytes[10] == UInt8(ascii: "T"), bytes[13] == 58,
                let hour = number(11, 2), let minute = number(14, 2),
                hour < 24, minute < 60
            else { return nil }
            milliseconds = (hour * 3600 + minute * 60) * 1000
            if end > 16 {
                guard end >= 19, bytes[16] == 58, let second = number(17, 2), second < 60 else { return nil }
                milliseconds += second * 1000
                if end > 19 {
                    guard bytes[19] == 46, end > 20, let fraction = number(20, end - 20) else { return nil }
                    var scaled = Double(fraction)
                    for _ in 0..<(end - 20) { scaled /= 10 }
                    return Date(
                        timeIntervalSince1970: Double(days(fromCivil: year, month, day) * 86_400_000 + milliseconds)
                            / 1000 + scaled)
                }
            }
        } else if end != 10 {
            return nil
        }
        return Date(timeIntervalSince1970: Double(days(fromCivil: year, month, day) * 86_400_000 + milliseconds) / 1000)
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date `days` after 1970-01-01.
    static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

extension Int64 {
    /// Quotient and remainder rounding toward negative infinity, so times before 1970 land on the right day.
    fileprivate func quotientAndRemainderFloored(dividingBy divisor: Int64) -> (Int64, Int64) {
        let (quotient, remainder) = quotientAndRemainder(dividingBy: divisor)
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }
}
