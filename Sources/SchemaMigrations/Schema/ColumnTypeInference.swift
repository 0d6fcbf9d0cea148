#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The Swift type a live column is declared with, from its declared type and, where that is not
/// enough, its stored values.
///
/// The rule, by the affinity SQLite gives the declared type
/// (<https://www.sqlite.org/datatype3.html#type_affinity>):
/// - INTEGER (`INTEGER`, `INT`, `BIGINT`…) → `Int`; TEXT (`TEXT`, `NVARCHAR(160)`…) → `String`;
///   BLOB (`BLOB`, or no type) → `Data`; REAL (`REAL`, `DOUBLE`, `FLOAT`) → `Double`.
/// - NUMERIC: a type naming `BOOL` → `Bool`; a type naming `DATE` or `TIMESTAMP` → `Date`; any
///   other (`NUMERIC(10,2)`, `DECIMAL`) → `Double`.
/// - A `Date`'s storage: TEXT values (`'2021-01-01 00:00:00'`) → ISO-8601 text; numbers all within
///   the Julian days of years 1 to 9999 (1,721,424 to 5,373,484) → Julian day; other numbers →
///   seconds since 1970. With no value stored, a numeric default decides the same way, and
///   otherwise a NUMERIC or TEXT type means ISO-8601 text (what SQLite's own `datetime()` and
///   `CURRENT_TIMESTAMP` write), a REAL type seconds since 1970.
///
/// In a STRICT table, `ANY` keeps every value as given: such a column is declared by what it holds
/// (only integers → `Int`, only numbers → `Double`, only blobs → `Data`, only text or nothing →
/// `String`, a mix → ``SQLiteValue``), with the type `ANY`.
///
/// Values as stored: a column holding what its type text does not imply (blobs in a column
/// declared `POINT`, text in one declared `integer`, a mix by design) is declared by what it holds,
/// from a sample of the table's first ``sampledRows`` rows (and every text of a NUMERIC column):
/// only blobs → `Data`, otherwise ``SQLiteValue``, which keeps any value unchanged.
///
/// The declared type text is kept as ``Schema/Attribute/sqlType`` unless it is the storage type
/// itself (`INTEGER`, `TEXT`…), so the column is declared as the file spells it.
struct ColumnTypeInference {
    struct Inferred: Hashable {
        var valueType: Schema.ValueType
        var sqlType: String?
        var dateStorage: Schema.DateStorage?
    }

    let column: LiveSchema.Column
    let profile: ValueProfile?
    let defaultValue: String?
    /// Whether the column's table is STRICT, where `ANY` keeps every value as given.
    var isStrict = false
    /// The storage classes the column holds in the table's first ``sampledRows`` rows.
    var sample: StorageClasses? = nil

    /// How many rows of a table introspection samples to learn which storage classes each column
    /// actually holds (a bound, so that a large table costs no more than this many rows).
    static let sampledRows = 10_000

    /// Whether the column is declared `ANY`: in a STRICT table, a column that keeps every value
    /// as given (elsewhere, a NUMERIC-affinity one).
    static func isAny(_ column: LiveSchema.Column) -> Bool {
        column.declaredType.uppercased() == "ANY"
    }

    /// Whether the column's Swift type depends on its values: a NUMERIC-affinity or date-named column.
    static func needsValues(_ column: LiveSchema.Column) -> Bool {
        let affinity = column.affinity
        return (affinity == .numeric && !contains(column.declaredType, "BOOL"))
            || (isDateName(column.declaredType) && (affinity == .real || affinity == .text))
    }

    /// `DATE`, `DATETIME`, `TIMESTAMP`, `DATE_TEXT`…
    static func isDateName(_ declaredType: String) -> Bool {
        contains(declaredType, "DATE") || contains(declaredType, "TIMESTAMP")
    }

    /// Whether `type`, upper-cased, contains `word`: on ASCII bytes, for every column.
    static func contains(_ type: String, _ word: StaticString) -> Bool {
        let bytes = type.utf8.map { $0 >= 97 && $0 <= 122 ? $0 - 32 : $0 }
        let count = word.utf8CodeUnitCount
        guard bytes.count >= count else { return false }
        return word.withUTF8Buffer { word in
            (0...(bytes.count - count)).contains { start in (0..<count).allSatisfy { bytes[start + $0] == word[$0] } }
        }
    }

    /// The type, or nil with the reason in `blocking`.
    func inferred(blocking: inout [String], kept: inout [String]) -> Inferred? {
        let declared = column.declaredType
        var valueType: Schema.ValueType
        var dateStorage: Schema.DateStorage?
        if isStrict && Self.isAny(column) {
            return Inferred(valueType: anyValueType(kept: &kept), sqlType: declared, dateStorage: nil)
        }
        switch column.affinity {
        case .integer: valueType = .integer
        case .text:
            valueType = .string
            if Self.isDateName(declared) {
                valueType = .date
                dateStorage = self.dateStorage(whenUnknown: .iso8601Text, kept: &kept)
            }
        case .blob:
            valueType = .data
        case .real:
            valueType = .double
            if Self.isDateName(declared) {
                valueType = .date
                dateStorage = self.dateStorage(whenUnknown: .secondsSince1970, kept: &kept)
            }
        case .numeric:
            if Self.contains(declared, "BOOL") {
                valueType = .bool
            } else if Self.isDateName(declared) {
                valueType = .date
                dateStorage = self.dateStorage(whenUnknown: .iso8601Text, kept: &kept)
            } else {
                valueType = .double
            }
        }
        if dateStorage == nil, let kept = keptAsStored(valueType) {
            // What the column holds is not what its type text implies: declared so as to keep it.
            // An untyped column is declared untyped (`sqlType: ""`): BLOB affinity as well, but
            // `PRAGMA table_info` and an ORM reading it tell the two apart.
            let sqlType = SchemaComparison.normalizedType(declared) == Schema.StorageType.blob.rawValue ? nil : declared
            return Inferred(valueType: kept, sqlType: sqlType, dateStorage: nil)
        }
        // Only the ISO-8601 text form is a storage a TEXT-affinity date column accepts.
        if column.affinity == .text && dateStorage != nil && dateStorage != .iso8601Text { dateStorage = .iso8601Text }
        if column.affinity == .real && dateStorage == .iso8601Text { dateStorage = .secondsSince1970 }
        let storage = dateStorage?.storageType ?? valueType.storageType
        let sqlType = SchemaComparison.normalizedType(declared) == storage.rawValue ? nil : declared
        return Inferred(
            valueType: valueType, sqlType: sqlType, dateStorage: dateStorage == .secondsSince1970 ? nil : dateStorage)
    }

    /// The type that keeps the column's values as stored when `valueType` cannot hold them all
    /// (the sampled storage classes, and every text of a NUMERIC column): `Data` when it holds
    /// only blobs (SQLite never converts a blob, whatever the affinity), else ``SQLiteValue``
    /// (text in a numeric column, which SQLite would turn into a number were it written anew,
    /// or a mix of classes by design); nil when `valueType` holds them.
    private func keptAsStored(_ valueType: Schema.ValueType) -> Schema.ValueType? {
        var classes = sample ?? StorageClasses()
        if let profile, column.affinity == .numeric { classes.texts = max(classes.texts, profile.texts) }
        let held: [Schema.ValueType: Bool] = [
            .integer: classes.texts + classes.reals + classes.blobs == 0,
            .bool: classes.texts + classes.reals + classes.blobs == 0,
            .double: classes.texts + classes.blobs == 0,
            .string: classes.integers + classes.reals + classes.blobs == 0,
            .data: classes.texts + classes.integers + classes.reals == 0,
        ]
        guard held[valueType] == false else { return nil }
        return classes.texts + classes.integers + classes.reals == 0 ? .data : .sqliteValue
    }

    /// A STRICT table's `ANY` column, declared by what it holds: `Int` when only integers, `Double`
    /// when only numbers, `Data` when only blobs, `String` when only text (or nothing), and
    /// ``SQLiteValue`` for a mix, which reads every value as stored.
    private func anyValueType(kept: inout [String]) -> Schema.ValueType {
        guard let profile else { return .string }
        let integers = profile.numbers - profile.reals
        let type: Schema.ValueType
        switch (profile.texts, integers, profile.reals, profile.blobs) {
        case (0, 1..., 0, 0): type = .integer
        case (0, _, 1..., 0): type = .double
        case (0, 0, 0, 1...): type = .data
        case (_, 0, 0, 0): type = .string
        default: type = .sqliteValue  // a mix of classes: every value as stored
        }
        return type
    }

    /// How a date column's values are stored, by the values, else the default, else `whenUnknown`.
    private func dateStorage(whenUnknown: Schema.DateStorage, kept: inout [String]) -> Schema.DateStorage {
        let julianDays = 1_721_424.0...5_373_485.0
        if let profile, profile.texts + profile.numbers > 0 {
            let byNumbers: Schema.DateStorage =
                profile.smallest.map(julianDays.contains) == true && profile.largest.map(julianDays.contains) == true
                ? .julianDay : .secondsSince1970
            if profile.textsNotDates > 0 {
                kept.append(
                    "column \(column.name) holds \(profile.textsNotDates) text value\(profile.textsNotDates == 1 ? "" : "s") that \(profile.textsNotDates == 1 ? "is" : "are") not a date (read as nil)"
                )
            }
            if profile.numbers > 0 && profile.texts > 0 {
                kept.append(
                    "column \(column.name) holds dates both as text (\(profile.texts)) and as numbers (\(profile.numbers)); declared as \(byNumbers.rawValue), the text ones are read as text dates"
                )
                return byNumbers
            }
            return profile.numbers > 0 ? byNumbers : .iso8601Text
        }
        if let defaultValue, let number = Double(defaultValue) {
            return julianDays.contains(number) ? .julianDay : .secondsSince1970
        }
        if let defaultValue, defaultValue.hasPrefix("'") || defaultValue.uppercased().hasPrefix("CURRENT_") {
            return .iso8601Text
        }
        return whenUnknown
    }
}
