import CSQLite
import Foundation

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
final class CodeFootprint {
    private(set) var inserted: Set<String> = []
    /// Tables rows were deleted from, or that were dropped.
    private(set) var deleted: Set<String> = []
    /// Updated columns by table.
    private(set) var updated: [String: Set<String>] = [:]
    /// Tables written by a trigger, whose `OR REPLACE` the statement's text does not show.
    private(set) var writtenByTriggers: Set<String> = []
    /// True once the code did something whose effect on references cannot be bounded.
    private(set) var isUnbounded = false
    /// A damaged table found while the code ran, thrown again if the code caught it.
    private(set) var damage: MigrationError?

    /// Tables known sound (checked, or written by this migration), lowercased.
    private var sound: Set<String>
    /// Tables that existed before the stage, lowercased to their names: the ones to check.
    private let existing: [String: String]
    /// Tables the statement being compiled touches, lowercased.
    private var pending: Set<String> = []

    /// - Parameters:
    ///   - existing: the database's tables before the code runs.
    ///   - sound: tables already checked before the stage.
    init(existing: [String], sound: Set<String>) {
        self.existing = Dictionary(existing.map { ($0.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
        self.sound = Set(sound.map { $0.lowercased() })
    }

    /// False once ``watchNothing(on:)`` made the checks cover everything instead.
    private(set) var isWatching = true

    /// For a connection whose authorizer is not ours to replace: checks every table now, before
    /// the code runs, and widens the foreign key check to every table.
    func watchNothing(on db: SQLiteConnection) throws {
        guard isWatching else { return }
        isWatching = false
        isUnbounded = true
        for table in existing.values.sorted() where !sound.contains(table.lowercased()) && !Schema.isReservedTableName(table) {
            try QuickCheck.verify(table: table, db: db)
            sound.insert(table.lowercased())
        }
    }

    /// Marks tables this migration wrote itself (a rebuild's new table) as sound.
    func markSound(_ tables: [String]) {
        sound.formUnion(tables.map { $0.lowercased() })
    }

    /// The observer to install on the connection while the code runs.
    func observer(on db: SQLiteConnection) -> SQLiteAccessObserver {
        SQLiteAccessObserver(access: { [unowned self] in record($0) }, prepared: { [unowned self] in try prepared($0, db: db) })
    }

    func record(_ access: SQLiteAccess) {
        guard let object = access.object?.lowercased() else { return }
        let database = access.database ?? "main"
        switch access.action {
        case SQLITE_READ, SQLITE_INSERT, SQLITE_UPDATE, SQLITE_DELETE, SQLITE_DROP_TABLE:
            if database == "temp" { return }
            guard database == "main" else {
                if access.action != SQLITE_READ { isUnbounded = true }
                return
            }
            if !Schema.isReservedTableName(object) { pending.insert(object) }
            switch access.action {
            case SQLITE_INSERT: inserted.insert(object)
            case SQLITE_DELETE, SQLITE_DROP_TABLE: deleted.insert(object)
            case SQLITE_UPDATE: updated[object, default: []].insert(access.detail?.lowercased() ?? "rowid")
            default: break
            }
            if access.trigger != nil && (access.action == SQLITE_INSERT || access.action == SQLITE_UPDATE) {
                writtenByTriggers.insert(object)
            }
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
        if Self.mayReplace(statement.sql) { isUnbounded = true }
        let toCheck = pending.subtracting(sound).compactMap { existing[$0] }.sorted()
        pending.removeAll(keepingCapacity: true)
        for table in toCheck {
            do {
                try QuickCheck.verify(table: table, db: db)
            } catch let error as MigrationError {
                damage = error
                throw error
            }
            sound.insert(table.lowercased())
        }
    }

    /// True when SQL may resolve a conflict by deleting rows (`INSERT OR REPLACE`, `UPDATE OR
    /// REPLACE`, `REPLACE INTO`); the `replace()` function does not count.
    static func mayReplace(_ sql: String) -> Bool {
        guard sql.range(of: "replace", options: .caseInsensitive) != nil else { return false }
        let words = sql.lowercased().split { !($0.isLetter || $0.isNumber || $0 == "_") }
        for (previous, word) in zip(words, words.dropFirst()) where (previous == "or" && word == "replace") || (previous == "replace" && word == "into") {
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
            let name = table.name.lowercased()
            keys[name, default: []].formUnion(["rowid", "oid", "_rowid_"] + table.columns.filter { $0.primaryKeyPosition > 0 }.map { $0.name.lowercased() })
            for key in table.foreignKeys {
                keys[key.table.lowercased(), default: []].formUnion(key.to.compactMap { $0?.lowercased() })
            }
        }
        let tables = Dictionary(live.tables.map { ($0.name.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
        for (name, columns) in updated {
            let references = Set(tables[name]?.foreignKeys.flatMap { $0.from.map { $0.lowercased() } } ?? [])
            if !columns.isDisjoint(with: references) { scope.children.insert(name) }
            if !columns.isDisjoint(with: keys[name] ?? ["rowid", "oid", "_rowid_"]) { scope.parents.insert(name) }
        }
        // A table declared with `ON CONFLICT REPLACE` deletes conflicting rows on any insert or update.
        for name in inserted.union(updated.keys) where tables[name]?.sql.range(of: "replace", options: .caseInsensitive) != nil {
            scope.parents.insert(name)
        }
        return scope
    }
}
