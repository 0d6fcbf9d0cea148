/// One way a live table differs from its declaration: the table, column or index it concerns and
/// what the database has against what the version declares.
///
/// ``SchemaComparison`` works the differences out once; adoption advice, `verify`, `baseline`,
/// drift errors and the dry run render or filter them. A baseline stores them encoded
/// (``SchemaDifference/encoded``), never as the sentence ``description`` prints, so that
/// rewording a sentence does not change what a baseline accepted.
///
/// ```swift
/// let difference = SchemaDifference.nullability(table: "Trip", column: "destination", liveNotNull: false)
/// difference.description // column Trip.destination is nullable, declared non-optional
/// ```
enum SchemaDifference: Hashable, Sendable {
    /// The table a declared entity names is not in the file.
    case missingTable(String)
    /// The declared primary key is `declared`; the table's is `live` (names folded).
    case primaryKey(table: String, live: [String], declared: [String])
    /// The entity has no declared key, and the table lacks the `"id" INTEGER PRIMARY KEY` it then has.
    case noIntegerPrimaryKey(table: String)
    /// A declared table option the table lacks.
    case missingTableOption(table: String, TableOption)
    case missingColumn(table: String, column: String)
    /// A column of the table (not hidden) that the entity does not declare.
    case undeclaredColumn(table: String, column: String)
    /// The column's declared type is `live` (empty: untyped); the declaration's SQL type or storage type is `declared`.
    case columnType(table: String, column: String, live: String, declared: String)
    /// The column is NOT NULL (or a key that cannot hold NULL) where the attribute is optional, or the reverse.
    case nullability(table: String, column: String, liveNotNull: Bool)
    /// The attribute references `declared` (its table and delete rule); the column has no foreign key.
    case missingForeignKey(table: String, column: String, declared: Reference)
    /// The column has a foreign key onto `live` (its table) that the attribute does not declare.
    case undeclaredForeignKey(table: String, column: String, live: Reference)
    /// The foreign key's table or delete rule differs (both given in each reference).
    case foreignKeyTarget(table: String, column: String, live: Reference, declared: Reference)
    /// The foreign key's referenced column differs (table and column given in each reference).
    case foreignKeyColumn(table: String, column: String, live: Reference, declared: Reference)
    /// The foreign key's `ON UPDATE` action differs.
    case foreignKeyOnUpdate(table: String, column: String, live: String, declared: String)
    /// The foreign key is declared `DEFERRABLE INITIALLY DEFERRED` and is not.
    case foreignKeyNotDeferred(table: String, column: String)
    /// None of the column's CHECKs (`live`) is the declared one.
    case check(table: String, column: String, live: [String], declared: String)
    /// The column's collation differs (`BINARY` when the table names none).
    case collation(table: String, column: String, live: String, declared: String)
    /// A conflict clause (`ON CONFLICT REPLACE`) differs from the declared one: the column's
    /// `NOT NULL`'s, or the primary key's when `column` is nil. An empty text is none.
    case conflictClause(table: String, column: String?, live: String, declared: String)
    /// The column is generated otherwise: each side's clause, nil for an ordinary column.
    case generated(table: String, column: String, live: String?, declared: String?)
    /// The column's default differs (nil: none).
    case defaultValue(table: String, column: String, live: String?, declared: String?)
    /// A declared index the table does not have.
    case missingIndex(table: String, Schema.Index)
    /// A declared named index that the table has under the name `live`.
    case indexName(table: String, Schema.Index, live: String)
    /// A unique index of the table that the entity does not declare: its columns, and its
    /// `CREATE INDEX` text when it has expressions, collations, orders or a `WHERE`.
    case undeclaredUniqueIndex(table: String, index: String, columns: [String], sql: String?)
    /// A declared view, trigger or virtual table the file lacks (`live` nil), or has with other
    /// SQL (`live`, as the file stores it). `table` is the object's name.
    case sqlObject(name: String, declared: Schema.SQLObject, live: String?)
    /// A declared table constraint (a table CHECK, a UNIQUE constraint, a foreign key over
    /// several columns) that the table does not have, with that meaning, among its constraints.
    case missingConstraint(table: String, declared: Schema.TableConstraint)
    /// A header value the version sets (`application_id`, `user_version`) that the file has otherwise.
    case header(pragma: String, live: Int, declared: Int)

    /// A table option a declaration may ask for.
    enum TableOption: String, Hashable, Sendable {
        case autoincrement = "AUTOINCREMENT"
        case strict = "STRICT"
        case withoutRowID = "WITHOUT ROWID"
    }

    /// One end of a foreign key: the table, and the column or delete rule where a difference names it.
    struct Reference: Codable, Hashable, Sendable {
        var table: String
        var column: String?
        var onDelete: String?

        init(table: String, column: String? = nil, onDelete: String? = nil) {
            self.table = table
            self.column = column
            self.onDelete = onDelete
        }
    }

    /// The table (the declared entity's name) the difference concerns.
    var table: String {
        switch self {
        case .missingTable(let table), .primaryKey(let table, _, _), .noIntegerPrimaryKey(let table),
            .missingTableOption(let table, _), .missingColumn(let table, _), .undeclaredColumn(let table, _),
            .columnType(let table, _, _, _), .nullability(let table, _, _), .missingForeignKey(let table, _, _),
            .undeclaredForeignKey(let table, _, _), .foreignKeyTarget(let table, _, _, _),
            .foreignKeyColumn(let table, _, _, _), .foreignKeyOnUpdate(let table, _, _, _),
            .foreignKeyNotDeferred(let table, _), .check(let table, _, _, _), .collation(let table, _, _, _),
            .conflictClause(let table, _, _, _), .generated(let table, _, _, _), .defaultValue(let table, _, _, _),
            .missingIndex(let table, _),
            .indexName(let table, _, _), .undeclaredUniqueIndex(let table, _, _, _), .sqlObject(let table, _, _),
            .header(let table, _, _), .missingConstraint(let table, _):
            return table
        }
    }

    /// The column the difference concerns, if it concerns one.
    var column: String? {
        switch self {
        case .missingColumn(_, let column), .undeclaredColumn(_, let column), .columnType(_, let column, _, _),
            .nullability(_, let column, _), .missingForeignKey(_, let column, _),
            .undeclaredForeignKey(_, let column, _),
            .foreignKeyTarget(_, let column, _, _), .foreignKeyColumn(_, let column, _, _),
            .foreignKeyOnUpdate(_, let column, _, _), .foreignKeyNotDeferred(_, let column),
            .check(_, let column, _, _), .collation(_, let column, _, _), .generated(_, let column, _, _),
            .defaultValue(_, let column, _, _):
            return column
        case .conflictClause(_, let column, _, _):
            return column
        case .missingTable, .primaryKey, .noIntegerPrimaryKey, .missingTableOption, .missingIndex, .indexName,
            .undeclaredUniqueIndex, .sqlObject, .header, .missingConstraint:
            return nil
        }
    }
}

extension SchemaDifference: CustomStringConvertible {
    /// The difference in words, as `verify`, drift errors and `baseline` print it:
    /// `column Trip.destination is nullable, declared non-optional`.
    ///
    /// Baselines recorded before differences were stored encoded hold these sentences: a stored
    /// sentence is matched against this text (``AcceptedDifferences``), so rewording one
    /// un-accepts those older baselines' rows of that kind.
    var description: String {
        switch self {
        case .missingTable(let table):
            return "table \(table) is missing"
        case .primaryKey(let table, let live, let declared):
            return
                "\(table)'s primary key is (\(live.joined(separator: ", "))), declared (\(declared.joined(separator: ", ")))"
        case .noIntegerPrimaryKey(let table):
            return "\(table) has no \"\(Schema.primaryKeyColumn)\" INTEGER PRIMARY KEY column"
        case .missingTableOption(let table, .autoincrement):
            return "\(table)'s key is not AUTOINCREMENT, declared AUTOINCREMENT"
        case .missingTableOption(let table, let option):
            return "\(table) is not \(option.rawValue), declared \(option.rawValue)"
        case .missingColumn(let table, let column):
            return "column \(table).\(column) is missing"
        case .undeclaredColumn(let table, let column):
            return "column \(table).\(column) is not declared"
        case .columnType(let table, let column, let live, let declared):
            return "column \(table).\(column) is \(live.isEmpty ? "untyped" : live), declared \(declared)"
        case .nullability(let table, let column, let liveNotNull):
            let (live, declared) = liveNotNull ? ("NOT NULL", "optional") : ("nullable", "non-optional")
            return "column \(table).\(column) is \(live), declared \(declared)"
        case .missingForeignKey(let table, let column, let declared):
            return
                "column \(table).\(column) has no foreign key, declared REFERENCES \(declared.table) ON DELETE \(declared.onDelete ?? "")"
        case .undeclaredForeignKey(let table, let column, let live):
            return "column \(table).\(column) REFERENCES \(live.table), which is not declared"
        case .foreignKeyTarget(let table, let column, let live, let declared):
            return "column \(table).\(column) REFERENCES \(live.table) ON DELETE \(live.onDelete ?? ""), "
                + "declared \(declared.table) ON DELETE \(declared.onDelete ?? "")"
        case .foreignKeyColumn(let table, let column, let live, let declared):
            return "column \(table).\(column) REFERENCES \(live.table)(\(live.column ?? "")), "
                + "declared \(declared.table)(\(declared.column ?? ""))"
        case .foreignKeyOnUpdate(let table, let column, let live, let declared):
            return "column \(table).\(column)'s foreign key is ON UPDATE \(live), declared ON UPDATE \(declared)"
        case .foreignKeyNotDeferred(let table, let column):
            return "column \(table).\(column)'s foreign key is not DEFERRABLE INITIALLY DEFERRED, declared deferred"
        case .check(let table, let column, let live, let declared):
            let checks = live.isEmpty ? "no CHECK" : live.map { "CHECK (\($0))" }.joined(separator: ", ")
            return "column \(table).\(column) has \(checks), declared CHECK (\(declared))"
        case .collation(let table, let column, let live, let declared):
            return "column \(table).\(column) is COLLATE \(live), declared COLLATE \(declared)"
        case .conflictClause(let table, let column, let live, let declared):
            let subject = column.map { "column \(table).\($0)'s NOT NULL" } ?? "\(table)'s primary key"
            return
                "\(subject) has \(live.isEmpty ? "no conflict clause" : live), declared \(declared.isEmpty ? "none" : declared)"
        case .generated(let table, let column, let live?, nil):
            return "column \(table).\(column) is generated (\(live)), declared an ordinary column"
        case .generated(let table, let column, let live, let declared):
            return
                "column \(table).\(column) is \(live ?? "an ordinary column"), declared \(declared ?? "an ordinary column")"
        case .defaultValue(let table, let column, let live, let declared):
            return "column \(table).\(column) has default \(live ?? "none"), declared \(declared ?? "none")"
        case .missingIndex(let table, let index):
            let kind = index.isUnique ? "unique index" : "index"
            let name = index.hasExpressions ? "\(index.resolvedName(table: table)) on " : ""
            return "\(kind) \(name)\(table)\(index.termsDescription) is missing"
        case .indexName(_, let index, let live):
            return "index \(index.name ?? "")\(index.termsDescription) is named \(live)"
        case .undeclaredUniqueIndex(let table, let index, let columns, let sql):
            let terms = sql.map { ", `\($0)`," } ?? "(\(columns.joined(separator: ", ")))"
            return "unique index \(index) on \(table)\(terms) is not declared"
        case .sqlObject(_, let declared, nil):
            return "\(declared) is missing"
        case .sqlObject(_, let declared, let live?):
            return "\(declared) is `\(live)`, declared `\(declared.sql)`"
        case .header(let pragma, let live, let declared):
            return "\(pragma) is \(live), declared \(declared)"
        case .missingConstraint(let table, let declared):
            return "table \(table) lacks the declared constraint `\(declared.sql)`"
        }
    }
}
