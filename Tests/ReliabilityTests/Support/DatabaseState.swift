import Foundation
import SchemaMigrations

/// What a database file holds, read through a fresh connection with the default VFS (which also
/// rolls back a hot journal or recovers a WAL left by a killed process).
struct DatabaseState: Equatable, CustomStringConvertible {
    /// `PRAGMA integrity_check`'s answer: `ok` when the file is sound.
    var integrity: String
    /// The version the plan's newest metadata row records, nil when there is none.
    var version: String?
    /// A checksum of every user table: names, columns, and rows in rowid order (metadata excluded).
    var checksum: UInt64
    /// The number of rows in all user tables.
    var rows: Int

    var description: String {
        "version \(version ?? "none"), \(rows) rows, checksum \(String(checksum, radix: 16)), integrity \(integrity)"
    }

    /// Reads the state of the database at `url` for the plan named `plan`.
    static func read(_ url: URL, plan: String) throws -> DatabaseState {
        let db = try SQLiteConnection(path: url.path, mode: .readWrite, busyTimeout: 5)
        // integrity_check itself fails on some damage that leaves every row readable.
        let integrity =
            (try? db.rows("PRAGMA integrity_check").map { $0.first?.description ?? "" }.joined(separator: "; "))
            ?? "integrity_check failed"
        var version: String?
        if try db.scalar("SELECT count(*) FROM sqlite_schema WHERE name = '_schema_migrations'")?.int64Value == 1 {
            version = try db.scalar(
                #"SELECT "version" FROM "_schema_migrations" WHERE "plan" = ? ORDER BY "seq" DESC LIMIT 1"#,
                [.text(plan)])?.stringValue
        }
        var hasher = FNV1a()
        var rows = 0
        let tables = try db.rows(
            "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> '_schema_migrations' ORDER BY name"
        )
        .compactMap { $0[0].stringValue }
        for table in tables {
            let columns = try db.rows(
                "SELECT name, type, \"notnull\", dflt_value FROM pragma_table_info(?) ORDER BY cid", [.text(table)])
            hasher.add(
                "table \(table)(" + columns.map { $0.map(\.description).joined(separator: " ") }.joined(separator: ", ")
                    + ")\n")
            let quoted = columns.map { "quote(\(SQL.quoteIdentifier($0[0].stringValue ?? "")))" }.joined(
                separator: " || '|' || ")
            let withoutRowID =
                try db.scalar("SELECT wr FROM pragma_table_list WHERE schema = 'main' AND name = ?", [.text(table)])
                == .integer(1)
            let statement = try db.prepare(
                "SELECT \(quoted) FROM \(SQL.quoteIdentifier(table))" + (withoutRowID ? "" : " ORDER BY rowid"))
            while try statement.step() {
                hasher.add(statement.column(0).stringValue ?? "")
                hasher.add("\n")
                rows += 1
            }
        }
        return DatabaseState(integrity: integrity, version: version, checksum: hasher.value, rows: rows)
    }
}

/// 64-bit FNV-1a: a checksum fast enough to hash every row of a 50,000-row database after each kill.
struct FNV1a {
    private(set) var value: UInt64 = 0xCBF2_9CE4_8422_2325

    mutating func add(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var hash = value
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
            value = hash
        }
    }
}

extension URL {
    /// The file's bytes and those of the files beside it (`-wal`, `-journal`), to prove nothing was written.
    func databaseBytes() -> [String: Data] {
        var result: [String: Data] = [:]
        for suffix in ["", "-wal", "-journal"] {
            if let data = FileManager.default.contents(atPath: path + suffix) { result[suffix] = data }
        }
        return result
    }
}
