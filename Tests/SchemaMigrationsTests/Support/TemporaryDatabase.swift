import Foundation

@testable import SchemaMigrations

/// A database file in a fresh temporary directory, removed when the test ends.
final class TemporaryDatabase {
    let directory: URL
    let url: URL

    init(_ name: String = "test.sqlite") {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "schemamigrations-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        url = directory.appendingPathComponent(name)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    var path: String { url.path }

    /// Opens a new connection to the file.
    func connect() throws -> SQLiteConnection {
        try SQLiteConnection(path: path, mode: .readWriteCreate)
    }

    /// Runs SQL on a short-lived connection.
    func execute(_ sql: String) throws {
        try connect().execute(sql)
    }

    /// All rows of a query, values rendered as SQL literals so NULL, '' and 1 vs 1.0 differ.
    func rows(_ sql: String) throws -> [[String]] {
        try connect().rows(sql).map { $0.map(\.sqlLiteral) }
    }

    func scalar(_ sql: String) throws -> SQLiteValue? {
        try connect().scalar(sql)
    }

    /// The file's bytes, to prove a failure path wrote nothing.
    func bytes() throws -> Data { try Data(contentsOf: url) }

    func modificationDate() throws -> Date {
        try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as! Date
    }

    /// Column name → (declared type, NOT NULL, default) as SQLite reports them.
    func columns(_ table: String) throws -> [String: String] {
        var result: [String: String] = [:]
        for row in try connect().rows(
            "SELECT name, type, \"notnull\", dflt_value FROM pragma_table_info(?)", [.text(table)])
        {
            result[row[0].stringValue!] =
                "\(row[1].stringValue!)\(row[2].int64Value == 1 ? " NOT NULL" : "")\(row[3].stringValue.map { " DEFAULT \($0)" } ?? "")"
        }
        return result
    }

    /// The indexes of a table as "UNIQUE? (columns)".
    func indexes(_ table: String) throws -> Set<String> {
        let live = try LiveSchema.read(from: connect(), onlyTables: [table])
        return Set(live.table(named: table)?.indexes.map(\.structure.description) ?? [])
    }

    /// The version recorded in the metadata for a plan.
    func recordedVersion(plan: String = "default") throws -> String? {
        try MetadataStore(db: connect(), plan: plan).current()?.version.description
    }
}

/// A scratch folder for a package build that outlives the test process, named by a stable hash
/// of `path` and of the names of the Swift files under its `Sources` (`hashValue` changes with
/// every process): a second run builds incrementally in the same folder instead of starting cold
/// in a new one, and a file added or removed gets a new folder (SwiftPM was seen building a path
/// dependency from its old file list once, missing a new file).
func stableScratchDirectory(_ prefix: String, for path: String) -> URL {
    let sources = URL(fileURLWithPath: path).appendingPathComponent("Sources")
    let files = (FileManager.default.enumerator(atPath: sources.path)?.allObjects as? [String] ?? []).filter {
        $0.hasSuffix(".swift")
    }.sorted()
    let key = ([path] + files).joined(separator: "\n")
    let hash = key.utf8.reduce(UInt64(5381)) { ($0 &* 33) &+ UInt64($1) } % 1_000_000
    return FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(hash)")
}
