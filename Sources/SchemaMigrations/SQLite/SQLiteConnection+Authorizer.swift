import CSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One access SQLite's authorizer reports while it compiles a statement: what the statement (or a
/// trigger it fires, or a view it reads) will do, known before the statement runs.
///
/// Related SQLite documentation: <https://www.sqlite.org/c3ref/set_authorizer.html>
struct SQLiteAccess: Sendable, Hashable {
    /// The action code, one of SQLite's `SQLITE_INSERT`, `SQLITE_READ`, ….
    var action: Int32
    /// The table (or index, view, pragma) the action is on.
    var object: String?
    /// The column for `SQLITE_UPDATE`; the argument for `SQLITE_PRAGMA`; nil for other actions
    /// (not read from SQLite: a statement reports a read per column, and most are not needed).
    var detail: String?
    /// The database: `main`, `temp` or an attached name.
    var database: String
    /// True when the access comes from a trigger or view rather than the statement itself.
    var isFromTriggerOrView: Bool
}

/// What a connection calls while an observer is installed: `access` for every access of each
/// statement it compiles, then `prepared` once the statement is compiled and before it runs.
package final class SQLiteAccessObserver {
    let access: (SQLiteAccess) -> Void
    let prepared: (SQLiteStatement) throws -> Void
    /// The error for an access to deny (the statement is not compiled), or nil to allow it.
    let refuse: ((SQLiteAccess) -> Error?)?
    /// Why the statement being compiled was denied: thrown in place of SQLite's "not authorized".
    var denial: Error?
    /// True while the observer's own `prepared` runs statements: they are not reported.
    fileprivate var isPaused = false
    /// The last object name reported, as SQLite gave it and as a String: a statement reports the
    /// same table once per column it reads, so most reports need no new String.
    fileprivate var lastObjectBytes: [CChar] = [0]
    fileprivate var lastObject = ""

    fileprivate func objectName(_ object: UnsafePointer<CChar>) -> String {
        if strcmp(object, lastObjectBytes) == 0 { return lastObject }
        let length = strlen(object)
        lastObjectBytes = Array(UnsafeBufferPointer(start: object, count: length + 1))
        lastObject = String(cString: object)
        return lastObject
    }

    init(
        access: @escaping (SQLiteAccess) -> Void, prepared: @escaping (SQLiteStatement) throws -> Void,
        refuse: ((SQLiteAccess) -> Error?)? = nil
    ) {
        self.access = access
        self.prepared = prepared
        self.refuse = refuse
    }
}

extension SQLiteConnection {
    /// Runs `body` with `observer` told about every statement the connection compiles meanwhile.
    /// Statements prepared before are not reported, even when they run during `body`. A statement
    /// is denied only when the observer's `refuse` gives an error for one of its accesses; compiling
    /// it then throws that error.
    func observingAccess<T>(_ observer: SQLiteAccessObserver, _ body: () throws -> T) throws -> T {
        let context = Unmanaged.passUnretained(observer).toOpaque()
        sqlite3_set_authorizer(
            handle,
            { context, action, object, detail, database, trigger in
                guard let context else { return SQLITE_OK }
                let observer = Unmanaged<SQLiteAccessObserver>.fromOpaque(context).takeUnretainedValue()
                guard !observer.isPaused else { return SQLITE_OK }
                let wantsDetail = action == SQLITE_UPDATE || action == SQLITE_PRAGMA || action == SQLITE_SAVEPOINT
                let isMain = database.map { strcmp($0, "main") == 0 } ?? true
                let access = SQLiteAccess(
                    action: action, object: object.map(observer.objectName),
                    detail: wantsDetail ? detail.map { String(cString: $0) } : nil,
                    database: isMain ? "main" : database.map { String(cString: $0) } ?? "main",
                    isFromTriggerOrView: trigger != nil)
                if let refuse = observer.refuse, let error = refuse(access) {
                    observer.denial = error
                    return SQLITE_DENY
                }
                observer.access(access)
                return SQLITE_OK
            }, context)
        accessObserver = observer
        defer {
            sqlite3_set_authorizer(handle, nil, nil)
            accessObserver = nil
        }
        return try withExtendedLifetime(observer) { try body() }
    }

    /// Runs `body` with `observer` told about every statement the connection compiles meanwhile,
    /// without SQLite's authorizer (for a borrowed connection, whose authorizer is its owner's):
    /// only `prepared` is called, before each statement runs.
    func observingStatements<T>(_ observer: SQLiteAccessObserver, _ body: () throws -> T) throws -> T {
        accessObserver = observer
        defer { accessObserver = nil }
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
