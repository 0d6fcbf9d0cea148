#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension LiveSchema {
    /// Reads the schema of the `main` database of `db`. Read-only.
    ///
    /// What an earlier read on the same connection found is reused while the schema is the same
    /// (``Cache``): `PRAGMA schema_version` and the rows of `sqlite_schema` are read every time,
    /// each table's details only once per schema.
    ///
    /// - Parameter tables: when given, only these tables are read in detail (others are still listed by name).
    /// - Throws: `MigrationError` with code `notADatabase` when the file is not a SQLite database.
    static func read(from db: any SQLQuerying, onlyTables tables: Set<String>? = nil) throws -> LiveSchema {
        do {
            let cookie = try db.pragmaInteger("schema_version")
            let objects = try db.rows("SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY rowid")
            let cache = Cache.kept(by: db, cookie: cookie, objects: objects) ?? outline(objects, cookie: cookie)
            db.schemaCache = cache
            var result = cache.outline
            result.applicationID = Int(try db.pragmaInteger("application_id"))
            result.userVersion = Int(try db.pragmaInteger("user_version"))
            let wanted = tables.map { Set($0.map { $0.sqlFolded }) }
            for table in cache.tables where wanted?.contains(table.name.sqlFolded) ?? true {
                result.tables.append(try details(of: table, in: cache, db: db))
            }
            return result
        } catch let error as SQLiteError {
            throw MigrationError.fromOpening(error, path: db.path)
        }
    }

    /// The schema as the rows of `sqlite_schema` say it, no table read yet: every name; the views,
    /// triggers and virtual tables parsed; the tables listed.
    private static func outline(_ objects: [[SQLiteValue]], cookie: Int64) -> Cache {
        var outline = LiveSchema(tables: [], dependents: [], schemaCookie: cookie)
        var tables: [Cache.TableRow] = []
        // Each index's CREATE INDEX text, from the rows just read rather than a query per index.
        var indexSQL: [String: String] = [:]
        for object in objects {
            if case .text("index") = object[0], case .text(let name) = object[1], case .text(let sql) = object[3] {
                indexSQL[name] = sql
            }
        }
        for object in objects {
            guard case .text(let type) = object[0], case .text(let name) = object[1] else { continue }
            let tableName = object[2].stringValue ?? name
            let sql = object[3].stringValue ?? ""
            outline.objectNames.insert(name.sqlFolded)
            // SQLite stores a virtual table's statement from `CREATE VIRTUAL TABLE` on.
            let isVirtualTable = type == "table" && sql.prefix(20).uppercased() == "CREATE VIRTUAL TABLE"
            // Only these are parsed: a table's CREATE TABLE text can be long, and is read apart.
            if type == "view" || type == "trigger" || isVirtualTable, let stored = Schema.SQLObject(stored: sql) {
                outline.sqlObjects.append(stored)
            }
            switch type {
            case "table":
                tables.append(Cache.TableRow(name: name, sql: sql, isVirtual: isVirtualTable))
            case "trigger":
                outline.dependents.append(Dependent(kind: .trigger, name: name, tableName: tableName, sql: sql))
            case "view":
                outline.dependents.append(Dependent(kind: .view, name: name, tableName: tableName, sql: sql))
            default: break
            }
        }
        return Cache(cookie: cookie, objects: objects, outline: outline, tables: tables, indexSQL: indexSQL)
    }

    /// A table's columns, indexes and foreign keys: as an earlier read of the same schema found
    /// them, or read now and kept for the next.
    private static func details(of row: Cache.TableRow, in cache: Cache, db: any SQLQuerying) throws -> Table {
        let key = row.name.sqlFolded
        if let kept = cache.detailed[key] { return kept }
        let table: Table
        if row.isVirtual {
            // An app's virtual table may use a module only the app's connections register:
            // reading it then fails, yet it holds no foreign key and is no entity's table. Not
            // kept, so that a read after the module is registered reads it.
            guard let read = try? readTable(row.name, sql: row.sql, indexSQL: cache.indexSQL, db: db) else {
                return Table(name: row.name, sql: row.sql, columns: [], indexes: [], foreignKeys: [])
            }
            table = read
        } else {
            table = try readTable(row.name, sql: row.sql, indexSQL: cache.indexSQL, db: db)
        }
        cache.detailed[key] = table
        return table
    }

    /// The names of the tables of the `main` database, without their details.
    static func tableNames(in db: any SQLQuerying) throws -> [String] {
        try db.rows("SELECT name FROM sqlite_schema WHERE type = 'table'").compactMap(\.first?.stringValue)
    }

    private static func readTable(_ name: String, sql: String, indexSQL: [String: String], db: any SQLQuerying) throws
        -> Table
    {
        let quoted = SQL.quoteString(name)
        let columns = try db.rows(
            "SELECT name, type, \"notnull\", dflt_value, pk, hidden FROM pragma_table_xinfo(\(quoted))"
        ).map { row in
            Column(
                name: row[0].stringValue ?? "", declaredType: row[1].stringValue ?? "", notNull: row[2].int64Value == 1,
                defaultValue: row[3].stringValue, primaryKeyPosition: Int(row[4].int64Value ?? 0),
                hidden: Int(row[5].int64Value ?? 0))
        }
        var indexes: [Index] = []
        for row in try db.rows(
            "SELECT name, \"unique\", origin, partial FROM pragma_index_list(\(quoted)) ORDER BY seq DESC")
        {
            let indexName = row[0].stringValue ?? ""
            // An online copy's guard is the package's, like its triggers: no rebuild, check or
            // comparison sees it.
            if TableNames.isBlobGuard(indexName, sql: indexSQL[indexName], on: name) { continue }
            let indexColumns = try db.rows(
                "SELECT name FROM pragma_index_info(\(SQL.quoteString(indexName))) ORDER BY seqno"
            ).map { $0[0].stringValue ?? "<expr>" }
            indexes.append(
                Index(
                    name: indexName, columns: indexColumns, isUnique: row[1].int64Value == 1,
                    origin: row[2].stringValue.flatMap(Index.Origin.init(rawValue:)) ?? .createIndex,
                    isPartial: row[3].int64Value == 1, sql: indexSQL[indexName]))
        }
        var foreignKeys: [Int: ForeignKey] = [:]
        for row in try db.rows(
            "SELECT id, \"table\", \"from\", \"to\", on_update, on_delete FROM pragma_foreign_key_list(\(quoted)) ORDER BY id, seq"
        ) {
            let id = Int(row[0].int64Value ?? 0)
            var key =
                foreignKeys[id]
                ?? ForeignKey(
                    id: id, table: row[1].stringValue ?? "", from: [], to: [],
                    onUpdate: row[4].stringValue ?? "NO ACTION", onDelete: row[5].stringValue ?? "NO ACTION")
            key.from.append(row[2].stringValue ?? "")
            key.to.append(row[3].stringValue)
            foreignKeys[id] = key
        }
        return Table(
            name: name, sql: sql, columns: columns, indexes: indexes,
            foreignKeys: foreignKeys.keys.sorted().compactMap { foreignKeys[$0] })
    }
}
