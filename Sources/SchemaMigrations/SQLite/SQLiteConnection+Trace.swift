import CSQLite

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Records the statements a connection runs, with their bound values written in, through
/// SQLite's `SQLITE_TRACE_STMT` hook: how a rehearsal learns exactly what a migration executes.
///
/// ```swift
/// let recorder = StatementRecorder()
/// db.startRecording(into: recorder)
/// defer { db.stopRecording() }
/// try db.execute("INSERT INTO t VALUES (1)")
/// recorder.entries   // [.statement("INSERT INTO t VALUES (1)", readOnly: false)]
/// ```
///
/// Sendable because every access goes through its lock: the trace callback and a migration's
/// progress callback append from the migrating thread, the owner reads after the run.
///
/// Related SQLite documentation: <https://www.sqlite.org/c3ref/trace_v2.html>
final class StatementRecorder: @unchecked Sendable {
    enum Entry: Sendable, Hashable {
        /// A statement as it ran, bound values written in as literals.
        case statement(String, readOnly: Bool)
        /// A note added by the recorder's owner (for example the step about to run).
        case note(String)
    }

    private let lock = Lock()
    private var recorded: [Entry] = []
    /// The values bound to each statement of the connection, to write them into its SQL:
    /// `sqlite3_expanded_sql` writes a double with 15 significant digits, which changes it.
    private var bindings: [OpaquePointer: [Int32: SQLiteValue]] = [:]
    func bind(_ value: SQLiteValue, at position: Int32, of statement: OpaquePointer) {
        lock.withLock { bindings[statement, default: [:]][position] = value }
    }

    func clearBindings(of statement: OpaquePointer) {
        lock.withLock { _ = bindings.removeValue(forKey: statement) }
    }

    func boundValues(of statement: OpaquePointer) -> [Int32: SQLiteValue] {
        lock.withLock { bindings[statement] ?? [:] }
    }

    /// Everything recorded so far, in order.
    var entries: [Entry] { lock.withLock { recorded } }

    func append(_ entry: Entry) {
        lock.withLock { recorded.append(entry) }
    }
}

extension SQLiteConnection {
    /// Starts recording every statement this connection runs (not those triggers run) into `recorder`,
    /// which must outlive the recording.
    func startRecording(into recorder: StatementRecorder) {
        self.recorder = recorder
        let context = Unmanaged.passUnretained(recorder).toOpaque()
        sqlite3_trace_v2(
            handle, UInt32(SQLITE_TRACE_STMT),
            { _, context, statement, text in
                guard let context, let statement, let text else { return 0 }
                let handle = OpaquePointer(statement)
                // A statement a trigger runs is traced with a comment ("-- TRIGGER name") in place of
                // the statement's own text; the statement itself, even one starting with a comment,
                // with its own text.
                guard UnsafeRawPointer(sqlite3_sql(handle)) == UnsafeRawPointer(text) else { return 0 }
                let recorder = Unmanaged<StatementRecorder>.fromOpaque(context).takeUnretainedValue()
                let unexpanded = String(cString: text.assumingMemoryBound(to: CChar.self))
                let sql =
                    sqlite3_bind_parameter_count(handle) == 0
                    ? unexpanded
                    : StatementRecorder.expand(unexpanded, values: recorder.boundValues(of: handle)) {
                        sqlite3_bind_parameter_index(handle, $0)
                    }
                recorder.append(.statement(sql, readOnly: sqlite3_stmt_readonly(handle) != 0))
                return 0
            }, context)
    }

    /// Stops recording.
    func stopRecording() {
        sqlite3_trace_v2(handle, 0, nil, nil)
        recorder = nil
    }
}
