import CSQLite

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What a custom stage's code touches, learned from SQLite's authorizer as each of its statements
/// is compiled (the data API's and raw SQL alike, triggers and views included), before it runs.
/// It scopes the two checks around the user's code to the tables the code touched:
///
/// - `PRAGMA quick_check` of a table just before the first statement that reads or writes it
///   runs, so a damaged table is refused before the code sees it, and a large table the code
///   never touches costs nothing;
/// - `PRAGMA foreign_key_check` after the stage, of the tables that may now hold a reference to a
///   missing row: those the code inserted into or changed reference columns of, and the children
///   of tables it deleted from, dropped, or changed key columns of.
///
/// What it cannot bound widens the foreign key check to every table: `ALTER TABLE`, virtual
/// tables, writes to attached databases, `PRAGMA writable_schema`, and `OR REPLACE` (which deletes
/// conflicting rows without saying so).
///
/// Related SQLite documentation: <https://www.sqlite.org/c3ref/set_authorizer.html>
package final class CodeFootprint: CustomCodeWatcher {
    /// Tables rows were inserted into (all table names here are lowercased).
    private(set) var inserted: Set<String> = []
    /// Tables rows were deleted from, or that were dropped.
    private(set) var deleted: Set<String> = []
    /// Updated columns by table.
    private(set) var updated: [String: Set<String>] = [:]
    /// Updated columns by table, by statements other than the data API's own `UPDATE` (a trigger's
    /// included): their values are unknown.
    private(set) var updatedOtherwise: [String: Set<String>] = [:]
    /// Columns by table into which the data API's `UPDATE` wrote a value it could not prove its
    /// declaration reads (``StoredValueCheck/isReadable(_:as:affinity:)``).
    private(set) var unprovenWrites: [String: Set<String>] = [:]
    /// True while the data API compiles its own `UPDATE`, whose values it proves one by one.
    var isCompilingDataAPIUpdate = false
    /// Tables the code dropped or created: `CREATE TABLE … AS SELECT` fills one without an insert.
    private(set) var droppedOrCreated: Set<String> = []
    /// Tables written by a trigger, whose `OR REPLACE` the statement's text does not show.
    private(set) var writtenByTriggers: Set<String> = []
    /// True once the code did something whose effect on references cannot be bounded.
    private(set) var isUnbounded = false
    /// A damaged table found while the code ran, thrown again if the code caught it.
    private(set) var damage: MigrationError?

    /// Tables known sound (checked, or written by this migration), lowercased.
    private(set) var sound: Set<String>
    /// Tables that existed before the stage, lowercased to their names: the ones to check.
    private let existing: [String: String]
    /// Tables the statement being compiled touches, lowercased.
    private var pending: Set<String> = []
    /// False once ``watchNothing(on:)`` made the checks cover everything instead.
    package private(set) var isWatching = true

    /// The last object name seen, lowercased, and whether it is reserved: most reports repeat it.
    private var lastName: (raw: String, lowercased: String, isReserved: Bool) = ("", "", true)
    /// The last table added to `pending` since it was emptied, and the last column recorded as updated.
    private var lastPending = ""
    private var lastUpdated: (table: String, column: String, byDataAPI: Bool) = ("", "", false)

    /// - Parameters:
    ///   - existing: the database's tables before the code runs.
    ///   - sound: tables already checked before the stage.
    init(existing: [String], sound: Set<String>) {
        self.existing = Dictionary(existing.map { ($0.sqlFolded, $0) }, uniquingKeysWith: { first, _ in first })
        self.sound = Set(sound.map { $0.sqlFolded })
    }

    /// For a connection whose authorizer is not ours to replace: checks every table now, before
    /// the code runs, and widens the foreign key check to every table.
    package func watchNothing(on db: any SQLQuerying) throws {
        guard isWatching else { return }
        isWatching = false
        isUnbounded = true
        for table in existing.values.sorted()
        where !sound.contains(table.sqlFolded) && !Schema.isReservedTableName(table) {
            try QuickCheck.verify(table: table, db: db)
            sound.insert(table.sqlFolded)
        }
    }

    /// The data API's `UPDATE` wrote a value into `column` of `table` that it could not prove its
    /// declaration reads: the column is checked after the code, as any column written otherwise.
    func recordUnprovenWrite(table: String, column: String) {
        unprovenWrites[table.sqlFolded, default: []].insert(column.sqlFolded)
    }

    /// Whether every value written into `column` of `table` (lowercased) came through the data
    /// API's `UPDATE`, each proven readable, with nothing else writing the table's rows (no
    /// insert, trigger, table dropped or created, nor anything unbounded).
    func wroteOnlyProvenValues(table: String, column: String) -> Bool {
        isWatching && !isUnbounded && !inserted.contains(table) && !writtenByTriggers.contains(table)
            && !droppedOrCreated.contains(table) && updated[table]?.contains(column) == true
            && updatedOtherwise[table]?.contains(column) != true
            && unprovenWrites[table]?.contains(column) != true
    }

    /// Marks tables this migration wrote itself (a rebuild's new table) as sound.
    func markSound(_ tables: [String]) {
        sound.formUnion(tables.map { $0.sqlFolded })
    }

    /// The observer to install on the connection while the code runs.
    package func observer(on db: SQLiteConnection) -> SQLiteAccessObserver {
        SQLiteAccessObserver(
            access: { [unowned self] in record($0) }, prepared: { [unowned self] in try prepared($0, db: db) },
            refuse: { [unowned self] in refuse($0) })
    }

    /// A statement custom code may not run (``CustomCodeLimits``), remembered so that the stage
    /// fails even if the code catches the error.
    private(set) var refusal: MigrationError?

    private func refuse(_ access: SQLiteAccess) -> Error? {
        switch access.action {
        case SQLITE_TRANSACTION, SQLITE_SAVEPOINT, SQLITE_PRAGMA:
            guard let error = CustomCodeLimits.refusal(CustomCodeLimits.kind(of: access)) else { return nil }
            refusal = refusal ?? error
            return error
        default:
            return nil
        }
    }

    func record(_ access: SQLiteAccess) {
        guard let raw = access.object else { return }
        if raw != lastName.raw {
            let lowercased = raw.sqlFolded
            lastName = (raw, lowercased, Schema.isReservedTableName(lowercased))
        }
        let object = lastName.lowercased
        let database = access.database
        switch access.action {
        case SQLITE_READ, SQLITE_INSERT, SQLITE_UPDATE, SQLITE_DELETE, SQLITE_DROP_TABLE:
            if database == "temp" { return }
            guard database == "main" else {
                if access.action != SQLITE_READ { isUnbounded = true }
                return
            }
            // A loop compiling the same statement again reports the same accesses: skip what is recorded.
            if !lastName.isReserved && object != lastPending {
                pending.insert(object)
                lastPending = object
            }
            switch access.action {
            case SQLITE_INSERT: inserted.insert(object)
            case SQLITE_DELETE: deleted.insert(object)
            case SQLITE_DROP_TABLE:
                deleted.insert(object)
                droppedOrCreated.insert(object)
            case SQLITE_UPDATE:
                let column = access.detail?.sqlFolded ?? "rowid"
                let byDataAPI = isCompilingDataAPIUpdate && !access.isFromTriggerOrView
                if object != lastUpdated.table || column != lastUpdated.column || byDataAPI != lastUpdated.byDataAPI {
                    updated[object, default: []].insert(column)
                    if !byDataAPI { updatedOtherwise[object, default: []].insert(column) }
                    lastUpdated = (object, column, byDataAPI)
                }
            default: break
            }
            if access.isFromTriggerOrView && (access.action == SQLITE_INSERT || access.action == SQLITE_UPDATE) {
                writtenByTriggers.insert(object)
            }
        case SQLITE_CREATE_TABLE:
            if database == "main" { droppedOrCreated.insert(object) }
        case SQLITE_PRAGMA:
            if object == "writable_schema" && access.detail != nil { isUnbounded = true }
        case SQLITE_ALTER_TABLE, SQLITE_CREATE_VTABLE, SQLITE_DROP_VTABLE, SQLITE_ATTACH, SQLITE_DETACH:
            isUnbounded = true
        default:
            break  // reads of the schema, functions, transactions, creating and dropping indexes, views, triggers
        }
    }

    /// A statement is compiled and about to run: check the tables it touches that are not known
    /// sound yet.
    /// - Throws: `MigrationError` (code `notADatabase`) for a damaged table, again on every later
    ///   statement if the code catches it.
    func prepared(_ statement: SQLiteStatement, db: SQLiteConnection) throws {
        if let damage { throw damage }
        if !isWatching { return try checkText(statement.sql) }
        // A loop of raw statements compiles one per row: nothing here allocates unless it must.
        if !isUnbounded && Self.mayReplace(statement.sqlText) { isUnbounded = true }
        guard !pending.isEmpty else { return }
        var toCheck: [String] = []
        for name in pending where !sound.contains(name) {
            if let table = existing[name] { toCheck.append(table) }
        }
        pending.removeAll(keepingCapacity: true)
        lastPending = ""
        for table in toCheck.sorted() {
            do {
                try QuickCheck.verify(table: table, db: db)
            } catch let error as MigrationError {
                damage = error
                throw error
            }
            sound.insert(table.sqlFolded)
        }
    }

    /// A statement is about to run on a connection without an authorizer (a borrowed one, or a
    /// cluster's leader over the wire): its kind is told from its text, every table having been
    /// checked up front (``watchNothing(on:)``).
    /// - Throws: the refusal of a statement custom code may not run (``CustomCodeLimits``), again
    ///   on every later statement if the code catches it.
    package func checkText(_ sql: String) throws {
        if let damage { throw damage }
        if let error = CustomCodeLimits.refusal(CustomCodeLimits.kind(of: sql)) {
            refusal = refusal ?? error
            throw error
        }
    }

    /// True when SQL may resolve a conflict by deleting rows (`INSERT OR REPLACE`, `UPDATE OR
    /// REPLACE`, `REPLACE INTO`); the `replace()` function does not count.
    static func mayReplace(_ sql: String) -> Bool {
        var sql = sql
        return sql.withUTF8 {
            mayReplace(
                UnsafeBufferPointer(
                    start: UnsafeRawPointer($0.baseAddress)?.assumingMemoryBound(to: CChar.self), count: $0.count))
        }
    }

    /// The same on SQL text as SQLite holds it, without copying it unless it names `replace`.
    static func mayReplace(_ sql: UnsafeBufferPointer<CChar>) -> Bool {
        // "replace", any case, anywhere: rare, so most statements end here.
        var found = false
        if sql.count >= 7 {
            func lower(_ index: Int) -> UInt8 { UInt8(bitPattern: sql[index]) | 0x20 }
            // r, then e p l a c e
            for start in 0...(sql.count - 7) where lower(start) == 0x72 {
                if lower(start + 1) == 0x65, lower(start + 2) == 0x70, lower(start + 3) == 0x6C,
                    lower(start + 4) == 0x61, lower(start + 5) == 0x63, lower(start + 6) == 0x65
                {
                    found = true
                    break
                }
            }
        }
        guard found else { return false }
        let words = String(decoding: UnsafeRawBufferPointer(sql), as: UTF8.self).lowercased().split {
            !($0.isLetter || $0.isNumber || $0 == "_")
        }
        for (previous, word) in zip(words, words.dropFirst())
        where (previous == "or" && word == "replace") || (previous == "replace" && word == "into") {
            return true
        }
        return false
    }

    /// The tables whose references the code may have broken, or nil for every table.
    func foreignKeyScope(in live: LiveSchema) -> ForeignKeyGuard.Scope? {
        guard !isUnbounded else { return nil }
        var scope = ForeignKeyGuard.Scope(children: inserted, parents: deleted.union(writtenByTriggers))
        // A parent's key columns: its rowid and primary key, and any column a foreign key names.
        var keys: [String: Set<String>] = [:]
        for table in live.tables {
            let name = table.name.sqlFolded
            keys[name, default: []].formUnion(
                ["rowid", "oid", "_rowid_"]
                    + table.columns.filter { $0.primaryKeyPosition > 0 }.map { $0.name.sqlFolded })
            for key in table.foreignKeys {
                keys[key.table.sqlFolded, default: []].formUnion(key.to.compactMap { $0?.sqlFolded })
            }
        }
        let tables = Dictionary(live.tables.map { ($0.name.sqlFolded, $0) }, uniquingKeysWith: { first, _ in first })
        for (name, columns) in updated {
            let references = Set(tables[name]?.foreignKeys.flatMap { $0.from.map { $0.sqlFolded } } ?? [])
            if !columns.isDisjoint(with: references) { scope.children.insert(name) }
            if !columns.isDisjoint(with: keys[name] ?? ["rowid", "oid", "_rowid_"]) { scope.parents.insert(name) }
        }
        // A table declared with `ON CONFLICT REPLACE` deletes conflicting rows on any insert or update.
        for name in inserted.union(updated.keys) where tables[name].map({ Self.resolvesByReplacing($0.sql) }) == true {
            scope.parents.insert(name)
        }
        return scope
    }

    /// True when a `CREATE TABLE` statement declares `ON CONFLICT REPLACE` (on its key, a unique or
    /// a NOT NULL constraint), read as keywords: a column `replaced_at` or a default `'REPLACE'`
    /// does not count.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/lang_conflict.html>
    static func resolvesByReplacing(_ createTable: String) -> Bool {
        let tokenizer = SQLTokenizer(createTable)
        // A definition SQLite keeps always tokenizes; one that does not is taken to replace, which
        // only widens the foreign key check.
        guard let tokens = try? tokenizer.tokens() else { return true }
        return tokens.indices.dropLast(2).contains { index in
            tokenizer.isKeyword(tokens[index], "ON") && tokenizer.isKeyword(tokens[index + 1], "CONFLICT")
                && tokenizer.isKeyword(tokens[index + 2], "REPLACE")
        }
    }
}
