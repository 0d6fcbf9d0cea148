/// What a database's schema means, as an ORM or the app would notice it, read through SQLite's
/// pragmas rather than its stored text: per table its columns (type, NOT NULL, default,
/// collation, key position, hidden), foreign keys with every clause, indexes by origin, columns,
/// order, collation, uniqueness and `WHERE`, CHECKs (with their names), conflict clauses (the
/// key's, each `NOT NULL`'s and each `UNIQUE`'s), `WITHOUT ROWID`,
/// `STRICT` and `AUTOINCREMENT`; views, triggers and virtual tables by their SQL as SQLite
/// reads it. Names SQLite makes (`sqlite_autoindex_…`) and this package's metadata do not count.
/// Two databases are "the same database" when their lines are equal: what "create equals
/// migrate" means, and what the testing library's validation checks.
package enum SemanticSchema {
    /// The lines of the database file at `path`, opened read-only.
    /// - Parameter indexNames: whether an index's name counts. A rename keeps the name the
    ///   package generated for an undeclared-name index (`Note_title_unique` after `title` became
    ///   `heading`: an `ALTER` is O(1), recreating the index is not), where a new install names it
    ///   after the new names: the testing library compares indexes by what they are, not by name.
    package static func lines(_ path: String, indexNames: Bool = true) throws -> [String] {
        try lines(of: SQLiteConnection(path: path, mode: .readOnly), indexNames: indexNames)
    }

    /// The lines of the database `db` is connected to.
    package static func lines(of db: SQLiteConnection, indexNames: Bool = true) throws -> [String] {
        var lines: [String] = []
        let tables = try db.rows(
            "SELECT name, type, wr, strict FROM pragma_table_list WHERE schema = 'main' AND type IN ('table', 'virtual')"
        )
        for row in tables {
            guard let table = row[0].stringValue, !table.lowercased().hasPrefix("sqlite_"),
                !table.lowercased().hasPrefix("_schema_migrations")
            else { continue }
            let sql =
                try db.rows("SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?", [.text(table)]).first?[0]
                .stringValue ?? ""
            if row[1].stringValue == "virtual" {
                lines.append(
                    "virtual table \(table.lowercased()): \(Schema.SQLObject(.virtualTable, sql).normalizedSQL)")
                continue
            }
            let prefix = "table \(table.lowercased())"
            let definition = try TableDefinition(parsing: sql)
            lines.append(
                "\(prefix): without rowid \(row[2].int64Value == 1), strict \(row[3].int64Value == 1), autoincrement \(definition.hasAutoincrement)"
            )
            let columns = try db.rows(
                "SELECT name, type, \"notnull\", dflt_value, pk, hidden FROM pragma_table_xinfo(?)", [.text(table)])
            let singleIntegerKey =
                row[2].int64Value != 1 && columns.filter { ($0[4].int64Value ?? 0) > 0 }.count == 1
            // `DEFAULT ""` is the empty string's legacy spelling: the same default as `''`.
            func defaultValue(_ text: String) -> String {
                SQLExpressionText.normalized(SQLExpressionText.legacyStringDefault(text) ?? text)
            }
            for column in columns {
                let name = column[0].stringValue ?? ""
                // The rowid's alias holds no NULL whether or not NOT NULL is written.
                // (Not `INTEGER PRIMARY KEY DESC` written on the column: SQLite's quirk keeps it no alias.)
                let notNull =
                    singleIntegerKey && column[4].int64Value == 1 && column[1].stringValue?.uppercased() == "INTEGER"
                        && !definition.descendingColumnKeys.contains(name.sqlFolded)
                    ? "rowid" : "\(column[2].int64Value ?? -1)"
                let collation = definition.collation(of: name)?.uppercased() ?? "BINARY"
                lines.append(
                    "\(prefix) column \(name.lowercased()): type \(column[1].stringValue?.uppercased() ?? ""), not null \(notNull), default \(column[3].stringValue.map(defaultValue) ?? "none"), collate \(collation), key \(column[4].int64Value ?? -1), hidden \(column[5].int64Value ?? -1)"
                )
            }
            // Each key whole (its columns in order), in no particular order: SQLite numbers
            // them in reverse of how they are written, which no application sees.
            var keys: [Int64: [String]] = [:]
            for key in try db.rows(
                "SELECT id, \"from\", \"to\", \"table\", on_update, on_delete FROM pragma_foreign_key_list(?) ORDER BY id, seq",
                [.text(table)])
            {
                let id = key[0].int64Value ?? -1
                if keys[id] == nil {
                    keys[id] = [
                        "→ \(key[3].stringValue?.lowercased() ?? "") on update \(key[4].stringValue ?? "") on delete \(key[5].stringValue ?? "")"
                    ]
                }
                keys[id]!.append(
                    "\(key[1].stringValue?.lowercased() ?? "")=\(key[2].stringValue?.lowercased() ?? "(key)")")
            }
            for key in keys.values.map({ $0.joined(separator: " ") }).sorted() {
                lines.append("\(prefix) foreign key \(key)")
            }
            let deferred = definition.declarableConstraints.compactMap { constraint -> String? in
                guard case .foreignKey(let key) = constraint.kind,
                    key.deferrable?.isDeferred == true
                else { return nil }
                return key.columns.map { $0.lowercased() }.joined(separator: ",")
            }
            // A column's own key, its timing written with its REFERENCES or apart.
            let deferredColumns = definition.columns.filter { column in
                column.constraints.contains { if case .references = $0.kind { true } else { false } }
                    && SchemaComparison.isDeferred(column: column.name, in: definition)
            }.map { $0.name.lowercased() }
            // (declarableConstraints lists a column's key whose timing is written in its REFERENCES too.)
            for columns in Set(deferred + deferredColumns).sorted() {
                lines.append("\(prefix) deferred key: \(columns)")
            }
            for constraint in definition.declarableConstraints {
                switch constraint.kind {
                case .check: lines.append("\(prefix) \(constraint.meaning)")
                // Its index is compared below; what a conflicting write does, only here.
                case .unique where !Schema.ConflictResolution.meaning(constraint.onConflict).isEmpty:
                    lines.append("\(prefix) \(constraint.unnamedMeaning)")
                default: break
                }
            }
            // Conflict clauses, which no pragma reports: the key's and each NOT NULL's.
            let keyConflict = Schema.ConflictResolution.meaning(definition.keyConflict)
            if !keyConflict.isEmpty { lines.append("\(prefix) primary key\(keyConflict)") }
            for column in definition.columns {
                let conflict = Schema.ConflictResolution.meaning(definition.notNullConflict(of: column.name))
                if !conflict.isEmpty {
                    lines.append("\(prefix) column \(column.name.lowercased()) not null\(conflict)")
                }
            }
            for index in try db.rows(
                "SELECT name, \"unique\", origin, partial FROM pragma_index_list(?)", [.text(table)])
            {
                let name = index[0].stringValue ?? ""
                let columns = try db.rows(
                    "SELECT coalesce(name, '<expr>'), \"desc\", coll FROM pragma_index_xinfo(?) WHERE key = 1 ORDER BY seqno",
                    [.text(name)]
                ).map {
                    "\($0[0].stringValue?.lowercased() ?? "") \($0[1].int64Value == 1 ? "desc" : "asc") \($0[2].stringValue?.uppercased() ?? "")"
                }
                let indexSQL =
                    try db.rows("SELECT sql FROM sqlite_schema WHERE type = 'index' AND name = ?", [.text(name)])
                    .first?[0]
                    .stringValue
                let shownName =
                    name.lowercased().hasPrefix("sqlite_autoindex_")
                    ? " (auto)" : indexNames ? " " + name.lowercased() : ""
                let terms = indexSQL.flatMap { sql -> String? in
                    guard let open = sql.firstIndex(of: "(") else { return nil }
                    return SQLExpressionText.normalized(String(sql[open...]))
                }
                lines.append(
                    "\(prefix) index\(shownName): origin \(index[2].stringValue ?? ""), unique \(index[1].int64Value ?? -1), partial \(index[3].int64Value ?? -1), columns \(columns.joined(separator: ", "))\(terms.map { ", sql \($0)" } ?? "")"
                )
            }
        }
        for row in try db.rows("SELECT type, name, sql FROM sqlite_schema WHERE type IN ('view', 'trigger')") {
            let sql = row[2].stringValue ?? ""
            guard let kind = SQLObjectStatement(sql).kind else { continue }
            lines.append(
                "\(kind.words) \(row[1].stringValue?.lowercased() ?? ""): \(Schema.SQLObject(kind, sql).normalizedSQL)")
        }
        return lines.sorted()
    }

    /// What only one side has, for an expectation's message.
    package static func difference(_ first: [String], _ second: [String]) -> String {
        "only in the first: \(first.filter { !second.contains($0) }); only in the second: \(second.filter { !first.contains($0) })"
    }
}
