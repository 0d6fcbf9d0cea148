import CSQLite
import DqliteClient
import Foundation

/// The logical content of a node's DUMP: opens the database file and its write-ahead log with
/// the system SQLite (in a temporary directory) and renders the schema and every row as text.
///
/// Nodes write their WAL frames at different moments, so two replicas with the same data can
/// hold different bytes; their content is what must agree.
public enum DumpContent {
    public static func render(_ dump: DqliteDump, excluding excluded: Set<String> = []) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "dqlite-dump-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("db").path
        try Data(dump.database).write(to: URL(fileURLWithPath: path))
        if !dump.wal.isEmpty { try Data(dump.wal).write(to: URL(fileURLWithPath: path + "-wal")) }
        return try render(fileAt: path, excluding: excluded)
    }

    /// The same rendering of a local database file; the tables in `excluded` (a metadata table
    /// whose times differ from run to run) are left out, their schema rows too.
    public static func render(fileAt path: String, excluding excluded: Set<String> = []) throws -> String {
        var handle: OpaquePointer?
        guard sqlite3_open(path, &handle) == SQLITE_OK, let db = handle else {
            throw ClusterError("cannot open the dump")
        }
        defer { sqlite3_close(db) }
        let skip = excluded.map { "'\($0)'" }.joined(separator: ", ")
        var lines = try rows(
            db,
            "SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE tbl_name NOT IN (\(skip)) ORDER BY type, name")
        func tables(withoutRowID: Bool) throws -> Set<String> {
            Set(
                try rows(
                    db,
                    "SELECT name FROM pragma_table_list WHERE schema = 'main' AND type <> 'view' AND wr = \(withoutRowID ? 1 : 0) AND name NOT LIKE 'sqlite_%' AND name NOT IN (\(skip))"
                ).map { String($0.dropFirst(1).dropLast(1)) })  // '|name|' → name
        }
        // A WITHOUT ROWID table (an FTS5 table's shadow tables) reads in key order, with no rowid.
        let keyed = try tables(withoutRowID: true)
        for name in try tables(withoutRowID: false).union(keyed).sorted() {
            lines.append("-- \(name)")
            lines += try rows(db, "SELECT * FROM \"\(name)\"" + (keyed.contains(name) ? "" : " ORDER BY rowid"))
        }
        return lines.joined(separator: "\n")
    }

    /// Each row as `|value|value|`, values typed (`i:1`, `r:1.5`, `t:'x'`, `b:ff`, `NULL`), except
    /// one-column text rows which are rendered `|text|`.
    private static func rows(_ db: OpaquePointer, _ sql: String) throws -> [String] {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK else {
            throw ClusterError("dump: \(String(cString: sqlite3_errmsg(db)))")
        }
        defer { sqlite3_finalize(statement) }
        var lines: [String] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            let count = sqlite3_column_count(statement)
            var line = "|"
            for column in 0..<count {
                switch sqlite3_column_type(statement, column) {
                case SQLITE_INTEGER: line += "i:\(sqlite3_column_int64(statement, column))|"
                case SQLITE_FLOAT: line += "r:\(sqlite3_column_double(statement, column))|"
                case SQLITE_TEXT:
                    line +=
                        count == 1
                        ? "\(String(cString: sqlite3_column_text(statement, column)))|"
                        : "t:'\(String(cString: sqlite3_column_text(statement, column)))'|"
                case SQLITE_BLOB:
                    let bytes = UnsafeRawBufferPointer(
                        start: sqlite3_column_blob(statement, column),
                        count: Int(sqlite3_column_bytes(statement, column)))
                    line += "b:" + bytes.map { String(format: "%02x", $0) }.joined() + "|"
                default: line += "NULL|"
                }
            }
            lines.append(line)
        }
        return lines
    }
}

extension DqliteCluster {
    /// Every node's content of `database`, once all nodes agree (followers apply a commit a
    /// moment after the leader answers it); after `timeout`, whatever each node holds.
    public func contents(of database: String, timeout: TimeInterval = 10) throws -> [String] {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let contents = try addresses.map { try DumpContent.render(DqliteClient.dump(database, at: $0)) }
            if Set(contents).count == 1 || Date() > deadline { return contents }
            usleep(100_000)
        }
    }
}
