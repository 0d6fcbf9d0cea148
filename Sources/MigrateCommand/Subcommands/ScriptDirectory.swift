import SchemaMigrations

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Where `plan --format sql` writes its scripts: standard output for one database, or one file
/// per database in `--output DIR` (`DIR/app.sqlite.sql`; two databases of the same name get
/// `app.sqlite-2.sql`), since scripts for several databases cannot share one stream.
final class ScriptDirectory: @unchecked Sendable {
    // Sendable: names are claimed under the lock; the workers of a fleet write in parallel.
    private let directory: URL?
    private let lock = Lock()
    private var claimed = Set<String>()

    /// - Throws: ``UsageError`` when a fleet asks for sql without `--output`, or `--output` is
    ///   given with another format.
    init(arguments: ParsedArguments, format: String, databaseCount: Int) throws {
        let output = arguments.value("--output")
        if output != nil && format != "sql" {
            throw UsageError(
                "\(arguments.label("--output")) is for --format sql", subcommand: arguments.subcommand,
                remedy: "add --format sql, or drop --output")
        }
        if format == "sql" && databaseCount > 1 && output == nil {
            throw UsageError(
                "--format sql with \(databaseCount) databases needs --output DIR: one script per database",
                subcommand: arguments.subcommand, remedy: "add --output DIR, or plan one database at a time")
        }
        if let output, SystemCalls.fileKind(atPath: output) == .other {
            throw UsageError(
                "\(arguments.label("--output")) \(output): a file is there, not a directory",
                subcommand: arguments.subcommand,
                remedy: "give a directory (created if needed): one script per database is written into it")
        }
        directory = output.map { URL(fileURLWithPath: $0) }
        if let directory { try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true) }
    }

    /// Writes `script` for `database` into the directory; nil (nothing written) without one.
    func write(_ script: String, for database: URL) throws -> URL? {
        guard let directory else { return nil }
        let url = lock.withLock {
            var name = database.lastPathComponent + ".sql"
            var counter = 2
            while claimed.contains(name) {  // a file from an earlier run is overwritten: the scripts are for now
                name = database.lastPathComponent + "-\(counter).sql"
                counter += 1
            }
            claimed.insert(name)
            return directory.appendingPathComponent(name)
        }
        try script.write(to: url, atomically: true, encoding: .utf8)
        return url
    }
}
