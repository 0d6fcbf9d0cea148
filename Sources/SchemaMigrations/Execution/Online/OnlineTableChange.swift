#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One table rebuilt online: its shadow table (the target definition, under a reserved name), the
/// shadow's indexes, the triggers that carry the application's writes over, the chunked copy, and
/// the statements of the cut-over. Everything about the new table — definition, column mapping,
/// conversions, indexes, the `AUTOINCREMENT` counter — comes from ``TableRebuild``, as offline.
///
/// - The triggers are `AFTER INSERT`, `AFTER UPDATE` and `AFTER DELETE` on the source table,
///   keyed by rowid: each deletes the shadow's row, then re-reads the row it touched through the
///   rebuild's own `SELECT` and inserts it into the shadow (never `OR REPLACE`: a trigger's
///   statements take the conflict policy of the statement that fired them).
/// - The copy runs in rowid order, `rowid > highWater AND rowid <= end` per chunk: the shadow's
///   rows of the chunk (those the triggers already carried over) are deleted, then the chunk is
///   inserted, so a row is written again with the same values, and never with `OR REPLACE`.
/// - The cut-over renames the old table aside (with `legacy_alter_table` on and foreign keys off,
///   so no reference in another table follows it), renames the shadow to the table's name, and
///   gives the shadow's indexes their final names and text through `writable_schema` (SQLite has no
///   `RENAME INDEX`; the index pages stay as built), following SQLite's documented procedure for
///   schema changes ALTER TABLE cannot make.
///
/// Related SQLite documentation: <https://www.sqlite.org/lang_altertable.html#otheralter>,
/// <https://www.sqlite.org/pragma.html#pragma_writable_schema>
struct OnlineTableChange: Sendable {
    let rebuild: TableRebuild

    /// The table the application uses until the cut-over.
    var source: String { rebuild.sourceTable }
    /// The shadow table.
    var shadow: String { TableNames.onlinePrefix + rebuild.table }
    /// Where the old table goes at the cut-over, to be emptied in chunks.
    var released: String { TableNames.releasedPrefix + rebuild.table }
    /// The shadow's `ordinal`-th index it builds, until the cut-over names it.
    func shadowIndex(_ ordinal: Int) -> String { TableNames.onlinePrefix + "ix\(ordinal + 1)_" + rebuild.table }
    /// The name in the shadow of the index at `position` of the rebuild's indexes, one the shadow
    /// builds: numbered among those alone, so that an index the application adds to the table
    /// during the copy, which moves at the cut-over, renames none of them.
    func shadowIndex(at position: Int, of parts: TableRebuild.Parts) -> String {
        shadowIndex(parts.shadowBuiltIndexes.firstIndex(of: position) ?? position)
    }
    /// The guard index on the source table (``TableNames/blobGuard(on:)``).
    var blobGuard: String { TableNames.blobGuard(on: source) }
    /// The triggers on the source table.
    var triggers: [String] { ["insert", "update", "delete"].map { TableNames.onlinePrefix + source + "_" + $0 } }
    /// The triggers on the shadow while indexes are built in key order (``SortedIndexBuild``).
    var shadowTriggers: [String] { Self.shadowTriggers(of: rebuild.table) }
    /// The triggers on the shadow of `table` while indexes are built in key order.
    static func shadowTriggers(of table: String) -> [String] {
        ["insert", "update", "delete"].map { TableNames.onlinePrefix + TableNames.onlinePrefix + table + "_" + $0 }
    }
    /// The rowids of the shadow's rows its triggers touched while indexes are built in key order.
    var touchedRows: String { TableNames.onlinePrefix + "ix0_" + rebuild.table }

    /// The indexes of the rebuild the change builds after the copy, in key order.
    func sortedIndexBuilds(parts: TableRebuild.Parts) -> [SortedIndexBuild] {
        SortedIndexBuild.builds(parts: parts, shadow: shadow) { shadowIndex(at: $0, of: parts) }
    }

    /// The names this change gives its own objects (the shadow, its indexes, the triggers, and
    /// what the cut-over sets aside) that the database already uses for something else, folded
    /// to SQLite's case; empty when the change is free to make them.
    /// - Parameters:
    ///   - indexCount: how many indexes the rebuilt table gets.
    ///   - recorded: the shadows of the change in progress, whose objects are this package's own.
    func takenNames(in live: LiveSchema, indexCount: Int, recorded: Set<String>) -> [String] {
        guard !recorded.contains(shadow.sqlFolded), !recorded.contains(released.sqlFolded) else { return [] }
        let own =
            [shadow, released, blobGuard, touchedRows] + triggers + shadowTriggers
            + (0..<indexCount).flatMap { [shadowIndex($0), releasedIndex($0)] }
        return own.filter { live.objectNames.contains($0.sqlFolded) }
    }

    /// The rowid's name free in both the live table and the target (a column may be named `rowid`).
    func rowidName(live: LiveSchema.Table) -> String? {
        SQL.freeRowidName { name in
            live.column(named: name) != nil
                || rebuild.target.attributes.contains { $0.name.sqlFolded == name.sqlFolded }
        }
    }

    /// The rebuild rendered against the live table, the new table named as the shadow.
    func parts(in live: LiveSchema, renamesApplied: Bool, version: Schema.Version) throws -> (
        table: LiveSchema.Table, parts: TableRebuild.Parts
    ) {
        guard let table = live.table(named: renamesApplied ? rebuild.table : source) else {
            throw MigrationError(
                .sqlite, "the table \(source) to rebuild online is missing; nothing was done", entity: rebuild.table,
                version: version)
        }
        let parts = try rebuild.statements(
            live: table, renamesApplied: renamesApplied, version: version, newName: shadow
        ).parts
        return (table, parts)
    }

    /// Why this table cannot be rebuilt online, nil when it can. Without the live table (a dry
    /// run's prediction for a table a later stage rebuilds), only what the plan tells is judged.
    func refusal(live: LiveSchema.Table?, parts: TableRebuild.Parts?) -> String? {
        if parts?.withoutRowid == true {
            return "\(rebuild.table) is a WITHOUT ROWID table: the online copy walks rowids"
        }
        if let live, rowidName(live: live) == nil {
            return "\(rebuild.table) has columns named rowid, oid and _rowid_: the online copy walks rowids"
        }
        if rebuild.columns.contains(where: \.changesReference) {
            return
                "the rebuild of \(rebuild.table) changes a foreign key, which must be checked over the whole table at once"
        }
        if let column = rebuild.columns.first(where: { changesReferences($0, live: live) }) {
            return
                "the rebuild of \(rebuild.table) changes the values of \(column.attribute.name), a foreign key, which must be checked over the whole table at once"
        }
        if !rebuild.nullableColumns.isEmpty {
            return "the rebuild of \(rebuild.table) leaves columns for custom code to fill"
        }
        if let index = uniqueIndexNotCarriedOver(live: live, parts: parts) {
            return
                "the rebuild of \(rebuild.table) drops or changes the unique index \(index), through which an application's OR REPLACE deletes rows that the shadow would keep"
        }
        return nil
    }

    /// A unique index of the source that the shadow does not enforce as the source does: dropped,
    /// or over a column (or a `WHERE`) whose values or collation the rebuild changes. SQLite fires
    /// no delete trigger for the rows an application's `OR REPLACE` deletes through such an index
    /// (unless its connection turns `recursive_triggers` on); the shadow's own copy of the index
    /// makes the triggers' INSERT, under that `OR REPLACE`, delete the same rows there, but
    /// without it they stay, and come back at the cut-over. Without the live table, the unique
    /// indexes the plan retires.
    private func uniqueIndexNotCarriedOver(live: LiveSchema.Table?, parts: TableRebuild.Parts?) -> String? {
        guard let live, let parts else { return rebuild.retiredIndexes.first { $0.index.isUnique }?.name }
        let dropped = Set(rebuild.droppedColumns.map(\.sqlFolded))
        let copied = Dictionary(
            rebuild.columns.compactMap { column in
                column.expression == nil ? nil : ((column.sourceName ?? column.attribute.name).sqlFolded, column)
            }, uniquingKeysWith: { first, _ in first })
        let kept = Set(
            parts.indexes.compactMap { sql -> String? in
                guard let renamed = try? Self.renamed(indexSQL: sql, to: "", on: ""),
                    renamed.sql.hasPrefix("CREATE UNIQUE")
                else { return nil }
                return renamed.name.sqlFolded
            })
        for index in live.indexes where index.isUnique {
            if index.origin == .createIndex && !kept.contains(index.name.sqlFolded) { return index.name }
            let mentioned = Set((index.sql.map { SQLTokenizer($0).indexedColumnNames() } ?? []).map(\.sqlFolded))
                .union(index.columns.map(\.sqlFolded))
            for column in live.columns.map(\.name.sqlFolded) where mentioned.contains(column) {
                if dropped.contains(column) { return index.name }
                if let copy = copied[column],
                    copy.expression != SQL.quoteIdentifier(copy.attribute.name) || copy.changesCollation
                {
                    return index.name
                }
            }
        }
        return nil
    }

    /// Whether the rebuild writes other values than the old ones into a column holding a reference
    /// (NULLs taking a default, a conversion): they may point at missing rows, and the cut-over
    /// checks no table rebuilt online (it would read the whole table under its lock), nor do the
    /// shadow's triggers leave the application's writes alone (they would fail on such a value).
    /// The live table's foreign keys decide, declared or not; without it, the declaration's.
    private func changesReferences(_ column: TableRebuild.Column, live: LiveSchema.Table?) -> Bool {
        guard let expression = column.expression, expression != SQL.quoteIdentifier(column.attribute.name) else {
            return false
        }
        guard let live else { return column.attribute.references != nil }
        let source = (column.sourceName ?? column.attribute.name).sqlFolded
        return live.foreignKeys.contains { key in key.from.contains { $0.sqlFolded == source } }
    }

    /// Phase 1 (prepare): the shadow, the indexes it builds as the rows arrive and the triggers,
    /// in one transaction. The indexes built after the copy in key order are left out.
    func prepareStatements(live: LiveSchema.Table, parts: TableRebuild.Parts) throws -> [String] {
        guard let rowid = rowidName(live: live) else { return [] }
        var statements = [parts.createTable]
        let sorted = Set(sortedIndexBuilds(parts: parts).map(\.position))
        for (ordinal, index) in parts.shadowBuiltIndexes.enumerated() where !sorted.contains(index) {
            statements.append(
                try Self.renamed(indexSQL: parts.indexes[index], to: shadowIndex(ordinal), on: shadow).sql)
        }
        let quotedSource = SQL.quoteIdentifier(parts.sourceTable)
        let quotedShadow = SQL.quoteIdentifier(shadow)
        // The shadow's row is deleted, then written anew with a plain INSERT: a statement in a
        // trigger takes the conflict policy of the statement that fired it (an application's
        // `UPDATE OR IGNORE` would skip an `INSERT OR REPLACE` here, and leave the shadow's row
        // stale; an `OR ABORT`, or a foreign key's `ON DELETE SET NULL`, which SQLite runs as
        // `OR ABORT`, would fail on the row already there), so the write must meet no conflict.
        // Under the application's own `OR REPLACE`, the INSERT also deletes the shadow's rows that
        // the statement deleted in the source through a unique index (the shadow has every one of
        // them: ``uniqueIndexNotCarriedOver(live:parts:)``).
        let write =
            "INSERT INTO \(quotedShadow) (\(parts.copyTargets.joined(separator: ", "))) "
            + "SELECT \(parts.copySourcesBeforeRenames.joined(separator: ", ")) FROM \(quotedSource) WHERE \(quotedSource).\(rowid) = NEW.\(rowid);"
        statements.append(
            "CREATE TRIGGER \(SQL.quoteIdentifier(triggers[0])) AFTER INSERT ON \(quotedSource) BEGIN "
                + "DELETE FROM \(quotedShadow) WHERE \(rowid) = NEW.\(rowid); \(write) END")
        statements.append(
            "CREATE TRIGGER \(SQL.quoteIdentifier(triggers[1])) AFTER UPDATE ON \(quotedSource) BEGIN "
                + "DELETE FROM \(quotedShadow) WHERE \(rowid) IN (OLD.\(rowid), NEW.\(rowid)); \(write) END")
        statements.append(
            "CREATE TRIGGER \(SQL.quoteIdentifier(triggers[2])) AFTER DELETE ON \(quotedSource) BEGIN "
                + "DELETE FROM \(quotedShadow) WHERE \(rowid) = OLD.\(rowid); END")
        return statements
    }

    /// Phase 1 (prepare), after ``prepareStatements(live:parts:)``: the guard index on the source
    /// (``TableNames/blobGuard(on:)``), made in O(1) of the table's rows. It has no entries on any
    /// table, so it is created on the empty shadow and handed to the source through
    /// `writable_schema`, as the cut-over names indexes: `CREATE INDEX` on the source would read
    /// every row under the lock to find none.
    var guardStatements: [String] {
        let onShadow = "CREATE INDEX \(SQL.quoteIdentifier(blobGuard)) ON \(SQL.quoteIdentifier(shadow)) ((0)) WHERE 0"
        return [
            onShadow, "PRAGMA writable_schema = ON",
            "UPDATE sqlite_schema SET tbl_name = \(SQL.quoteString(source)), sql = \(SQL.quoteString(TableNames.blobGuardSQL(on: source))) "
                + "WHERE type = 'index' AND name = \(SQL.quoteString(blobGuard))",
            "PRAGMA writable_schema = RESET",
        ]
    }

    /// Phase 2 (copy): one chunk of at most `rows` rows after `highWater` (from the first row when
    /// nil), inside the caller's transaction.
    /// - Returns: the new high-water mark, nil when the chunk reached the end of the table.
    func copyChunk(
        _ db: any SQLQuerying, live: LiveSchema.Table, parts: TableRebuild.Parts, after highWater: Int64?, rows: Int
    ) throws -> Int64? {
        guard let rowid = rowidName(live: live) else { return nil }
        let quotedSource = SQL.quoteIdentifier(parts.sourceTable)
        let start = highWater.map { "\(rowid) > \($0)" } ?? "1"
        let end = try db.scalar(
            "SELECT \(rowid) FROM \(quotedSource) WHERE \(start) ORDER BY \(rowid) LIMIT 1 OFFSET \(max(0, rows - 1))")?
            .int64Value
        // The shadow's rows of the chunk (the triggers carried them, current) go first, so that the
        // copy inserts without `OR REPLACE`: a row that meets another under a unique index of the
        // shadow (a collation the migration was given that takes two of the table's values for
        // equal) fails the chunk, as offline, instead of deleting that other row unseen; `OR ABORT`
        // overrides an `ON CONFLICT REPLACE` or `IGNORE` the table's constraints keep, likewise.
        let range = "\(start)" + (end.map { " AND \(rowid) <= \($0)" } ?? "")
        try db.execute("DELETE FROM \(SQL.quoteIdentifier(shadow)) WHERE \(range)")
        try db.execute(
            "INSERT OR ABORT INTO \(SQL.quoteIdentifier(shadow)) (\(parts.copyTargets.joined(separator: ", "))) "
                + "SELECT \(parts.copySourcesBeforeRenames.joined(separator: ", ")) FROM \(quotedSource) WHERE \(range)"
        )
        return end
    }

    /// Phase 2b (indexes in key order, after the copy): the entries' tables, the touched rowids'
    /// table and the shadow's triggers that keep them, in one transaction, after
    /// ``OnlineMigration/releaseSortedIndexObjects(of:wal:)`` has released what an interrupted build left.
    func sortedIndexSetup(_ builds: [SortedIndexBuild], rowid: String) -> [String] {
        let quotedShadow = SQL.quoteIdentifier(shadow)
        let touched = SQL.quoteIdentifier(touchedRows)
        func touch(_ row: String) -> String {
            "INSERT INTO \(touched) (r) SELECT \(row).\(rowid) WHERE NOT EXISTS (SELECT 1 FROM \(touched) WHERE r = \(row).\(rowid));"
        }
        let adding = builds.map { $0.triggerStatement(adding: "NEW", rowid: rowid) }.joined(separator: " ")
        let removing = builds.map { $0.triggerStatement(removing: "OLD", rowid: rowid) }.joined(separator: " ")
        return builds.map(\.createTableSQL) + [
            "CREATE TABLE \(touched) (r INTEGER PRIMARY KEY)",
            "CREATE TRIGGER \(SQL.quoteIdentifier(shadowTriggers[0])) AFTER INSERT ON \(quotedShadow) BEGIN \(touch("NEW")) \(adding) END",
            "CREATE TRIGGER \(SQL.quoteIdentifier(shadowTriggers[1])) AFTER UPDATE ON \(quotedShadow) BEGIN \(touch("OLD")) \(touch("NEW")) \(removing) \(adding) END",
            "CREATE TRIGGER \(SQL.quoteIdentifier(shadowTriggers[2])) AFTER DELETE ON \(quotedShadow) BEGIN \(touch("OLD")) \(removing) END",
        ]
    }

    /// The tables a key-order index build of `table` made (the entries' tables and the touched
    /// rowids': `_sm_online_ixN_T` that are tables), which the build starts again without and
    /// an abandoned change releases.
    static func sortedIndexTables(of table: String, in db: any SQLQuerying) throws -> [String] {
        try db.rows("SELECT name FROM sqlite_schema WHERE type = 'table'").compactMap { row -> String? in
            guard let name = row.first?.stringValue, name.hasPrefix(TableNames.onlinePrefix + "ix"),
                name.hasSuffix("_" + table)
            else { return nil }
            let ordinal = name.dropFirst(TableNames.onlinePrefix.count + 2).dropLast(table.count + 1)
            return !ordinal.isEmpty && ordinal.allSatisfy({ $0.isASCII && $0.isNumber }) ? name : nil
        }
    }

    /// Dropping the online triggers and the guard index on `table` (by its name before the stage).
    static func dropTriggers(on table: String) -> [String] {
        ["insert", "update", "delete"].map {
            "DROP TRIGGER IF EXISTS \(SQL.quoteIdentifier(TableNames.onlinePrefix + table + "_" + $0))"
        } + ["DROP INDEX IF EXISTS \(SQL.quoteIdentifier(TableNames.blobGuard(on: table)))"]
    }

    /// Dropping the triggers and the guard (the first thing a cut-over or an abandoned change does).
    var dropTriggerStatements: [String] { Self.dropTriggers(on: source) }

    /// Where an old index that does not move to the new table goes at the cut-over, to be emptied
    /// with the old table's rows and dropped with it.
    func releasedIndex(_ index: Int) -> String { TableNames.releasedPrefix + "ix\(index + 1)_" + rebuild.table }

    /// Phase 3 (cut-over): the statements that stand for the rebuild step inside the cut-over
    /// transaction, rendered after the stage's renames ran. Each is O(1) in the table's rows:
    /// - the `AUTOINCREMENT` counter carried over;
    /// - the old table's indexes that stay valid (``TableRebuild/Parts/unchangedIndexes``) moved to
    ///   the new table as they are, the others renamed aside with the old table (dropping them here
    ///   would free their pages under the lock);
    /// - the old table set aside, the shadow renamed, the indexes built in the shadow named.
    /// - Parameter live: the stage's snapshot (``StepRenderer``), with the table and its shadow read in detail.
    func cutOverStatements(live: LiveSchema, version: Schema.Version) throws -> [String] {
        let (table, parts) = try self.parts(in: live, renamesApplied: true, version: version)
        let shadowIndexes = Set((live.table(named: shadow)?.indexes ?? []).map(\.name))
        guard parts.shadowBuiltIndexes.indices.allSatisfy({ shadowIndexes.contains(shadowIndex($0)) }) else {
            throw MigrationError(
                .sqlite,
                "the online shadow of \(rebuild.table) does not have the indexes the rebuild needs",
                rolledBack: .everything,
                entity: rebuild.table, version: version,
                remedy: "run the migration again: the online change starts over")
        }
        let moved = Set(parts.unchangedIndexes.values)
        var statements = parts.sequence
        var schemaEdits: [String] = []
        // The shadow was created before the stage's renames ran: its text as the rebuild writes it now.
        if let shadowSQL = live.table(named: shadow)?.sql, shadowSQL != parts.createTable {
            schemaEdits.append(
                "UPDATE sqlite_schema SET sql = \(SQL.quoteString(parts.createTable)) WHERE type = 'table' AND name = \(SQL.quoteString(shadow))"
            )
        }
        for (position, index) in table.indexes.filter({ $0.origin == .createIndex && !moved.contains($0.name) })
            .enumerated()
        {
            guard let sql = index.sql else { continue }
            let aside = releasedIndex(position)
            let renamed = try Self.renamed(indexSQL: sql, to: aside, on: rebuild.table).sql
            schemaEdits.append(
                "UPDATE sqlite_schema SET name = \(SQL.quoteString(aside)), sql = \(SQL.quoteString(renamed)) "
                    + "WHERE type = 'index' AND name = \(SQL.quoteString(index.name))")
        }
        if !schemaEdits.isEmpty {
            statements += ["PRAGMA writable_schema = ON"] + schemaEdits + ["PRAGMA writable_schema = RESET"]
        }
        statements += [
            "PRAGMA legacy_alter_table = ON",
            "ALTER TABLE \(SQL.quoteIdentifier(rebuild.table)) RENAME TO \(SQL.quoteIdentifier(released))",
            "PRAGMA legacy_alter_table = OFF",
            "ALTER TABLE \(SQL.quoteIdentifier(shadow)) RENAME TO \(SQL.quoteIdentifier(rebuild.table))",
        ]
        if parts.sequence.isEmpty && live.objectNames.contains("sqlite_sequence") {
            // A counter row the application wrote for a table without AUTOINCREMENT (the table is
            // writable): the rename took it to the old table, whose drop would leave it there. An
            // offline rebuild leaves it under the table's name.
            statements.append(
                "UPDATE sqlite_sequence SET name = \(SQL.quoteString(rebuild.table)) WHERE name = \(SQL.quoteString(released))"
            )
        }
        guard !parts.indexes.isEmpty else { return statements }
        statements.append("PRAGMA writable_schema = ON")
        for (index, sql) in parts.indexes.enumerated() {
            if let name = parts.unchangedIndexes[index] {
                // SQLite loads the schema in rowid order, an index after its table: the moved index
                // gets a new row, after the shadow's, under the name the rebuild gives it (a declared
                // index renamed after its columns), and its old row goes.
                let named = "type = 'index' AND name = \(SQL.quoteString(name))"
                let target = try Self.renamed(indexSQL: sql, to: "", on: "").name
                statements.append(
                    "INSERT INTO sqlite_schema (type, name, tbl_name, rootpage, sql) SELECT type, \(SQL.quoteString(target)), "
                        + "\(SQL.quoteString(rebuild.table)), rootpage, \(SQL.quoteString(sql)) FROM sqlite_schema WHERE \(named)"
                )
                statements.append(
                    "DELETE FROM sqlite_schema WHERE rowid = (SELECT min(rowid) FROM sqlite_schema WHERE \(named))")
                continue
            }
            let name = try Self.renamed(indexSQL: sql, to: "", on: "").name
            statements.append(
                "UPDATE sqlite_schema SET name = \(SQL.quoteString(name)), sql = \(SQL.quoteString(sql)) "
                    + "WHERE type = 'index' AND name = \(SQL.quoteString(shadowIndex(at: index, of: parts)))")
        }
        statements.append("PRAGMA writable_schema = RESET")
        return statements
    }

    /// A `CREATE INDEX` statement's own name, and the statement naming another index on another
    /// table, the rest kept as written.
    static func renamed(indexSQL sql: String, to name: String, on table: String) throws -> (name: String, sql: String) {
        let tokenizer = SQLTokenizer(sql)
        let tokens: [SQLTokenizer.Token]
        do { tokens = try tokenizer.tokens() } catch {
            throw MigrationError(.sqlite, "cannot read the index statement `\(sql)`: \(error)")
        }
        guard let on = tokens.firstIndex(where: { tokenizer.isKeyword($0, "ON") }), on >= 1, on + 1 < tokens.count
        else {
            throw MigrationError(.sqlite, "cannot read the index statement `\(sql)`")
        }
        let unique = tokens[..<on].contains { tokenizer.isKeyword($0, "UNIQUE") }
        let rest = tokenizer.text(tokens[on + 1].end, tokenizer.bytes.count)
        let renamed =
            "CREATE \(unique ? "UNIQUE " : "")INDEX \(SQL.quoteIdentifier(name)) ON \(SQL.quoteIdentifier(table))\(rest)"
        return (tokenizer.name(of: tokens[on - 1]), renamed)
    }
}
