#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Brings a SQLite database to the latest version of a plan: the start-up API.
///
/// ```swift
/// let migrator = Migrator(plan: TripsMigrationPlan.self)
/// try migrator.migrate(databaseAt: url)              // nothing written when already current
/// let report = try migrator.plan(databaseAt: url)    // dry run: never writes
/// let version = try migrator.currentVersion(databaseAt: url)
/// ```
///
/// A database is recognised by the plan's metadata row; an unversioned database by matching its
/// tables against each declared version; an empty one gets the latest schema created directly.
/// Everything runs in one transaction by default: on any error the database is left exactly as it
/// was, at its old version.
public struct Migrator: Sendable {
    /// How the migrator runs.
    public var options: MigrationOptions
    let resolved: ResolvedPlanOutcome

    /// A migrator for a plan declared in Swift. A malformed plan is reported by the first call
    /// (every method throws it; ``schemas()`` or ``lint()`` in a unit test catches it before
    /// release). A Swift plan is a declaration compiled into the app, so start-up code stays
    /// one line; ``init(planDirectory:options:)-(URL,_)``, which reads files, throws instead.
    public init(plan: any SchemaMigrationPlan.Type, options: MigrationOptions = MigrationOptions()) {
        self.options = options
        do {
            self.resolved = .success(try ResolvedPlan(plan))
        } catch let error as MigrationError {
            self.resolved = .failure(error)
        } catch {
            self.resolved = .failure(MigrationError(.invalidPlan, "\(error)"))
        }
    }

    init(resolvedPlan: ResolvedPlan, options: MigrationOptions = MigrationOptions()) {
        self.options = options
        self.resolved = .success(resolvedPlan)
    }

    /// The plan, with the options' SQL environment for the check of its declared SQL.
    func resolvedPlan() throws -> ResolvedPlan {
        var plan = try resolved.get()
        plan.environment = options.sqlEnvironment
        plan.allowsDataLoss = options.allowDataLoss
        return plan
    }

    /// The plan's versions as declared, validated.
    /// - Throws: `MigrationError` when the plan is malformed.
    public func schemas() throws -> [Schema] { try resolved.get().declared }

    /// Migrates the database file at `url` (created when missing).
    /// - Throws: `MigrationError`; the database is then unchanged.
    @discardableResult
    public func migrate(databaseAt url: URL) throws -> MigrationResult {
        let plan = try resolvedPlan()
        _ = try targetVersion(of: plan)  // refused before the file is created
        return try advising(url) {
            let db = try open(url, mode: .readWriteCreate, readTransaction: true)
            return try FileFraming(connection: db).migrate(plan, options: options)
        }
    }

    /// Migrates through a connection the app already owns (a raw `sqlite3*`, for example GRDB's).
    /// The connection must not be inside a transaction. Its `foreign_keys` setting is restored
    /// afterwards, and its authorizer is left alone: a custom stage's checks then cover every
    /// table rather than only those its code touches (which `migrate(databaseAt:)` learns by
    /// installing an authorizer of its own).
    @discardableResult
    public func migrate(connection handle: OpaquePointer) throws -> MigrationResult {
        let plan = try resolvedPlan()
        let db = SQLiteConnection(borrowing: handle)
        return try LentConnectionFraming(connection: db).migrate(plan, options: options)
    }

    /// Migrates through a connection of this package's (tests use it to watch what runs).
    @discardableResult
    func migrate(using db: SQLiteConnection) throws -> MigrationResult {
        try db.framing.migrate(try resolvedPlan(), options: options)
    }

    /// The version the database at `url` is at, nil when it holds none of the plan's tables.
    /// Read-only. A database a newer build migrated reports its version, which is then above the
    /// plan's latest, so that an old build can say what it meets (``migrate(databaseAt:)`` still
    /// refuses it, with `newerVersion`):
    ///
    /// ```swift
    /// if let version = try migrator.currentVersion(databaseAt: url), version > TripsSchemaV3.versionIdentifier {
    ///     print("this database was migrated by a newer release (\(version)); update the app")
    /// }
    /// ```
    /// - Throws: `MigrationError` when the database is of an unknown version, or has drifted.
    public func currentVersion(databaseAt url: URL) throws -> Schema.Version? {
        let plan = try resolvedPlan()
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try advising(url) {
            let db = try open(url, mode: .readOnly)
            do {
                return try VersionDetection(plan: plan, db: db).detect().version
            } catch let error as SQLiteError {
                throw MigrationError.wrap(error, message: "cannot read the version of '\(url.path)'")
            } catch let error as MigrationError where error.code == .newerVersion {
                guard let newer = error.version else { throw error }
                return newer
            }
        }
    }

    /// A dry run: the stages and steps a migration would run, with their SQL, measured against
    /// the live data. Opens the database read-only: it can never write. With
    /// ``MigrationOptions/online``, the report's ``MigrationReport/online`` says which stages
    /// would run online and which offline, and why, and lists the refusals an online migration makes.
    public func plan(databaseAt url: URL) throws -> MigrationReport {
        let plan = try resolvedPlan()
        let target = try targetVersion(of: plan)
        _ = try options.online?.validatedTarget()
        guard FileManager.default.fileExists(atPath: url.path) else {
            return try MigrationReport.forEmptyDatabase(plan: plan, path: url.path, target: target)
        }
        return try advising(url) {
            let db = try open(url, mode: .readOnly)
            return try MigrationReport.make(
                plan: plan, db: db, target: target, online: options.online,
                requireCompatible: options.requireCompatible)
        }
    }

    /// Opens the database at `url` as every entry point does: with the options' busy timeout, VFS
    /// and SQL environment.
    /// - Parameter readTransaction: leave the connection inside a read transaction (begun before
    ///   the opening check where no SQL environment runs in between), so that the up-to-date check
    ///   reads under the same shared lock (``SQLiteConnection/holdsOpeningReadTransaction``).
    func open(_ url: URL, mode: SQLiteConnection.OpenMode, readTransaction: Bool = false) throws
        -> SQLiteConnection
    {
        try Migrator.open(
            url, mode: mode, busyTimeout: options.busyTimeout, vfs: options.vfsName,
            environment: options.sqlEnvironment,
            readTransaction: readTransaction)
    }

    static func open(
        _ url: URL, mode: SQLiteConnection.OpenMode, busyTimeout: TimeInterval, vfs: String?,
        environment: SQLEnvironment, readTransaction: Bool = false
    ) throws -> SQLiteConnection {
        if SystemCalls.fileKind(atPath: url.path) == .directory {
            throw MigrationError(
                .notADatabase, "'\(url.path)' is a directory, not a SQLite database",
                remedy: "pass the path of the database file")
        }
        do {
            let db = try SQLiteConnection(path: url.path, mode: mode, busyTimeout: busyTimeout, vfs: vfs)
            // The environment's hook may change the journal mode, which no transaction may be open for.
            if readTransaction && environment.isEmpty {
                // A statement that needs no schema starts the transaction, so that reading the
                // schema (at the next statement's prepare) takes no shared lock of its own.
                try db.execute("BEGIN")
                _ = try db.pragmaInteger("schema_version")
            }
            // fails now, clearly, for a file that is not a database
            _ = try db.scalar("SELECT count(*) FROM sqlite_schema")
            try db.apply(environment)
            if readTransaction && !environment.isEmpty {
                try db.execute("BEGIN")
                _ = try db.pragmaInteger("schema_version")
            }
            db.holdsOpeningReadTransaction = readTransaction
            return db
        } catch let error as SQLiteError {
            if error.resultCode == .readOnlyRollback {  // a hot journal a read-only connection cannot replay
                throw MigrationError.interrupted(path: url.path, sqliteError: error)
            }
            throw MigrationError.fromOpening(error, path: url.path)
        }
    }
}

/// The plan a migrator was made with, validated, or why it is malformed: what `Result` would hold,
/// without a generic type the runtime instantiates (and whose `Error` conformance it looks up)
/// in every short-lived `migrate` process.
enum ResolvedPlanOutcome: Sendable {
    case success(ResolvedPlan)
    case failure(MigrationError)

    /// The plan.
    /// - Throws: the `MigrationError` that made it malformed.
    func get() throws -> ResolvedPlan {
        switch self {
        case .success(let plan): return plan
        case .failure(let error): throw error
        }
    }
}
