import Foundation

@testable import SchemaMigrations

/// A random database as another tool or a person would make it, using what the declaration API
/// can say: user-named and composite keys (INTEGER, TEXT holding UUIDs), `AUTOINCREMENT`,
/// `WITHOUT ROWID`, `STRICT`, SQL type texts, CHECKs, collations, default expressions, foreign
/// keys onto key columns with every action and `DEFERRABLE`, named indexes, and dates stored
/// each way — with rows. Each column records what introspection must say of it.
struct ForeignDatabase: CustomStringConvertible {
    /// `stored`: a column whose values are not what its type text implies (geometry blobs in a
    /// column declared POINT, text codes in one declared INTEGER, a mix by design).
    enum Kind: CaseIterable { case integer, real, text, blob, numeric, bool, date, stored }

    struct Column {
        var name: String
        var sql: String  // the column definition
        var valueType: Schema.ValueType
        var sqlType: String?
        var dateStorage: Schema.DateStorage?
        var isOptional: Bool
        var check: String?
        var collation: String?
        var references: Schema.ForeignKey?
        /// A key written without the referenced column (`REFERENCES parent`), which is declared
        /// as a table constraint with no columns rather than as ``references``.
        var unlistedKey: Schema.TableConstraint?
        /// The values of the rows, as SQL literals.
        var values: [String]
        /// False for a date column whose storage neither its values nor its default show.
        var storageKnown = true
    }

    struct Table {
        var name: String
        var columns: [Column]
        /// Nil: the default `"id" INTEGER PRIMARY KEY`.
        var primaryKey: [String]?
        /// Composite key columns written `DESC` in the table's `PRIMARY KEY (…)`.
        var descendingKey: Set<String> = []
        var autoincrement = false
        var withoutRowID = false
        var strict = false
        var indexes: [(name: String, columns: [String], unique: Bool)] = []
        var rows: Int

        var sql: String {
            var parts = (primaryKey == nil ? ["id INTEGER PRIMARY KEY"] : []) + columns.map(\.sql)
            if let key = primaryKey, key.count > 1 {
                let terms = key.map { SQL.quoteIdentifier($0) + (descendingKey.contains($0) ? " DESC" : "") }
                parts.append("PRIMARY KEY (\(terms.joined(separator: ", ")))")
            }
            let options = (withoutRowID ? ["WITHOUT ROWID"] : []) + (strict ? ["STRICT"] : [])
            return "CREATE TABLE \(SQL.quoteIdentifier(name)) (\(parts.joined(separator: ", ")))"
                + (options.isEmpty ? "" : " " + options.joined(separator: ", "))
        }
    }

    var tables: [Table]
    /// Views and triggers calling the application's function `app_fold` (``appEnvironment``),
    /// by name: SQLite keeps them, and so must every migration made without the function.
    var appDependents: [(name: String, sql: String)] = []

    /// The application's SQL: `app_fold(x)`, x as lower-cased text.
    static let appEnvironment = SQLEnvironment(functions: [
        SQLFunction("app_fold", argumentCount: 1) { arguments in
            switch arguments[0] {
            case .null: return .null
            case .text(let text): return .text(text.lowercased())
            default: return .text(arguments[0].description.lowercased())
            }
        }
    ])

    var description: String {
        tables.map { table in
            ([table.sql + ";"]
                + table.indexes.map {
                    "CREATE \($0.unique ? "UNIQUE " : "")INDEX \($0.name) ON \(table.name) (\($0.columns.joined(separator: ", ")));"
                })
                .joined(separator: "\n") + "  -- \(table.rows) rows"
        }.joined(separator: "\n") + appDependents.map { "\n" + $0.sql + ";" }.joined()
    }

    static let tableNames = [
        "Album", "play_list", "InvoiceLine", "order", "Group", "user_account", "Date", "media-type", "ArtistCredit",
        "track",
    ]
    static let columnNames = [
        "Title", "created_at", "firstName", "default", "class", "e-mail", "2fa_code", "UnitPrice", "is_done", "Note",
        "updated", "Count", "payload", "self", "value", "HTTPStatus", "city_name", "Rank",
    ]
    static let actions = ["NO ACTION", "RESTRICT", "SET NULL", "SET DEFAULT", "CASCADE"]

    /// Builds case `index` of the family from `seed`.
    static func generate(seed: UInt64, index: Int) -> ForeignDatabase {
        var random = SeededRandom(seed: seed, family: "foreign-database", index: index)
        var tables: [Table] = []
        for name in tableNames.shuffled(using: &random).prefix(Int.random(in: 1...4, using: &random)) {
            tables.append(table(named: name, parents: tables, random: &random))
        }
        var database = ForeignDatabase(tables: tables)
        // Half the cases: a view and a trigger on the first table that call the app's function.
        if random.chance(0.5), let table = tables.first, let column = table.columns.first {
            let quoted = SQL.quoteIdentifier(table.name)
            let name = SQL.quoteIdentifier(column.name)
            database.appDependents = [
                ("app_folded", "CREATE VIEW \"app_folded\" AS SELECT app_fold(\(name)) AS folded FROM \(quoted)"),
                (
                    "app_guard",
                    "CREATE TRIGGER \"app_guard\" BEFORE INSERT ON \(quoted) WHEN app_fold(new.\(name)) = 'app-refused' BEGIN SELECT RAISE(ABORT, 'refused by the app'); END"
                ),
            ]
        }
        return database
    }

    private static func table(named name: String, parents: [Table], random: inout SeededRandom) -> Table {
        let rows = [0, 1, 3, 8].randomElement(using: &random)!
        let strict = random.chance(0.25)
        var table = Table(name: name, columns: [], strict: strict, rows: rows)
        // The key.
        switch Int.random(in: 0..<6, using: &random) {
        case 0: break  // the default id
        case 4:
            table.primaryKey = []  // no key: rows keyed by the hidden rowid (a log, another format's registry)
        case 5:
            // A composite key over columns that may hold NULL, as SQLite allows in a rowid table
            // that is not STRICT (STRICT makes key columns NOT NULL).
            table.strict = false
            table.columns.append(
                Column(
                    name: "Part", sql: "Part INTEGER", valueType: .integer, isOptional: true,
                    values: (0..<rows).map { $0 % 4 == 3 ? "NULL" : String($0 % 3) }))
            table.columns.append(
                Column(
                    name: "Code", sql: "Code TEXT", valueType: .string, isOptional: true,
                    values: (0..<rows).map { $0 % 5 == 4 ? "NULL" : "'c\($0)'" }))
            table.primaryKey = ["Part", "Code"]
        case 1:
            let key = SwiftNames.typeName(forTable: name) + "Id"
            table.autoincrement = random.chance(0.4)
            // `INTEGER PRIMARY KEY DESC`: no alias of the rowid; without NOT NULL it may hold NULL.
            let descending = !table.autoincrement && random.chance(0.3)
            let notNull = random.chance(0.5)
            table.columns.append(
                Column(
                    name: key,
                    sql: "\(SQL.quoteIdentifier(key)) INTEGER PRIMARY KEY" + (descending ? " DESC" : "")
                        + (table.autoincrement ? " AUTOINCREMENT" : "") + (notNull ? " NOT NULL" : ""),
                    valueType: .integer, isOptional: descending && !notNull && !table.strict,
                    values: (0..<rows).map { String($0 * 7 + 1) }))
            table.primaryKey = [key]
        case 2:
            table.withoutRowID = random.chance(0.5)
            table.columns.append(
                Column(
                    name: "uuid", sql: "uuid TEXT NOT NULL PRIMARY KEY", valueType: .string, isOptional: false,
                    values: (0..<rows).map { _ in SQL.quoteString(UUID(uuid: randomBytes(&random)).uuidString) }))
            table.primaryKey = ["uuid"]
        default:
            table.withoutRowID = random.chance(0.5)
            table.columns.append(
                Column(
                    name: "Part", sql: "Part INTEGER NOT NULL", valueType: .integer, isOptional: false,
                    values: (0..<rows).map { String($0 % 3) }))
            table.columns.append(
                Column(
                    name: "Code", sql: "Code TEXT NOT NULL" + (random.chance(0.3) ? " COLLATE NOCASE" : ""),
                    valueType: .string, isOptional: false,
                    collation: nil, values: (0..<rows).map { "'c\($0)'" }))
            if table.columns[table.columns.count - 1].sql.hasSuffix("NOCASE") {
                table.columns[table.columns.count - 1].collation = "NOCASE"
            }
            table.primaryKey = ["Part", "Code"]
            if random.chance(0.3) { table.descendingKey = [["Part", "Code"].randomElement(using: &random)!] }
        }
        // A foreign key onto a parent's single key column.
        if let parent = parents.randomElement(using: &random), parent.primaryKey?.count ?? 1 == 1, random.chance(0.7) {
            let parentKey = parent.primaryKey?.first ?? "id"
            let keyValues =
                parent.primaryKey == nil ? (0..<parent.rows).map { String($0 + 1) } : parent.columns[0].values
            let isText = parent.primaryKey == ["uuid"]
            let onDelete = actions.randomElement(using: &random)!
            let onUpdate = actions.randomElement(using: &random)!
            let deferred = random.chance(0.3)
            let named = random.chance(0.5)
            let column = "\(SwiftNames.typeName(forTable: parent.name))Ref"
            let sql =
                "\(SQL.quoteIdentifier(column)) \(isText ? "TEXT" : "INTEGER") REFERENCES \(SQL.quoteIdentifier(parent.name))"
                + (named ? " (\(SQL.quoteIdentifier(parentKey)))" : "") + " ON DELETE \(onDelete) ON UPDATE \(onUpdate)"
                + (deferred ? " DEFERRABLE INITIALLY DEFERRED" : "")
            table.columns.append(
                Column(
                    name: column, sql: sql, valueType: isText ? .string : .integer, isOptional: true,
                    references: named
                        ? Schema.ForeignKey(
                            table: parent.name, onDelete: onDelete, column: parent.primaryKey == nil ? nil : parentKey,
                            onUpdate: onUpdate == "NO ACTION" ? nil : onUpdate, isDeferred: deferred ? true : nil)
                        : nil,
                    unlistedKey: named
                        ? nil
                        : .foreignKey(
                            [column], references: parent.name, onDelete: Schema.ForeignKeyAction(rawValue: onDelete),
                            onUpdate: Schema.ForeignKeyAction(rawValue: onUpdate),
                            deferrable: deferred ? .initiallyDeferred : nil),
                    values: (0..<rows).map { _ in
                        keyValues.isEmpty || random.chance(0.3) ? "NULL" : keyValues.randomElement(using: &random)!
                    }))
        }
        let taken = Set(table.columns.map { $0.name.lowercased() })
        for name in columnNames.shuffled(using: &random).filter({ !taken.contains($0.lowercased()) }).prefix(
            Int.random(in: 1...4, using: &random))
        {
            table.columns.append(column(named: name, strict: strict, rows: rows, random: &random))
        }
        // Named indexes: a plain one on a value column, a unique one on a text column (its values differ row by row).
        let values = table.columns.filter {
            !(table.primaryKey ?? []).contains($0.name) && $0.references == nil && $0.unlistedKey == nil
        }
        if let column = values.randomElement(using: &random), random.chance(0.6) {
            table.indexes.append(
                ("ix_\(table.name.filter(\.isLetter))_\(column.name.filter(\.isLetter))", [column.name], false))
        }
        if let column = values.first(where: { $0.valueType == .string }),
            !table.indexes.contains(where: { $0.columns == [column.name] }), random.chance(0.5)
        {
            table.indexes.append(
                ("ux_\(table.name.filter(\.isLetter))_\(column.name.filter(\.isLetter))", [column.name], true))
        }
        return table
    }

    private static func column(named name: String, strict: Bool, rows: Int, random: inout SeededRandom) -> Column {
        let kinds: [Kind] = strict ? [.integer, .real, .text, .blob] : Kind.allCases
        let kind = kinds.randomElement(using: &random)!
        let optional = random.chance(0.5)
        let quoted = SQL.quoteIdentifier(name)
        var column = Column(name: name, sql: "", valueType: .integer, isOptional: optional, values: [])
        var type: String
        var defaultValue: String?
        func values(_ make: (Int) -> String) -> [String] {
            (0..<rows).map { optional && $0 % 3 == 2 ? "NULL" : make($0) }
        }
        switch kind {
        case .integer:
            type =
                strict
                ? ["INTEGER", "INT"].randomElement(using: &random)!
                : ["INTEGER", "INT", "BIGINT", "SMALLINT"].randomElement(using: &random)!
            column.values = values { String($0 * 11 - 4) }
            defaultValue = random.chance(0.3) ? "(1 + 2)" : "0"
            if random.chance(0.3) { column.check = "\(quoted) > -100" }
        case .real:
            type = strict ? "REAL" : ["REAL", "DOUBLE", "FLOAT"].randomElement(using: &random)!
            column.valueType = .double
            column.values = values { "\(Double($0) + 0.25)" }
            defaultValue = "1.5"
        case .text:
            type = strict ? "TEXT" : ["TEXT", "NVARCHAR(160)", "VARCHAR(20)", "CLOB"].randomElement(using: &random)!
            column.valueType = .string
            column.values = values { "'v\($0)'" }
            defaultValue = "''"
            column.collation = [nil, "NOCASE", "RTRIM"].randomElement(using: &random)!
            if random.chance(0.4) { column.check = "length(\(quoted)) < 100" }
        case .blob:
            type = "BLOB"
            column.valueType = .data
            column.values = values { "X'0\($0 % 10)FF'" }
            defaultValue = "X''"
        case .numeric:
            type = ["NUMERIC(10,2)", "DECIMAL(8,3)", "NUMERIC"].randomElement(using: &random)!
            column.valueType = .double
            column.values = values { "\($0).99" }
            defaultValue = "0"
        case .stored:
            type = ["POINT", "LINESTRING", "INTEGER", "NUMERIC"].randomElement(using: &random)!
            let mode = Int.random(in: 0..<3, using: &random)
            column.values = values { row in
                switch mode {
                case 0: return "X'01\(row % 10)0'"
                case 1: return "'A\(row)'"
                default: return ["X'AB'", "'t\(row)'", "\(row).5"][row % 3]
                }
            }
            column.valueType = storedType(of: column.values, declared: type)
            defaultValue = "0"
        case .bool:
            type = "BOOLEAN"
            column.valueType = .bool
            column.values = values { $0 % 2 == 0 ? "TRUE" : "FALSE" }
            defaultValue = "FALSE"
        case .date:
            column.valueType = .date
            let storage = Schema.DateStorage.allCases.randomElement(using: &random)!
            column.dateStorage = storage
            switch storage {
            case .iso8601Text:
                type = ["DATETIME", "DATE", "TIMESTAMP"].randomElement(using: &random)!
                column.values = values { "'20\(10 + $0)-02-2\($0 % 9) 13:45:0\($0 % 10).250'" }
                defaultValue = "CURRENT_TIMESTAMP"
            case .julianDay:
                type = ["DATE", "DATETIME"].randomElement(using: &random)!
                column.values = values { "\(2_460_000.5 + Double($0) * 1.25)" }
                defaultValue = "2440587.5"
            case .secondsSince1970:
                type = ["DATETIME", "TIMESTAMP"].randomElement(using: &random)!
                column.values = values { String(1_700_000_000 + $0 * 86_400) }
                defaultValue = "0"
            }
        }
        column.sqlType =
            SchemaComparison.normalizedType(type)
                == (column.dateStorage?.storageType ?? column.valueType.storageType).rawValue ? nil : type
        if column.dateStorage == .secondsSince1970 { column.dateStorage = nil }
        let hasDefault = random.chance(0.5)
        column.sql =
            "\(quoted) \(type)" + (optional ? "" : " NOT NULL") + (hasDefault ? " DEFAULT \(defaultValue!)" : "")
            + (column.collation.map { " COLLATE \($0)" } ?? "") + (column.check.map { " CHECK (\($0))" } ?? "")
        // Introspection reads a date's storage from the values, else a numeric default; with neither it guesses.
        column.storageKnown = column.valueType != .date || column.values.contains { $0 != "NULL" } || hasDefault
        return column
    }

    /// What introspection declares a `stored` column as: by the storage classes its values have
    /// (blobs only → `Data`; what the affinity's own type holds → that type; else `SQLiteValue`),
    /// by its affinity when it holds none.
    static func storedType(of values: [String], declared: String) -> Schema.ValueType {
        let integerAffinity = Schema.StorageType(affinityOf: declared) == .integer
        let classes = Set(
            values.filter { $0 != "NULL" }.map {
                $0.hasPrefix("X'") ? "blob" : $0.hasPrefix("'") ? "text" : $0.contains(".") ? "real" : "integer"
            })
        if classes.isEmpty { return integerAffinity ? .integer : .double }
        if classes == ["blob"] { return .data }
        if classes.isSubset(of: integerAffinity ? ["integer"] : ["integer", "real"]) {
            return integerAffinity ? .integer : .double
        }
        return .sqliteValue
    }

    private static func randomBytes(_ random: inout SeededRandom) -> uuid_t {
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in bytes.indices { bytes[index] = UInt8.random(in: 0...255, using: &random) }
        return (
            bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
            bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
        )
    }

    /// Creates the tables, rows and indexes at `url`.
    func create(at url: URL) throws {
        let db = try SQLiteConnection(
            path: url.path, mode: .readWriteCreate, environment: ForeignDatabase.appEnvironment)
        try db.execute("BEGIN")
        for table in tables {
            try db.execute(table.sql)
            for row in 0..<table.rows {
                let columns = table.columns.map { SQL.quoteIdentifier($0.name) }.joined(separator: ", ")
                try db.execute(
                    "INSERT INTO \(SQL.quoteIdentifier(table.name)) (\(columns)) VALUES (\(table.columns.map { $0.values[row] }.joined(separator: ", ")))"
                )
            }
            for index in table.indexes {
                try db.execute(
                    "CREATE \(index.unique ? "UNIQUE " : "")INDEX \(SQL.quoteIdentifier(index.name)) ON \(SQL.quoteIdentifier(table.name)) (\(index.columns.map(SQL.quoteIdentifier).joined(separator: ", ")))"
                )
            }
        }
        for dependent in appDependents { try db.execute(dependent.sql) }
        try db.execute("COMMIT")
    }
}
