#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What a database really holds, read through SQLite's introspection pragmas.
///
/// Related SQLite documentation: <https://www.sqlite.org/pragma.html#pragma_table_xinfo>,
/// <https://www.sqlite.org/pragma.html#pragma_index_list>, <https://www.sqlite.org/pragma.html#pragma_foreign_key_list>
struct LiveSchema: Sendable, Hashable {
    struct Column: Sendable, Hashable {
        var name: String
        var declaredType: String
        var notNull: Bool
        var defaultValue: String?
        /// 1-based position in the primary key, 0 when not part of it.
        var primaryKeyPosition: Int
        /// 0 for an ordinary column, non-zero for hidden or generated columns.
        var hidden: Int
        var affinity: Schema.StorageType { Schema.StorageType(affinityOf: declaredType) }
    }

    struct Index: Sendable, Hashable {
        var name: String
        var columns: [String]
        var isUnique: Bool
        var origin: Origin
        var isPartial: Bool
        /// The CREATE INDEX statement, nil for indexes SQLite creates for constraints.
        var sql: String?
        /// Columns and uniqueness only (an expression term is `<expr>`, a `WHERE` left out).
        var structure: IndexStructure { IndexStructure(columns: columns, isUnique: isUnique) }

        /// How an index came to be, as `PRAGMA index_list` says.
        enum Origin: String, Sendable, Hashable {
            /// `c`: a `CREATE INDEX` statement (it has SQL of its own).
            case createIndex = "c"
            /// `u`: a `UNIQUE` constraint of the table.
            case uniqueConstraint = "u"
            /// `pk`: the table's `PRIMARY KEY`.
            case primaryKey = "pk"
        }

        /// The structure a declaration of this index with its terms has: its terms (collations
        /// and order included) and `WHERE` as its SQL says them; ``structure`` for an index made
        /// by a constraint.
        var fullStructure: IndexStructure { LiveSchema.fullStructure(of: self) }
        /// Whether this index is what `declared` declares: by its full structure; and, as before
        /// partial indexes could be declared, a declared plain index is also met by a partial one
        /// over the same columns.
        func matches(_ declared: IndexStructure) -> Bool {
            declared.terms == nil ? structure == declared : fullStructure == declared
        }
    }

    struct ForeignKey: Sendable, Hashable {
        var id: Int
        var table: String
        var from: [String]
        var to: [String?]
        var onUpdate: String
        var onDelete: String
    }

    struct Table: Sendable, Hashable {
        var name: String
        var sql: String
        var columns: [Column]
        var indexes: [Index]
        var foreignKeys: [ForeignKey]

        /// The column so named, ignoring ASCII case as SQLite does (`sqlFolded`).
        func column(named name: String) -> Column? {
            let folded = name.sqlFolded
            return columns.first { $0.name.sqlFolded == folded }
        }

        /// True when the table has `id INTEGER PRIMARY KEY` (a rowid alias).
        var hasIntegerPrimaryKey: Bool {
            let keyColumns = columns.filter { $0.primaryKeyPosition > 0 }
            return keyColumns.count == 1 && keyColumns[0].name.sqlFolded == Schema.primaryKeyColumn
                && keyColumns[0].declaredType.uppercased() == "INTEGER"
        }
    }

    /// A trigger or a view, kept so a rebuild can recreate it.
    struct Dependent: Sendable, Hashable {
        enum Kind: String, Sendable { case trigger, view }
        var kind: Kind
        var name: String
        /// The table a trigger is on; for a view, its name.
        var tableName: String
        var sql: String
    }

    var tables: [Table]
    var dependents: [Dependent]
    /// Every view, trigger and virtual table, as a version would declare it, in the file's order.
    var sqlObjects: [Schema.SQLObject] = []
    /// `PRAGMA application_id` and `PRAGMA user_version`.
    var applicationID = 0
    var userVersion = 0
    /// `PRAGMA schema_version` when read: any schema change by anyone bumps it.
    var schemaCookie: Int64
    /// The names of every table, index, trigger and view, lower-cased (SQLite's names share one
    /// space and ignore ASCII case).
    var objectNames: Set<String> = []

    /// The table so named, ignoring ASCII case as SQLite does (`sqlFolded`).
    func table(named name: String) -> Table? {
        let folded = name.sqlFolded
        return tables.first { $0.name.sqlFolded == folded }
    }

    /// Tables other than SQLite's own and this package's metadata.
    var userTables: [Table] { tables.filter { !Schema.isReservedTableName($0.name) } }
}

extension LiveSchema.Index {
    /// Which of `candidates` (live indexes with one declared index's structure) the package made
    /// for that declaration, to drop or retire it: the one with its declared name; else one named
    /// as this package names indexes and kept by a rename: `Table_…` (created under an earlier
    /// column name), then `…_column…` as declared after another table name (created before the
    /// table was renamed, whose `ALTER TABLE … RENAME` keeps index names); else the first. An
    /// index made by hand beside it, under a name of its own, stays.
    static func madeForDeclaration(among candidates: [LiveSchema.Index], named declared: String, table: String)
        -> LiveSchema.Index?
    {
        let prefix = (table + "_").sqlFolded
        let folded = declared.sqlFolded
        // The declared name past its table's: `_c4` of `Trip_c4`, which `Journey_c4` ends with too.
        let columnsPart = folded.hasPrefix(prefix) ? String(folded.dropFirst(prefix.count - 1)) : nil
        return candidates.first { $0.name.sqlFolded == folded }
            ?? candidates.first { $0.name.sqlFolded.hasPrefix(prefix) }
            ?? columnsPart.flatMap { part in candidates.first { $0.name.sqlFolded.hasSuffix(part) } }
            ?? candidates.first
    }
}
