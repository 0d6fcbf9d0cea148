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
    /// Writes the leader's database, DUMPed, to `url` as one ordinary database, without a
    /// write-ahead log: the log is folded into the file (`journal_mode=DELETE`, flushed to disk),
    /// so the library's read-only entry points, a backup and `sqlite3` all see one file. The
    /// bytes go to disk as they arrive (memory stays flat however large the database), beside
    /// `url`, and the file is renamed into place once whole: `url` holds the old file or the new
    /// one, never a part.
    /// - Throws: `DqliteError` when the DUMP fails on the wire; `MigrationError` otherwise.
    static func write(from client: DqliteClient, to url: URL) throws {
        let path = url.path
        let partial = path + ".partial-\(UInt32.random(in: 0...UInt32.max))"
        do {
            defer { removeFiles(at: partial) }
            try client.dump(writingTo: partial)
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
        } catch let error as DqliteError where error.code != .localFile {
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
            try ClusterFailure.mapping { try write(from: client, to: url) }
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

    /// Folds the write-ahead log into the file, which SQLite flushes to disk (synchronous=FULL).
    private static func fold(_ path: String) throws {
        let db = try SQLiteConnection(path: path, mode: .readWrite)
        try db.execute("PRAGMA journal_mode=DELETE")
    }

    private static func removeFiles(at path: String, suffixes: [String] = ["", "-wal", "-shm", "-journal"]) {
        for suffix in suffixes { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
}
