extension Schema {
    /// What SQLite does to the referencing rows when the referenced key is deleted or changed.
    public enum ForeignKeyAction: String, Codable, Sendable, Hashable, CaseIterable {
        /// `NO ACTION`: nothing, but the foreign key check still applies (SQLite's default).
        case noAction = "NO ACTION"
        /// `RESTRICT`: the change is refused at once.
        case restrict = "RESTRICT"
        /// `SET NULL`: the referencing column becomes NULL.
        case setNull = "SET NULL"
        /// `SET DEFAULT`: the referencing column takes its default.
        case setDefault = "SET DEFAULT"
        /// `CASCADE`: the referencing rows are deleted (or their key updated) too.
        case cascade = "CASCADE"
    }
}
