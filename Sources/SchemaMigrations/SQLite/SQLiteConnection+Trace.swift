import CSQLite
import Foundation

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

    private let lock = NSLock()
    private var recorded: [Entry] = []

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
        let context = Unmanaged.passUnretained(recorder).toOpaque()
        sqlite3_trace_v2(handle, UInt32(SQLITE_TRACE_STMT), { _, context, statement, text in
            guard let context, let statement else { return 0 }
            let unexpanded = text.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? ""
            if unexpanded.hasPrefix("--") { return 0 }  // a statement inside a trigger
            let handle = OpaquePointer(statement)
            var sql = unexpanded
            if let expanded = sqlite3_expanded_sql(handle) {
                sql = String(cString: expanded)
                sqlite3_free(expanded)
            }
            let recorder = Unmanaged<StatementRecorder>.fromOpaque(context).takeUnretainedValue()
            recorder.append(.statement(sql, readOnly: sqlite3_stmt_readonly(handle) != 0))
            return 0
        }, context)
    }

    /// Stops recording.
    func stopRecording() {
        sqlite3_trace_v2(handle, 0, nil, nil)
    }
}
