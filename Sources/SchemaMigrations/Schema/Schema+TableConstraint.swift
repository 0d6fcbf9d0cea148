extension Schema {
    /// A constraint an entity's table declares beside its columns, written in its `CREATE TABLE`
    /// after them: a `CHECK` over the row, a `UNIQUE` constraint (SQLite makes its index with the
    /// table; `PRAGMA index_list` lists it with origin `u`), or a `FOREIGN KEY` over one or more
    /// columns with every clause. Each may be named (`CONSTRAINT "name" …`).
    ///
    /// ```swift
    /// static let constraints: [Schema.TableConstraint] = [
    ///     .check("endDate >= startDate", name: "dates_in_order"),
    ///     .unique(["tripID", "position"]),
    ///     .foreignKey(["tripID", "position"], references: "Stop", columns: ["tripID", "position"],
    ///                 onDelete: .cascade, deferrable: .initiallyDeferred),
    /// ]
    /// ```
    ///
    /// On a model, columns are named by their properties (a property's column name works too);
    /// in a schema and its snapshot, by their column names. A CHECK's expression names columns.
    /// A stage compares the two versions' constraints as SQLite reads them (spacing, case and
    /// quoting do not count) and rebuilds the table when they differ, dropping those the new
    /// version no longer declares and adding the new ones; a constraint the database has that
    /// neither version declares is the application's, and stays.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/lang_createtable.html#tablecoldef>
    public struct TableConstraint: Codable, Hashable, Sendable, CustomStringConvertible {
        /// What the constraint is.
        public enum Kind: Hashable, Sendable {
            /// `CHECK (expression)`: every row must make it true (or NULL).
            case check(String)
            /// `UNIQUE (columns)`.
            case unique([String])
            /// `FOREIGN KEY (columns) REFERENCES …`.
            case foreignKey(ForeignKey)
        }

        /// A foreign key over one or more columns, with every clause SQLite takes.
        public struct ForeignKey: Hashable, Sendable {
            /// The referencing columns, in order.
            public var columns: [String]
            /// The referenced table (an entity's name).
            public var table: String
            /// The referenced columns, in the order of ``columns``; nil for the referenced table's primary key.
            public var referencedColumns: [String]?
            /// The `ON DELETE` action; nil writes none (SQLite's `NO ACTION`).
            public var onDelete: Schema.ForeignKeyAction?
            /// The `ON UPDATE` action; nil writes none (SQLite's `NO ACTION`).
            public var onUpdate: Schema.ForeignKeyAction?
            /// A `MATCH` name (SQLite parses it and enforces every key as `MATCH SIMPLE`).
            public var match: String?
            /// When SQLite checks the key; nil writes nothing (at each statement).
            public var deferrable: ForeignKeyTiming?

            /// `FOREIGN KEY ("a", "b") REFERENCES "T" ("x", "y") ON DELETE CASCADE …`.
            var clause: String {
                var text =
                    "FOREIGN KEY (\(columns.map(SQL.quoteIdentifier).joined(separator: ", "))) REFERENCES \(SQL.quoteIdentifier(table))"
                if let referencedColumns {
                    text += " (\(referencedColumns.map(SQL.quoteIdentifier).joined(separator: ", ")))"
                }
                if let onDelete { text += " ON DELETE \(onDelete.rawValue)" }
                if let onUpdate { text += " ON UPDATE \(onUpdate.rawValue)" }
                if let match { text += " MATCH \(SQL.quoteIdentifier(match))" }
                if let deferrable { text += " \(deferrable.rawValue)" }
                return text
            }
        }

        /// The constraint's name (`CONSTRAINT "name"`), nil for none. SQLite names a failed
        /// CHECK by it; nothing else uses it.
        public var name: String?
        /// What the constraint is.
        public var kind: Kind
        /// A `UNIQUE` constraint's conflict clause (`ON CONFLICT REPLACE`), nil for none (SQLite's
        /// `ABORT`). Only a `UNIQUE` constraint takes one.
        public var onConflict: Schema.ConflictResolution?

        /// A constraint of `kind`, named `name`, with a `UNIQUE` constraint's conflict clause.
        public init(_ kind: Kind, name: String? = nil, onConflict: Schema.ConflictResolution? = nil) {
            self.kind = kind
            self.name = name
            self.onConflict = onConflict
        }

        /// `CHECK (expression)` over the row: `.check("endDate >= startDate")`.
        public static func check(_ expression: String, name: String? = nil) -> TableConstraint {
            TableConstraint(.check(expression), name: name)
        }

        /// `UNIQUE (columns)`: no two rows hold the same values in them. Unlike a unique index
        /// (``PersistentModel/uniqueness``), SQLite makes its index with the table and never
        /// drops it apart from the table; unlike an index, it may say what a conflicting write
        /// does: `.unique(["email"], onConflict: .replace)` is `UNIQUE ("email") ON CONFLICT REPLACE`.
        public static func unique(
            _ columns: [String], onConflict: Schema.ConflictResolution? = nil, name: String? = nil
        ) -> TableConstraint {
            TableConstraint(.unique(columns), name: name, onConflict: onConflict)
        }

        /// `FOREIGN KEY (columns) REFERENCES table (referenced) …`: the row's values in `columns`
        /// are a key of a `table` row (its primary key when `referenced` is nil).
        public static func foreignKey(
            _ columns: [String], references table: String, columns referenced: [String]? = nil,
            onDelete: Schema.ForeignKeyAction? = nil, onUpdate: Schema.ForeignKeyAction? = nil,
            match: String? = nil, deferrable: ForeignKeyTiming? = nil, name: String? = nil
        ) -> TableConstraint {
            TableConstraint(
                .foreignKey(
                    ForeignKey(
                        columns: columns, table: table, referencedColumns: referenced, onDelete: onDelete,
                        onUpdate: onUpdate, match: match, deferrable: deferrable)), name: name)
        }

        /// The clause as `CREATE TABLE` writes it: `CONSTRAINT "positive" CHECK (price > 0)`.
        public var sql: String {
            let prefix = name.map { "CONSTRAINT \(SQL.quoteIdentifier($0)) " } ?? ""
            switch kind {
            case .check(let expression): return prefix + "CHECK (\(expression))"
            case .unique(let columns):
                return prefix + "UNIQUE (\(columns.map(SQL.quoteIdentifier).joined(separator: ", ")))"
                    + (onConflict.map { " " + $0.clause } ?? "")
            case .foreignKey(let key): return prefix + key.clause
            }
        }

        /// `CHECK (price > 0)`.
        public var description: String { sql }

        /// The columns it constrains (UNIQUE, FOREIGN KEY); empty for a CHECK.
        var columns: [String] {
            switch kind {
            case .check: return []
            case .unique(let columns): return columns
            case .foreignKey(let key): return key.columns
            }
        }

        /// What the constraint means to SQLite, as one string: two constraints with the same
        /// meaning are the same constraint however they are spelt (spacing, case, quoting, an
        /// `ON DELETE NO ACTION` written or left out). The name is part of it.
        var meaning: String { (name.map { "constraint \($0.sqlFolded) " } ?? "") + unnamedMeaning }

        /// ``meaning`` without the name: a declared constraint without a name is the file's
        /// constraint of that meaning, whatever the file calls it.
        var unnamedMeaning: String {
            func list(_ names: [String]) -> String { names.map(\.sqlFolded).joined(separator: ",") }
            switch kind {
            case .check(let expression): return "check " + SQLExpressionText.normalized(expression)
            case .unique(let columns):
                return "unique " + list(columns) + Schema.ConflictResolution.meaning(onConflict)
            case .foreignKey(let key):
                return "foreign key \(list(key.columns)) \(key.table.sqlFolded) "
                    + (key.referencedColumns.map(list) ?? "*") + " \((key.onDelete ?? .noAction).rawValue) "
                    + "\((key.onUpdate ?? .noAction).rawValue) \(key.match?.sqlFolded ?? "") "
                    + "\(key.deferrable?.isDeferred ?? false)"
            }
        }

        /// Whether `other` (a file's) is this constraint: the same meaning, and the same name
        /// when this one has a name.
        func isSatisfied(by other: TableConstraint) -> Bool {
            name == nil ? unnamedMeaning == other.unnamedMeaning : meaning == other.meaning
        }

        /// The constraint with each column of a UNIQUE or a foreign key's own columns named by
        /// `column` (a model's property → its column); a CHECK already names columns.
        func namingColumns(_ column: (String) -> String) -> TableConstraint {
            var result = self
            switch kind {
            case .check: break
            case .unique(let columns): result.kind = .unique(columns.map(column))
            case .foreignKey(var key):
                key.columns = key.columns.map(column)
                result.kind = .foreignKey(key)
            }
            return result
        }

        /// The constraint with its column names replaced (`substitution`: lower-cased old
        /// name → new name); a foreign key's referenced columns are another table's and stay.
        func renamingColumns(_ substitution: [String: String]) -> TableConstraint {
            func renamed(_ names: [String]) -> [String] { names.map { substitution[$0.sqlFolded] ?? $0 } }
            var result = self
            switch kind {
            case .check(let expression):
                result.kind = .check(TableDefinition.substitute(substitution, in: expression))
            case .unique(let columns): result.kind = .unique(renamed(columns))
            case .foreignKey(var key):
                key.columns = renamed(key.columns)
                result.kind = .foreignKey(key)
            }
            return result
        }
    }

    /// When SQLite checks a foreign key: only `DEFERRABLE INITIALLY DEFERRED` waits for the
    /// commit; every other spelling checks at each statement. The raw values are the SQL.
    public enum ForeignKeyTiming: String, Codable, Hashable, Sendable, CaseIterable {
        case initiallyDeferred = "DEFERRABLE INITIALLY DEFERRED"
        case initiallyImmediate = "DEFERRABLE INITIALLY IMMEDIATE"
        case deferrable = "DEFERRABLE"
        case notDeferrable = "NOT DEFERRABLE"
        case notDeferrableInitiallyDeferred = "NOT DEFERRABLE INITIALLY DEFERRED"
        case notDeferrableInitiallyImmediate = "NOT DEFERRABLE INITIALLY IMMEDIATE"

        /// Whether the key is checked when the transaction commits rather than at each statement.
        var isDeferred: Bool { self == .initiallyDeferred }
    }
}
