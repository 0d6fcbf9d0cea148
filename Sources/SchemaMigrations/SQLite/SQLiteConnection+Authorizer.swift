import CSQLite
import Foundation

/// One access SQLite's authorizer reports while it compiles a statement: what the statement (or a
/// trigger it fires, or a view it reads) will do, known before the statement runs.
///
/// Related SQLite documentation: <https://www.sqlite.org/c3ref/set_authorizer.html>
struct SQLiteAccess: Sendable, Hashable {
    /// The action code, one of SQLite's `SQLITE_INSERT`, `SQLITE_READ`, ….
    var action: Int32
    /// The table (or index, view, pragma) the action is on.
    var object: String?
    /// The column for `SQLITE_READ` and `SQLITE_UPDATE`; the argument for `SQLITE_PRAGMA`.
    var detail: String?
    /// The database: `main`, `temp` or an attached name.
    var database: String?
    /// The innermost trigger or view the access comes from, or nil for the statement itself.
    var trigger: String?
}

/// What a connection calls while an observer is installed: `access` for every access of each
/// statement it compiles, then `prepared` once the statement is compiled and before it runs.
final class SQLiteAccessObserver {
    let access: (SQLiteAccess) -> Void
    let prepared: (SQLiteStatement) throws -> Void
    /// True while the observer's own `prepared` runs statements: they are not reported.
    fileprivate var isPaused = false

    init(access: @escaping (SQLiteAccess) -> Void, prepared: @escaping (SQLiteStatement) throws -> Void) {
        self.access = access
        self.prepared = prepared
    }
}

extension SQLiteConnection {
    /// Runs `body` with `observer` told about every statement the connection compiles meanwhile.
    /// Statements prepared before are not reported, even when they run during `body`. Nothing is
    /// ever denied: the authorizer only watches.
    func observingAccess<T>(_ observer: SQLiteAccessObserver, _ body: () throws -> T) throws -> T {
        let context = Unmanaged.passUnretained(observer).toOpaque()
        sqlite3_set_authorizer(handle, { context, action, object, detail, database, trigger in
            guard let context else { return SQLITE_OK }
            let observer = Unmanaged<SQLiteAccessObserver>.fromOpaque(context).takeUnretainedValue()
            guard !observer.isPaused else { return SQLITE_OK }
            observer.access(SQLiteAccess(action: action, object: object.map { String(cString: $0) }, detail: detail.map { String(cString: $0) },
                                         database: database.map { String(cString: $0) }, trigger: trigger.map { String(cString: $0) }))
            return SQLITE_OK
        }, context)
        accessObserver = observer
        defer {
            sqlite3_set_authorizer(handle, nil, nil)
            accessObserver = nil
        }
        return try withExtendedLifetime(observer) { try body() }
    }

    /// Tells the installed observer that `statement` is compiled, with its reports paused so that
    /// the observer may run statements of its own.
    func notifyPrepared(_ statement: SQLiteStatement) throws {
        guard let observer = accessObserver, !observer.isPaused else { return }
        observer.isPaused = true
        defer { observer.isPaused = false }
        try observer.prepared(statement)
    }
}
