/// A table's full definition, as its `CREATE TABLE` statement in `sqlite_schema` says it: every
/// column with its declared type text and each constraint, every table constraint, and the table
/// options — each clause kept as the text it was written with.
///
/// A rebuild starts from this, applies only the changes the plan makes, and writes everything else
/// back as the database had it: CHECKs, collations, `AUTOINCREMENT`, `STRICT`, `WITHOUT ROWID`,
/// generated columns, expression defaults, and every foreign key clause.
///
/// ```swift
/// var definition = try TableDefinition(parsing: "CREATE TABLE t (a INT CHECK (a > 0), b TEXT COLLATE NOCASE) STRICT")
/// definition.setNotNull(true, column: "b")
/// definition.sql(named: "t")   // CREATE TABLE "t" (a INT CHECK (a > 0), b TEXT COLLATE NOCASE NOT NULL) STRICT
/// ```
///
/// Related SQLite documentation: <https://www.sqlite.org/lang_createtable.html>
struct TableDefinition: Sendable, Hashable {
    /// One column definition.
    struct Column: Sendable, Hashable {
        /// The column's name.
        var name: String
        /// The name as written (quoted or not).
        var nameText: String
        /// The declared type as written (`NVARCHAR(160)`, `INTEGER`), empty when untyped.
        var typeText: String
        /// The column constraints, in order.
        var constraints: [ColumnConstraint]

        /// Whether the column is generated (`GENERATED ALWAYS AS (…)`): it takes no value in an INSERT.
        var isGenerated: Bool {
            constraints.contains { if case .generated = $0.kind { return true } else { return false } }
        }

        /// Whether a `PRIMARY KEY … AUTOINCREMENT` constraint is on this column.
        var isAutoincrement: Bool { constraints.contains { $0.kind == .primaryKey(autoincrement: true) } }
    }

    /// One column constraint: what it is, and its text (including any `CONSTRAINT name`).
    struct ColumnConstraint: Sendable, Hashable {
        enum Kind: Sendable, Hashable {
            case primaryKey(autoincrement: Bool)
            case notNull
            /// The no-op `NULL` constraint.
            case null
            case unique
            case check
            case defaultValue
            case collate(String)
            /// `REFERENCES table …`: the referenced table's name.
            case references(String)
            case generated
            /// `[NOT] DEFERRABLE …` written after other constraints: it applies to the foreign key before it.
            case deferrable
            /// A `CONSTRAINT name` with no constraint after it (SQLite accepts one; it names nothing).
            case name

            /// Whether it is the column's `PRIMARY KEY`.
            var isPrimaryKey: Bool { if case .primaryKey = self { true } else { false } }
        }

        var kind: Kind
        var text: String
        /// The lower-cased identifiers its expression mentions (CHECK, DEFAULT, generated), for
        /// finding what a dropped column would break.
        var identifiers: Set<String>

        /// For a `PRIMARY KEY` constraint, whether `DESC` follows `KEY` (an INTEGER key so written
        /// is no alias of the rowid); nil for another constraint, or a text without `KEY`.
        var isDescendingKey: Bool? {
            guard kind.isPrimaryKey else { return nil }
            let tokenizer = SQLTokenizer(text)
            let tokens = (try? tokenizer.tokens()) ?? []
            guard let key = tokens.firstIndex(where: { tokenizer.isKeyword($0, "KEY") }) else { return nil }
            return key + 1 < tokens.count && tokenizer.isKeyword(tokens[key + 1], "DESC")
        }
    }

    /// One table constraint, as written.
    struct TableConstraint: Sendable, Hashable {
        enum Kind: Sendable, Hashable {
            case primaryKey, unique, check
            /// `FOREIGN KEY (columns) REFERENCES table …`: the referenced table's name.
            case foreignKey(String)
            /// A `CONSTRAINT name` with no constraint after it (SQLite accepts one; it names nothing).
            case name
        }

        var kind: Kind
        var text: String
        /// The constrained columns (PRIMARY KEY, UNIQUE, FOREIGN KEY), lower-cased.
        var columns: [String]
        /// The lower-cased identifiers it mentions: a CHECK's expression, or the constrained columns.
        var identifiers: Set<String>
    }

    /// The table's name.
    var name: String
    var columns: [Column]
    var constraints: [TableConstraint]
    /// `WITHOUT ROWID`.
    var withoutRowid: Bool
    /// `STRICT`.
    var strict: Bool

    /// The column named `name` (SQLite compares names case-insensitively).
    func column(named name: String) -> Column? {
        let folded = name.sqlFolded
        return columns.first { $0.name.sqlFolded == folded }
    }

    func columnIndex(named name: String) -> Int? {
        let folded = name.sqlFolded
        return columns.firstIndex { $0.name.sqlFolded == folded }
    }

    /// Whether the column `name` is this table's rowid alias as written on the column itself:
    /// `INTEGER PRIMARY KEY` (not `DESC`), the table's only key, in a rowid table. A key declared
    /// as a table constraint answers false here: ``rowidAlias`` answers for both spellings, and
    /// is what callers use to prove rowids stay.
    func keepsRowidAlias(_ name: String) -> Bool {
        guard !withoutRowid, !constraints.contains(where: { $0.kind == .primaryKey }),
            let column = column(named: name), column.typeText.uppercased() == "INTEGER"
        else { return false }
        return column.constraints.contains { $0.isDescendingKey == false }
    }

    /// The column that is this table's rowid alias however the key is written, nil when none is:
    /// a rowid table whose only key is one column of type `INTEGER`, declared on the column
    /// (`INTEGER PRIMARY KEY`, not `DESC`) or as a table constraint (`PRIMARY KEY (id)`, where
    /// SQLite makes even `DESC` or a `COLLATE` an alias). VACUUM keeps such a column's values as
    /// the rows' rowids.
    var rowidAlias: Column? {
        guard !withoutRowid else { return nil }
        let tableKeys = constraints.filter { $0.kind == .primaryKey }
        let columnKeys = columns.filter { $0.constraints.contains { $0.kind.isPrimaryKey } }
        switch (tableKeys.count, columnKeys.count) {
        case (0, 1): return keepsRowidAlias(columnKeys[0].name) ? columnKeys[0] : nil
        case (1, 0):
            guard tableKeys[0].columns.count == 1, let column = column(named: tableKeys[0].columns[0]),
                column.typeText.uppercased() == "INTEGER"
            else { return nil }
            return column
        default: return nil
        }
    }

    /// Whether any column is `INTEGER PRIMARY KEY AUTOINCREMENT`.
    var hasAutoincrement: Bool { columns.contains(where: \.isAutoincrement) }

    /// The `CREATE TABLE` statement for this definition under `name`.
    func sql(named name: String) -> String {
        var parts = columns.map { column -> String in
            ([column.nameText, column.typeText] + column.constraints.map(\.text)).filter { !$0.isEmpty }.joined(
                separator: " ")
        }
        parts += constraints.map(\.text)
        var options: [String] = []
        if withoutRowid { options.append("WITHOUT ROWID") }
        if strict { options.append("STRICT") }
        return "CREATE TABLE \(SQL.quoteIdentifier(name)) (\(parts.joined(separator: ", ")))"
            + (options.isEmpty ? "" : " " + options.joined(separator: ", "))
    }
}
