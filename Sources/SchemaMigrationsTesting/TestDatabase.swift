import SchemaMigrations

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A database under test: a file in a temporary directory of its own, removed when this value is
/// released. Made by ``MigrationTester/database(at:)`` (created from a declaration) or
/// ``MigrationTester/database(copying:)`` (a copy of a real file).
public final class TestDatabase {
    /// The database file. Copy it elsewhere to keep it beyond this value's life.
    public let url: URL
    let migrator: Migrator
    private let directory: ScratchDirectory

    init(migrator: Migrator, fileName: String) throws {
        self.migrator = migrator
        self.directory = try ScratchDirectory(prefix: "schemamigrations-test")
        self.url = directory.url.appendingPathComponent(fileName.isEmpty ? "database.sqlite" : fileName)
    }

    /// The version the database is at, as the migrator detects it (nil when it holds none of the
    /// plan's tables).
    /// - Throws: `MigrationError` when the database is of an unknown version, or has drifted.
    public func version() throws -> Schema.Version? { try migrator.currentVersion(databaseAt: url) }

    /// Migrates the database to `version` (nil: the plan's latest), as the app's start-up call
    /// does with `MigrationOptions.targetVersion`: to the next version runs one stage, to a
    /// later one every stage in between; to an older one takes it back, as the app would (the
    /// tester's options say whether data may be lost on the way).
    /// - Returns: what the migration did.
    /// - Throws: `MigrationError`, exactly as the app would meet it; the database is then unchanged.
    @discardableResult
    public func migrate(to version: Schema.Version? = nil) throws -> MigrationResult {
        var options = migrator.options
        options.targetVersion = version
        options.backupURL = nil
        return try Migrator(migrator: migrator, options: options).migrate(databaseAt: url)
    }

    /// Checks that the database is what a new install at its version is: the same schema objects
    /// with the same meaning as a database created at that version from its declaration (columns
    /// with types, NOT NULL, defaults and collations; keys; foreign keys with every clause;
    /// indexes by origin, terms, order, collation, uniqueness and `WHERE`; CHECKs; views,
    /// triggers and virtual tables by their SQL), the version recorded, no drift from the
    /// declaration, and SQLite's `integrity_check` clean. An index's name is not compared: a
    /// rename keeps the name the package generated for an index whose name is not declared
    /// (`Note_title_unique` once `title` is `heading`), where a new install names it after the
    /// new names.
    /// - Throws: ``MigrationTestFailure`` naming every difference; `MigrationError` when the
    ///   version cannot be read or the database drifted from its declaration.
    public func validate() throws {
        let status = try migrator.verify(databaseAt: url)
        guard let version = status.currentVersion else {
            throw MigrationTestFailure(
                .notThePlansDatabase, "\(url.lastPathComponent) holds none of the plan's tables", database: url.path)
        }
        guard status.isRecorded else {
            throw MigrationTestFailure(
                .notThePlansDatabase,
                "\(url.lastPathComponent) matches version \(version) but records no version: migrate it first",
                database: url.path, version: version)
        }
        let reference = try MigrationTester(migrator: migrator).database(at: version)
        let mine = try SemanticSchema.lines(url.path, indexNames: false)
        let created = try SemanticSchema.lines(reference.url.path, indexNames: false)
        if mine != created {
            throw MigrationTestFailure(
                .schemaDiffers,
                "\(url.lastPathComponent) at version \(version) differs from a database created at \(version)",
                database: url.path, version: version,
                onlyHere: mine.filter { !created.contains($0) }, onlyInCreated: created.filter { !mine.contains($0) })
        }
        let db = try migrator.openDatabase(url, readOnly: true)
        let problems = try db.rows("PRAGMA integrity_check").compactMap(\.first?.stringValue).filter { $0 != "ok" }
        if !problems.isEmpty {
            throw MigrationTestFailure(
                .notIntact, "\(url.lastPathComponent) fails SQLite's integrity check", database: url.path,
                version: version, details: problems)
        }
    }

    /// Runs `body` with the data API of custom stages (`MigrationContext`: `insert`, `update`,
    /// `delete`, `fetch`, SQL) at the database's current version, in one transaction: committed
    /// when `body` returns, rolled back when it throws.
    /// - Throws: what `body` throws; `MigrationError` when the database holds no version of the plan.
    @discardableResult
    public func write<T>(_ body: (MigrationContext) throws -> T) throws -> T {
        let db = try migrator.openDatabase(url, readOnly: false)
        try db.execute("PRAGMA foreign_keys = ON")
        let context = try migrator.context(on: db, at: try currentVersion())
        return try db.transaction(.immediate) { try body(context) }
    }

    /// Runs `body` with the data API at the database's current version, on a read-only connection:
    /// a write fails. Properties read back typed: `try row.value("name", as: String.self)`.
    /// - Throws: what `body` throws; `MigrationError` when the database holds no version of the plan.
    public func read<T>(_ body: (MigrationContext) throws -> T) throws -> T {
        let db = try migrator.openDatabase(url, readOnly: true)
        let context = try migrator.context(on: db, at: try currentVersion())
        return try db.transaction(.deferred) { try body(context) }
    }

    /// Runs SQL (one or more statements) on the database, with foreign keys enforced, in one
    /// transaction.
    public func execute(_ sql: String) throws {
        let db = try migrator.openDatabase(url, readOnly: false)
        try db.execute("PRAGMA foreign_keys = ON")
        try db.transaction(.immediate) { try db.execute(sql) }
    }

    /// The rows a query returns, each as its columns' values.
    public func rows(_ sql: String, arguments: [SQLiteValue] = []) throws -> [[SQLiteValue]] {
        try migrator.openDatabase(url, readOnly: true).rows(sql, arguments)
    }

    /// The database's version, which the data API needs.
    private func currentVersion() throws -> Schema.Version {
        guard let version = try version() else {
            throw MigrationTestFailure(
                .notThePlansDatabase, "\(url.lastPathComponent) holds none of the plan's tables", database: url.path)
        }
        return version
    }

    func create(at version: Schema.Version) throws {
        try migrate(to: version)
    }

    func copy(from file: URL) throws {
        guard FileManager.default.fileExists(atPath: file.path) else {
            throw MigrationTestFailure(.notADatabase, "\(file.path) does not exist", database: file.path)
        }
        do {
            let source = try SQLiteConnection(path: file.path, mode: .readOnly)
            _ = try source.scalar("SELECT count(*) FROM sqlite_schema")
            try source.backup(toPath: url.path)
        } catch let error as SQLiteError {
            throw MigrationTestFailure(
                .notADatabase, "\(file.lastPathComponent) cannot be read as a SQLite database: \(error.message)",
                database: file.path)
        }
    }
}

extension Migrator {
    /// The same plan with other options.
    init(migrator: Migrator, options: MigrationOptions) {
        self = migrator
        self.options = options
    }
}
