import DqliteClient
import SchemaMigrations

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

/// A dqlite node's DUMP as local SQLite files: the database and its write-ahead log, as the node
/// holds them, which SQLite reads as one database.
enum ClusterSnapshot {
    /// Writes `dump` to `url` as one ordinary database, without a write-ahead log: the log is
    /// folded into the file (`journal_mode=DELETE`, flushed to disk), so the library's read-only
    /// entry points, a backup and `sqlite3` all see one file. The file is written beside `url`
    /// and renamed into place once whole: `url` holds the old file or the new one, never a part.
    static func write(_ dump: DqliteDump, to url: URL) throws {
        let path = url.path
        let partial = path + ".partial-\(UInt32.random(in: 0...UInt32.max))"
        do {
            defer { removeFiles(at: partial) }
            try writeFiles(dump, at: partial)
            try fold(partial)
            // a stale log must not be read with the new file
            removeFiles(at: path, suffixes: ["-wal", "-shm", "-journal"])
            guard rename(partial, path) == 0 else { throw CocoaError(.fileWriteUnknown) }
        } catch let error as SQLiteError {
            throw MigrationError(
                .notADatabase, "the cluster's DUMP could not be opened as a SQLite database at '\(path)'",
                remedy: "check that the name is a dqlite database of this cluster", sqliteError: error)
        } catch let error as MigrationError {
            throw error
        } catch {
            throw MigrationError(
                .sqlite, "the cluster's DUMP could not be written to '\(path)': \(error)",
                remedy: "check the free space and permissions of the folder")
        }
    }

    /// Runs `body` with the leader's database, DUMPed, as a temporary local file (an ordinary
    /// database, its log folded in), removed afterwards.
    static func withLocalCopy<T>(of client: DqliteClient, _ body: (URL) throws -> T) throws -> T {
        try withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("\(client.database).sqlite")
            try write(try ClusterFailure.mapping { try client.dump() }, to: url)  // the bytes are let go once written
            return try body(url)
        }
    }

    /// Runs `body` with a new temporary directory, removed afterwards.
    static func withTemporaryDirectory<T>(_ body: (URL) throws -> T) throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "schemamigrations-cluster-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        return try body(directory)
    }

    // MARK: - Private

    private static func writeFiles(_ dump: DqliteDump, at path: String) throws {
        removeFiles(at: path)
        try Data(dump.database).write(to: URL(fileURLWithPath: path))
        if !dump.wal.isEmpty { try Data(dump.wal).write(to: URL(fileURLWithPath: path + "-wal")) }
    }

    /// Folds the write-ahead log into the file, which SQLite flushes to disk (synchronous=FULL).
    private static func fold(_ path: String) throws {
        let db = try SQLiteConnection(path: path, mode: .readWrite)
        try db.execute("PRAGMA journal_mode=DELETE")
    }

    private static func removeFiles(at path: String, suffixes: [String] = ["", "-wal", "-shm", "-journal"]) {
        for suffix in suffixes { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
}
