import DqliteClient
import Foundation
import SchemaMigrations

/// A dqlite node's DUMP as one local SQLite file: the database and its write-ahead log written
/// side by side, then the log folded into the file (`journal_mode=DELETE`), so the library's
/// read-only entry points, a backup and `sqlite3` all see one ordinary database.
enum ClusterSnapshot {
    /// Writes `dump` to `url` (replacing any file there) as a database without a write-ahead log.
    static func write(_ dump: DqliteDump, to url: URL) throws {
        let path = url.path
        for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        do {
            try Data(dump.database).write(to: url)
            if !dump.wal.isEmpty { try Data(dump.wal).write(to: URL(fileURLWithPath: path + "-wal")) }
            let db = try SQLiteConnection(path: path, mode: .readWrite)
            try db.execute("PRAGMA journal_mode=DELETE")
        } catch let error as SQLiteError {
            throw MigrationError(.notADatabase, "the cluster's DUMP could not be opened as a SQLite database at '\(path)'",
                                 remedy: "check that the name is a dqlite database of this cluster", sqliteError: error)
        } catch {
            throw MigrationError(.sqlite, "the cluster's DUMP could not be written to '\(path)': \(error)",
                                 remedy: "check the free space and permissions of the folder")
        }
    }

    /// Runs `body` with the leader's database as a temporary local file, removed afterwards.
    static func withLocalCopy<T>(of client: DqliteClient, _ body: (URL) throws -> T) throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("schemamigrations-cluster-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("\(client.database).sqlite")
        try write(try ClusterFailure.mapping { try client.dump() }, to: url)
        return try body(url)
    }
}
