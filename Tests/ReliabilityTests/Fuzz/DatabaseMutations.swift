import Foundation
import SchemaMigrations

/// Hostile database files, made from a valid V1 database of the fault fixture: damaged bytes,
/// files that are not databases, newer formats and versions, read-only files and directories,
/// and journals or WALs left behind.
struct DatabaseMutations {
    static let kinds = [
        "truncate", "zero pages", "flip bytes", "flip header bytes", "random bytes", "text file", "empty file",
        "newer file format", "newer schema format", "newer metadata version", "unknown metadata version",
        "changed metadata hash",
        "drift", "read-only file", "read-only directory", "directory", "garbage wal", "foreign wal",
        "committed wal left behind",
        "garbage journal",
    ]

    var random: SeededRandom
    /// A valid V1 database (rollback journal), and one in WAL mode.
    let pristine: URL
    let pristineWAL: URL

    /// Writes the mutated database as `url` (a file, a directory, with files beside it).
    /// - Returns: the kind of mutation.
    mutating func make(_ kind: String, at url: URL) throws {
        let fileManager = FileManager.default
        func copy(_ source: URL = pristine) throws { try fileManager.copyItem(at: source, to: url) }
        func rewrite(_ change: (inout [UInt8]) -> Void) throws {
            var bytes = [UInt8](try Data(contentsOf: pristine))
            change(&bytes)
            try Data(bytes).write(to: url)
        }
        func sql(_ statement: String) throws {
            try copy()
            try SQLiteConnection(path: url.path).execute(statement)
        }
        let pageSize = 4096
        switch kind {
        case "truncate":
            let aligned = random.chance(0.5)
            try rewrite { bytes in
                let length = Int.random(in: 0..<bytes.count, using: &random)
                bytes = Array(bytes.prefix(aligned ? length / pageSize * pageSize : length))
            }
        case "zero pages":
            try rewrite { bytes in
                for _ in 0..<Int.random(in: 1...3, using: &random) {
                    let page = Int.random(in: 0..<(bytes.count / pageSize), using: &random)
                    for i in page * pageSize..<min(bytes.count, (page + 1) * pageSize) { bytes[i] = 0 }
                }
            }
        case "flip bytes", "flip header bytes":
            try rewrite { bytes in
                let limit = kind == "flip header bytes" ? 100 : bytes.count
                for _ in 0..<Int.random(in: 1...20, using: &random) {
                    bytes[Int.random(in: 0..<limit, using: &random)] ^= UInt8.random(in: 1...255, using: &random)
                }
            }
        case "random bytes":
            try Data(
                (0..<Int.random(in: 1...20_000, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            ).write(to: url)
        case "text file": try Data("this is not a database\n".utf8).write(to: url)
        case "empty file": try Data().write(to: url)
        case "newer file format":
            try rewrite {
                $0[18] = 3
                $0[19] = 3
            }  // read and write versions after WAL's 2
        case "newer schema format": try rewrite { $0[44] = 5 }  // SQLite knows schema formats 1 to 4
        case "newer metadata version": try sql(#"UPDATE "_schema_migrations" SET "version" = '99.0.0'"#)
        case "unknown metadata version":
            try sql(
                #"UPDATE "_schema_migrations" SET "version" = '\#(random.chance(0.5) ? "1.5.0" : "not a version")'"#)
        case "changed metadata hash": try sql(#"UPDATE "_schema_migrations" SET "hash" = 'deadbeef'"#)
        case "drift": try sql("ALTER TABLE Item ADD COLUMN extra TEXT")
        case "read-only file":
            try copy()
            try fileManager.setAttributes([.posixPermissions: 0o444], ofItemAtPath: url.path)
            if geteuid() == 0 { _ = try? Shell.run("/usr/bin/chattr", ["+i", url.path]) }  // root ignores permissions
        case "read-only directory":
            try copy()
            let directory = url.deletingLastPathComponent().path
            try fileManager.setAttributes([.posixPermissions: 0o555], ofItemAtPath: directory)
            if geteuid() == 0 { _ = try? Shell.run("/usr/bin/chattr", ["+i", directory]) }
        case "directory": try fileManager.createDirectory(at: url, withIntermediateDirectories: false)
        case "garbage wal":
            try copy(pristineWAL)
            try Data(
                (0..<Int.random(in: 32...9000, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            ).write(to: URL(fileURLWithPath: url.path + "-wal"))
        case "foreign wal", "committed wal left behind":
            // A WAL holding a committed transaction that no checkpoint has copied into the file:
            // of this database (SQLite must replay it), or of another one (SQLite must ignore it).
            let other = url.deletingLastPathComponent().appendingPathComponent("other.sqlite")
            try fileManager.copyItem(at: pristineWAL, to: other)
            let db = try SQLiteConnection(path: other.path)
            try db.execute("PRAGMA wal_autocheckpoint = 0; INSERT INTO Item (name, price) VALUES ('from the wal', 1)")
            if kind == "foreign wal" { try db.execute("DELETE FROM Note; VACUUM") }
            try fileManager.copyItem(
                at: URL(fileURLWithPath: other.path + "-wal"), to: URL(fileURLWithPath: url.path + "-wal"))
            try fileManager.copyItem(at: kind == "foreign wal" ? pristineWAL : other, to: url)
            _ = db
        case "garbage journal":
            try copy()
            try Data(
                (0..<Int.random(in: 28...9000, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            ).write(to: URL(fileURLWithPath: url.path + "-journal"))
        default:
            fatalError("unknown mutation \(kind)")
        }
    }
}
