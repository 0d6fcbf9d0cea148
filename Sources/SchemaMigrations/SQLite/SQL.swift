import Foundation

/// Helpers that write SQL text safely: quoted identifiers and string literals.
public enum SQL {
    /// `name` quoted as an SQL identifier: `"my ""table"""`.
    public static func quoteIdentifier(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// `text` quoted as an SQL string literal: `'it''s'`.
    public static func quoteString(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }
}
