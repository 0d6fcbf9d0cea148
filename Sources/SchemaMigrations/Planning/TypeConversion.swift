/// The type changes a lightweight stage makes, each exact or refused.
///
/// Values whose storage class is not the one the source type implies (SQLite keeps `'abc'` in an
/// INTEGER column of a table that is not STRICT) are carried over unchanged, never turned into
/// `0` or `0.0`. A value the conversion cannot write exactly is refused before anything is
/// written, with its rows named.
///
/// Related SQLite documentation: <https://www.sqlite.org/datatype3.html>, <https://www.sqlite.org/printf.html>
enum TypeConversion {
    /// The SQL expression converting `column` from `source` to `target` values, or nil when no
    /// exact conversion exists.
    static func expression(from source: Schema.ValueType, to target: Schema.ValueType, column: String) -> String? {
        switch (source, target) {
        case (.bool, .integer), (.uuid, .string), (.url, .string), (.decimal, .string), (.json, .string),
            (.date, .double):
            return column  // same stored values
        case (_, .sqliteValue):
            return column  // kept as stored, whatever its storage class
        case (.integer, .double), (.bool, .double):
            return "CASE WHEN typeof(\(column)) = 'integer' THEN CAST(\(column) AS REAL) ELSE \(column) END"
        case (.integer, .string), (.bool, .string), (.integer, .decimal):
            return
                "CASE typeof(\(column)) WHEN 'integer' THEN CAST(\(column) AS TEXT) WHEN 'real' THEN \(exactText(column)) ELSE \(column) END"
        case (.double, .string):
            return
                "CASE WHEN typeof(\(column)) IN ('real', 'integer') THEN \(exactText("CAST(\(column) AS REAL)")) ELSE \(column) END"
        default:
            return nil
        }
    }

    /// The condition on a row that the conversion cannot carry exactly, or nil when every value converts.
    static func inexact(from source: Schema.ValueType, to target: Schema.ValueType, column: String) -> String? {
        switch (source, target) {
        case (.integer, .double):
            // Above 2^53 an integer may not survive the trip through a double; 2^63 - 1 becomes 2^63.
            return
                "typeof(\(column)) = 'integer' AND (CAST(CAST(\(column) AS REAL) AS INTEGER) <> \(column) OR CAST(\(column) AS REAL) >= 9223372036854775808.0)"
        case (.double, .string):
            return "typeof(\(column)) IN ('real', 'integer') AND \(exactText("CAST(\(column) AS REAL)")) IS NULL"
        case (.integer, .string), (.bool, .string), (.integer, .decimal):
            return "typeof(\(column)) = 'real' AND \(exactText(column)) IS NULL"
        default:
            return nil
        }
    }

    /// The shortest of SQLite's texts for a double that reads back as the same double: its
    /// 15-digit form (`0.1`, `1.0e+308`), else 16 or 17 significant digits
    /// (`0.30000000000000004`); NULL when none does, which the check refuses.
    static func exactText(_ value: String) -> String {
        let fifteen = "CAST(\(value) AS TEXT)"
        let sixteen = "printf('%!.16g', \(value))"
        let seventeen = "printf('%!.17g', \(value))"
        return
            "(CASE WHEN CAST(\(fifteen) AS REAL) = \(value) THEN \(fifteen) WHEN CAST(\(sixteen) AS REAL) = \(value) THEN \(sixteen) WHEN CAST(\(seventeen) AS REAL) = \(value) THEN \(seventeen) END)"
    }
}
