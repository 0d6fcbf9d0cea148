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
        sqlite3_trace_v2(handle, UInt32(SQLITE_TRACE_STMT), { _, context, statement, text in
            guard let context, let statement, let text else { return 0 }
            let handle = OpaquePointer(statement)
            // A statement a trigger runs is traced with a comment ("-- TRIGGER name") in place of
            // the statement's own text; the statement itself, even one starting with a comment,
            // with its own text.
            guard UnsafeRawPointer(sqlite3_sql(handle)) == UnsafeRawPointer(text) else { return 0 }
            let recorder = Unmanaged<StatementRecorder>.fromOpaque(context).takeUnretainedValue()
            let unexpanded = String(cString: text.assumingMemoryBound(to: CChar.self))
            let sql = sqlite3_bind_parameter_count(handle) == 0 ? unexpanded
                : StatementRecorder.expand(unexpanded, values: recorder.boundValues(of: handle)) { sqlite3_bind_parameter_index(handle, $0) }
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

extension StatementRecorder {
    /// `sql` with each parameter (`?`, `?NNN`, `:name`, `@name`, `$name`) replaced by the literal
    /// of its bound value (NULL when unbound), numbered as SQLite numbers them. Doubles keep every
    /// digit (`0.30000000000000004`), text and blobs are quoted; what is inside string literals,
    /// quoted identifiers and comments is left alone.
    static func expand(_ sql: String, values: [Int32: SQLiteValue], index: (String) -> Int32) -> String {
        let bytes = Array(sql.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 16)
        var i = 0, largest: Int32 = 0
        func isNameByte(_ byte: UInt8) -> Bool {
            byte >= 0x80 || byte == 0x5F || byte == 0x24 || (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
        }
        func copy(until end: Int) {
            out.append(contentsOf: bytes[i..<min(end, bytes.count)])
            i = min(end, bytes.count)
        }
        func write(_ position: Int32) {
            largest = max(largest, position)
            let value = values[position] ?? .null
            if case .real(let number) = value {
                out.append(contentsOf: SQLiteValue.exactLiteral(for: number).utf8)
            } else if case .text(let text) = value, text.utf8.contains(0) {
                // SQL text ends at a NUL: write the text's bytes as a blob cast back to text.
                out.append(contentsOf: ("CAST(" + SQLiteValue.blob(Array(text.utf8)).sqlLiteral + " AS TEXT)").utf8)
            } else {
                out.append(contentsOf: value.sqlLiteral.utf8)
            }
        }
        while i < bytes.count {
            let byte = bytes[i]
            switch byte {
            case UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "`"), UInt8(ascii: "["):
                let close = byte == UInt8(ascii: "[") ? UInt8(ascii: "]") : byte
                var end = i + 1
                while end < bytes.count && bytes[end] != close { end += 1 }
                copy(until: end + 1)  // a doubled quote is two literals back to back: copied alike
            case UInt8(ascii: "-") where i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "-"):
                var end = i
                while end < bytes.count && bytes[end] != UInt8(ascii: "\n") { end += 1 }
                copy(until: end)
            case UInt8(ascii: "/") where i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "*"):
                var end = i + 2
                while end + 1 < bytes.count && !(bytes[end] == UInt8(ascii: "*") && bytes[end + 1] == UInt8(ascii: "/")) { end += 1 }
                copy(until: end + 2)
            case UInt8(ascii: "?"):
                var end = i + 1
                while end < bytes.count && (0x30...0x39).contains(bytes[end]) { end += 1 }
                let position = end > i + 1 ? Int32(String(decoding: bytes[(i + 1)..<end], as: UTF8.self)) ?? 0 : largest + 1
                i = end
                write(position)
            case UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "$"):
                var end = i + 1
                while end < bytes.count && isNameByte(bytes[end]) { end += 1 }
                guard end > i + 1 else { copy(until: i + 1); continue }
                let position = index(String(decoding: bytes[i..<end], as: UTF8.self))
                i = end
                write(position)
            default:
                var end = i + 1
                while end < bytes.count && !"'\"`[-/?:@$".utf8.contains(bytes[end]) { end += 1 }
                copy(until: end)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
