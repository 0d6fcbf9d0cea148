import SchemaMigrations

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Tests a plan's migrations in the app's own test suite, the way they will run on users'
/// databases: a database created at any declared version, filled, migrated to any later version,
/// validated against a database created at that version, and read back.
///
/// ```swift
/// import SchemaMigrationsTesting
/// import Testing
///
/// @Test func everyUpgradePath() throws {
///     let tester = MigrationTester(plan: TripsMigrationPlan.self)
///     for path in try tester.upgradePaths() {
///         let database = try tester.database(at: path.from)
///         try database.write { context in
///             _ = try context.insert("Trip", values: ["name": "Lisbon"])
///         }
///         try database.migrate(to: path.to)
///         try database.validate()
///         let names = try database.read { context in
///             try context.fetch("Trip").map { try $0.value("name", as: String.self) }
///         }
///         #expect(names == ["Lisbon"])
///     }
/// }
/// ```
///
/// Nothing here depends on a test framework: failures are thrown (``MigrationTestFailure``, or
/// the migration's own `MigrationError`), which Swift Testing and XCTest both report. Every
/// database lives in a temporary directory of its own, removed when the ``TestDatabase`` is released.
public struct MigrationTester: Sendable {
    /// The migrator every database of this tester is created and migrated with (its options'
    /// target version is ignored: each call names its own).
    public let migrator: Migrator

    /// A tester of a plan declared in Swift.
    /// - Parameters:
    ///   - plan: the plan, as the app migrates with it.
    ///   - options: the app's SQL environment, busy timeout and other options, as the app
    ///     migrates with them.
    public init(plan: any SchemaMigrationPlan.Type, options: MigrationOptions = MigrationOptions()) {
        self.migrator = Migrator(plan: plan, options: options)
    }

    /// A tester of any migrator's plan (a JSON plan directory's, for example).
    public init(migrator: Migrator) {
        self.migrator = migrator
    }

    /// The versions the plan declares, oldest first.
    /// - Throws: `MigrationError` when the plan is malformed.
    public func versions() throws -> [Schema.Version] { try migrator.declaredVersions() }

    /// Every way an installed database can be upgraded: each declared version to each later one,
    /// the oldest source first (1 → 2, 1 → 3, 2 → 3 for three versions).
    /// - Throws: `MigrationError` when the plan is malformed.
    public func upgradePaths() throws -> [UpgradePath] {
        let versions = try versions()
        return versions.indices.flatMap { from in
            versions[(from + 1)...].map { UpgradePath(from: versions[from], to: $0) }
        }
    }

    /// Every way a deploy can be taken back: each declared version to each earlier one, the
    /// newest source first (3 → 2, 3 → 1, 2 → 1 for three versions). ``TestDatabase/migrate(to:)``
    /// takes a database back as `migrate revert` does; the tester's options say whether data the
    /// newer version added may be lost (`MigrationOptions.allowDataLoss`).
    /// - Throws: `MigrationError` when the plan is malformed.
    public func downgradePaths() throws -> [UpgradePath] {
        let versions = try versions()
        return versions.indices.reversed().flatMap { from in
            versions[..<from].reversed().map { UpgradePath(from: versions[from], to: $0) }
        }
    }

    /// A new database created at `version` from its declaration, as the app's first launch at that
    /// version creates it: its tables, indexes, views, triggers and version recorded, no rows.
    /// - Throws: `MigrationError` for a version the plan does not declare (naming those it does),
    ///   or whatever creating the database met.
    public func database(at version: Schema.Version) throws -> TestDatabase {
        let database = try TestDatabase(migrator: migrator, fileName: "database-\(version).sqlite")
        try database.create(at: version)
        return database
    }

    /// A copy of an existing database file (a fixture captured from a released version, or a
    /// user's file): the copy is what is migrated and validated; `file` is only read.
    /// - Throws: ``MigrationTestFailure`` when `file` is missing or not a SQLite database.
    public func database(copying file: URL) throws -> TestDatabase {
        let database = try TestDatabase(migrator: migrator, fileName: file.lastPathComponent)
        try database.copy(from: file)
        return database
    }
}

/// One way an installed database can be migrated: from a declared version to a later one (an
/// upgrade), or to an earlier one (a deploy taken back).
public struct UpgradePath: Sendable, Hashable, CustomStringConvertible {
    /// The version the database is at.
    public var from: Schema.Version
    /// The version it is migrated to.
    public var to: Schema.Version

    /// A path from `from` to `to`.
    public init(from: Schema.Version, to: Schema.Version) {
        self.from = from
        self.to = to
    }

    /// `1.0.0 → 2.0.0`.
    public var description: String { "\(from) → \(to)" }
}
