/// A rebuild's copy met a unique index of the new table twice: rows the old table kept apart are
/// equal in the new one. The table's rows held the index's values when it was made, so what
/// changed is how they compare: a collation the migration's connection was given
/// (``SQLEnvironment``) that disagrees with the application's own, under which two values the
/// application's index holds apart are equal. The refusal names the values and their rows,
/// offline and online alike (the online copy inserts without `OR REPLACE`, which would have
/// dropped one of them silently), and the dry run refuses first, in the same words.
///
/// Related SQLite documentation: <https://www.sqlite.org/datatype3.html#collation>
enum UniqueCollision {
    /// The refusal for `error` (SQLite's "UNIQUE constraint failed: NEW.a, NEW.b", its only word
    /// on which index and table) met while copying `source` into a new table, naming up to five
    /// groups of rows equal under the new table's unique index; nil when `error` is another one.
    /// - Parameter statement: the statement that failed: the copy's `INSERT`, or the `CREATE UNIQUE
    ///   INDEX` a rebuild runs after it, whose index does not exist yet to be read.
    static func refusal(
        _ error: SQLiteError, copying source: String, table: String, statement: String, db: any SQLQuerying,
        version: Schema.Version?
    ) -> MigrationError? {
        guard error.resultCode == .constraintUnique else { return nil }
        let prefix = "UNIQUE constraint failed: "
        guard error.message.hasPrefix(prefix) else { return nil }
        let qualified = error.message.dropFirst(prefix.count).split(separator: ",").map { $0.trimmingWhitespace() }
        guard let first = qualified.first, let dot = first.lastIndex(of: ".") else { return nil }
        let target = String(first[..<dot])
        let columns = qualified.map { text in
            text.lastIndex(of: ".").map { String(text[text.index(after: $0)...]) } ?? text
        }
        // Diagnosis only: the refusal stands without the collations and the rows.
        let collations =
            (try? indexCollations(on: target, columns: columns, db: db))
            ?? (try? probedCollations(of: statement, db: db))
        let groups = collations.flatMap { try? equalGroups(in: source, columns: columns, collations: $0, db: db) } ?? []
        return refusal(table: table, columns: columns, collations: collations, groups: groups, version: version, error)
    }

    /// The dry run's prediction for the rebuild of `table`: its unique indexes under a collation
    /// that is not one of SQLite's own, whose values collide under that collation as this
    /// connection has it. Reads the whole table once per such index; nil when none collide.
    static func predictedRefusal(table: String, db: any SQLQuerying, version: Schema.Version?) throws
        -> MigrationError?
    {
        let builtIn: Set<String> = ["binary", "nocase", "rtrim"]
        for index in try uniqueIndexKeys(on: table, includingPartial: false, db: db)
        where index.collations.contains(where: { !builtIn.contains($0.lowercased()) }) {
            let groups = try equalGroups(in: table, columns: index.columns, collations: index.collations, db: db)
            if !groups.isEmpty {
                return refusal(
                    table: table, columns: index.columns, collations: index.collations, groups: groups,
                    version: version, nil)
            }
        }
        return nil
    }

    /// The refusal, in the same words for the migration and the dry run.
    private static func refusal(
        table: String, columns: [String], collations: [String]?, groups: [String], version: Schema.Version?,
        _ error: SQLiteError?
    ) -> MigrationError {
        let named = collations.map { Set($0).sorted() }
        let under = named.map { $0.joined(separator: ", ") } ?? "its collations"
        return MigrationError(
            .dataViolation,
            "rows of \(table) that its unique index over (\(columns.joined(separator: ", "))) holds apart are equal under \(under) as this connection has \(named?.count == 1 ? "it" : "them")",
            rolledBack: .everything,
            entity: table, version: version,
            remedy:
                "give the migrator the collations and functions the application uses (MigrationOptions.sqlEnvironment, --load-extension), exactly as it registers them; or make those values distinct first",
            details: groups, sqliteError: error)
    }

    /// Up to five groups of `table`'s rows whose `columns` (none NULL) are equal under `collations`.
    private static func equalGroups(in table: String, columns: [String], collations: [String], db: any SQLQuerying)
        throws -> [String]
    {
        let keys = zip(columns, collations).map { "\(SQL.quoteIdentifier($0)) COLLATE \(SQL.quoteIdentifier($1))" }
        let values = columns.map { "quote(\(SQL.quoteIdentifier($0)))" }.joined(separator: " || ', ' || ")
        let present = columns.map { "\(SQL.quoteIdentifier($0)) IS NOT NULL" }.joined(separator: " AND ")
        let grouping = "WHERE \(present) GROUP BY \(keys.joined(separator: ", ")) HAVING count(*) > 1"
        // A table SQLite reads no rowid of (WITHOUT ROWID) fails to prepare this: no version check needed.
        guard (try? db.rows("SELECT rowid FROM \(SQL.quoteIdentifier(table)) LIMIT 0")) != nil else {
            // A WITHOUT ROWID table: its rows are their key, shown as the values.
            return try db.rows(
                "SELECT group_concat(\(values), ' ≡ ') FROM \(SQL.quoteIdentifier(table)) \(grouping) LIMIT 5"
            ).map { "equal: \($0[0].stringValue ?? "?")" }
        }
        // Each group's rows as `rowid US value` records, put in rowid order here: SQLite's
        // group_concat follows no order of its own.
        let groups = try db.rows(
            "SELECT group_concat(rowid || char(31) || \(values), char(30)) FROM \(SQL.quoteIdentifier(table)) "
                + "\(grouping) ORDER BY min(rowid) LIMIT 5"
        )
        return groups.map { group in
            let rows = (group[0].stringValue ?? "").split(separator: "\u{1E}").map { record in
                let parts = record.split(separator: "\u{1F}", maxSplits: 1).map(String.init)
                return (rowid: Int64(parts[0]) ?? 0, value: parts.count > 1 ? parts[1] : "?")
            }.sorted { $0.rowid < $1.rowid }
            return
                "equal: \(rows.map(\.value).joined(separator: " ≡ ")) (rowids \(rows.map { "\($0.rowid)" }.joined(separator: ", ")))"
        }
    }

    /// The collation of each key column of the unique index `statement` failed to create, read from
    /// the same index made without `UNIQUE` under another name and dropped again (in the failed
    /// migration's transaction, which rolls back anyway); nil for another statement.
    private static func probedCollations(of statement: String, db: any SQLQuerying) throws -> [String]? {
        guard let created = try? OnlineTableChange.renamed(indexSQL: statement, to: "", on: ""),
            created.sql.hasPrefix("CREATE UNIQUE INDEX")
        else { return nil }
        let tokenizer = SQLTokenizer(statement)
        let tokens = try tokenizer.tokens()
        guard let on = tokens.firstIndex(where: { tokenizer.isKeyword($0, "ON") }), on + 1 < tokens.count else {
            return nil
        }
        let table = tokenizer.name(of: tokens[on + 1])
        let probe = TableNames.temporaryPrefix + "probe_" + table
        let sql = try OnlineTableChange.renamed(indexSQL: statement, to: probe, on: table).sql
            .replacing("CREATE UNIQUE INDEX", with: "CREATE INDEX")
        try db.execute(sql)
        // Ignoring a failed drop is safe: the failed migration's transaction rolls back anyway.
        defer { _ = try? db.execute("DROP INDEX IF EXISTS \(SQL.quoteIdentifier(probe))") }
        return try db.rows(
            "SELECT coll FROM pragma_index_xinfo(\(SQL.quoteString(probe))) WHERE key = 1 ORDER BY seqno"
        ).map { $0[0].stringValue ?? "BINARY" }
    }

    /// The collation of each key column of `table`'s unique index over exactly `columns`.
    private static func indexCollations(on table: String, columns: [String], db: any SQLQuerying) throws -> [String]? {
        try uniqueIndexKeys(on: table, includingPartial: true, db: db).first { index in
            index.columns.map(\.sqlFolded) == columns.map(\.sqlFolded)
        }?.collations
    }

    /// Each unique index of `table` as its key columns and their collations; an index with an
    /// expression among its keys is left out (no column to group its rows by).
    private static func uniqueIndexKeys(on table: String, includingPartial: Bool, db: any SQLQuerying) throws -> [(
        columns: [String], collations: [String]
    )] {
        try db.rows(
            "SELECT name FROM pragma_index_list(\(SQL.quoteString(table))) WHERE \"unique\" = 1"
                + (includingPartial ? "" : " AND partial = 0")
        ).compactMap { index in
            guard let name = index[0].stringValue else { return nil }
            let keys = try db.rows(
                "SELECT name, coll FROM pragma_index_xinfo(\(SQL.quoteString(name))) WHERE key = 1 ORDER BY seqno")
            let columns = keys.compactMap { $0[0].stringValue }
            guard columns.count == keys.count else { return nil }
            return (columns, keys.map { $0[1].stringValue ?? "BINARY" })
        }
    }
}
