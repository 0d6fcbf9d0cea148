extension Schema {
    /// What SQLite does when a statement breaks a constraint that carries this clause (`ON
    /// CONFLICT REPLACE`) and the statement names no resolution of its own (`INSERT OR …`): a
    /// `UNIQUE` constraint's (``TableConstraint/unique(_:onConflict:name:)``), a `NOT NULL`'s
    /// (``Attribute/notNullOnConflict``) or the primary key's
    /// (``PersistentModel/primaryKeyOnConflict``). The raw values are the SQL.
    ///
    /// A rebuild's copy names its own (`INSERT OR ABORT`), so a clause the table keeps never
    /// drops or skips a row the migration copies.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/lang_conflict.html>
    public enum ConflictResolution: String, Codable, Hashable, Sendable, CaseIterable {
        /// `ROLLBACK`: the statement fails and the transaction is rolled back.
        case rollback = "ROLLBACK"
        /// `ABORT`: the statement fails and its changes are undone (SQLite's default: declaring it
        /// means what declaring nothing means).
        case abort = "ABORT"
        /// `FAIL`: the statement fails, keeping the changes it made before the conflict.
        case fail = "FAIL"
        /// `IGNORE`: the row that conflicts is skipped; the statement goes on.
        case ignore = "IGNORE"
        /// `REPLACE`: the rows in the way are deleted (a NULL for `NOT NULL` takes the column's
        /// default), then the row is written.
        case replace = "REPLACE"

        /// `ON CONFLICT REPLACE`.
        var clause: String { "ON CONFLICT \(rawValue)" }

        /// The resolution `text` names (any case), nil for another word.
        init?(sql text: String) { self.init(rawValue: text.uppercased()) }

        /// What the clause means to SQLite: `ABORT` and no clause are the same.
        static func meaning(_ resolution: ConflictResolution?) -> String {
            (resolution ?? .abort) == .abort ? "" : " on conflict \(resolution!.rawValue.lowercased())"
        }
    }
}
