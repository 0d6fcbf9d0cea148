import Foundation
import SchemaMigrations

/// Lines on standard output, written at once (no buffer), so a test that kills the driver still
/// reads everything it printed.
enum DriverOutput {
    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }
}

/// The driver's subcommands.
enum DriverCommands {
    /// `populate --database PATH --rows N [--journal wal|delete]`: a fresh V1 database with N items
    /// and one note for every fifth item, the same rows for the same N.
    static func populate(_ options: DriverOptions) throws {
        let url = URL(fileURLWithPath: try options.require("--database"))
        let rows = Int(options["--rows"] ?? "") ?? 50_000
        var migratorOptions = MigrationOptions(targetVersion: Schema.Version(1, 0, 0))
        migratorOptions.busyTimeout = 5
        try Migrator(plan: ReliabilityPlan.self, options: migratorOptions).migrate(databaseAt: url)
        let db = try SQLiteConnection(path: url.path, mode: .readWrite)
        if let journal = options["--journal"] { try db.execute("PRAGMA journal_mode = \(journal)") }
        try db.transaction {
            let item = try db.prepare(
                "INSERT INTO Item (id, name, category, price, weight, created_at, legacy, flag) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
            )
            let note = try db.prepare("INSERT INTO Note (text, item_id) VALUES (?, ?)")
            for id in 1...max(1, rows) {
                let n = Int64(id)
                item.reset()
                try item.bind([
                    .integer(n), .text("item \(id) \(String(repeating: "x", count: id % 23))"),
                    id % 7 == 0 ? .null : .text("category \(id % 50)"), .integer(n * 37 % 10_000),
                    id % 3 == 0 ? .null : .real(Double(id) / 8), .real(1_700_000_000 + Double(id)),
                    id % 2 == 0 ? .text("legacy \(id)") : .null, .integer(n % 2),
                ])
                try item.step()
                if id % 5 == 0 {
                    note.reset()
                    try note.bind([.text("note on \(id) it's"), .integer(n)])
                    try note.step()
                }
            }
        }
        DriverOutput.line("populated \(rows)")
    }

    /// `migrate --database PATH [--to VERSION] [--per-stage] [--busy-timeout S] [--hold-start S]
    /// [--hold-end S] [--progress] [--online] [--write-load]`: prints `outcome=… from=… to=…`, or `error code=…` and the
    /// error, exiting 1.
    static func migrate(_ options: DriverOptions) throws {
        let url = URL(fileURLWithPath: try options.require("--database"))
        var migratorOptions = MigrationOptions()
        if let to = options["--to"] {
            guard let version = Schema.Version(to) else {
                throw DriverOptions.UsageError(message: "--to takes a version like 2.0.0")
            }
            migratorOptions.targetVersion = version
        }
        if let timeout = options["--busy-timeout"] { migratorOptions.busyTimeout = Double(timeout) ?? 5 }
        if options.flag("--per-stage") { migratorOptions.transactionScope = .perStage }
        if options.flag("--progress") {
            migratorOptions.progress = { progress in DriverOutput.line("progress \(progress)") }
        }
        if options.flag("--online") { migratorOptions.online = OnlineRebuildOptions(chunkTargetMilliseconds: 5) }
        let migrator = Migrator(
            plan: options.flag("--online") ? ReliabilityOnlinePlan.self : ReliabilityPlan.self, options: migratorOptions
        )
        if options.flag("--write-load") {
            DriverWriteLoad(url: url).start()
            Thread.sleep(forTimeInterval: 0.05)
        }
        DriverOutput.line("started")
        let result = try migrator.migrate(databaseAt: url)
        DriverOutput.line(
            "outcome=\(result.outcome.rawValue) from=\(result.fromVersion?.description ?? "none") to=\(result.toVersion)"
        )
    }
}

/// `--name value` pairs and `--flag`s.
struct DriverOptions {
    struct UsageError: Error { var message: String }

    private let arguments: [String]

    init(_ arguments: [String]) { self.arguments = arguments }

    subscript(_ name: String) -> String? {
        guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
        return arguments[index + 1]
    }

    func flag(_ name: String) -> Bool { arguments.contains(name) }

    func require(_ name: String) throws -> String {
        guard let value = self[name] else { throw UsageError(message: "\(name) is required") }
        return value
    }
}
