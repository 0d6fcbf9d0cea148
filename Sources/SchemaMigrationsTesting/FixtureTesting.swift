import SchemaMigrations

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What migrating one fixture found: the version it was at, the version it reached, its rows
/// before and after, and why it failed, if it did.
public struct FixtureResult: Sendable, CustomStringConvertible {
    /// The fixture's path (only read: its copy was migrated).
    public var fixture: URL
    /// The version the fixture records, nil when it records none of the plan's.
    public var fromVersion: Schema.Version?
    /// The version it was migrated to, nil when it was not.
    public var toVersion: Schema.Version?
    /// The rows of its tables before the migration, nil when unread.
    public var rowsBefore: Int?
    /// The rows of its tables after the migration, nil when it did not pass.
    public var rowsAfter: Int?
    /// Why it did not pass; nil when it passed.
    public var failure: MigrationTestFailure?

    /// True when the fixture migrated and validated.
    public var passed: Bool { failure == nil }

    /// `ok    1.0.0.sqlite  1.0.0 → 3.0.0, 12 rows → 11`, or `FAIL  …` followed by the failure.
    public var description: String {
        let name = fixture.lastPathComponent
        guard let failure else {
            return "ok    \(name)  \(fromVersion.map(\.description) ?? "?") → \(toVersion.map(\.description) ?? "?"), "
                + "\(rowsBefore ?? 0) row\(rowsBefore == 1 ? "" : "s") → \(rowsAfter ?? 0)"
        }
        return "FAIL  \(name)\n" + failure.description.split(separator: "\n").map { "  \($0)" }.joined(separator: "\n")
    }
}

extension MigrationTester {
    /// The fixtures in `directory`: its files ending `.sqlite`, `.sqlite3` or `.db` (not hidden
    /// ones), sorted by name. Other files (snapshots, `-wal` and `-journal` files) are not fixtures.
    /// - Throws: `MigrationError` with code `invalidOption` when `directory` is not a directory
    ///   or holds no fixture.
    public func fixtures(in directory: URL) throws -> [URL] {
        guard SystemCalls.fileKind(atPath: directory.path) == .directory else {
            throw MigrationError(
                .invalidOption, "'\(directory.path)' is not a directory of fixtures",
                remedy: "capture fixtures first (`migrate fixture`, or captureFixture(of:into:))")
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { name in
            let lowered = name.lowercased()
            return !name.hasPrefix(".") && [".sqlite", ".sqlite3", ".db"].contains { lowered.hasSuffix($0) }
        }.sorted()
        guard !files.isEmpty else {
            throw MigrationError(
                .invalidOption, "'\(directory.path)' holds no fixture (a file ending .sqlite, .sqlite3 or .db)",
                remedy: "capture fixtures first (`migrate fixture`, or captureFixture(of:into:))")
        }
        return files.map { directory.appendingPathComponent($0) }
    }

    /// Migrates a copy of every fixture in `directory` (``fixtures(in:)``) to `target` (nil: the
    /// plan's latest version) and validates each (``TestDatabase/validate()``): the test a
    /// release runs against the databases real users have. The fixtures are only read.
    /// - Returns: one result per fixture, in order; each failure says why, naming the fixture.
    /// - Throws: `MigrationError` when the directory holds no fixture or the plan is malformed.
    public func testFixtures(in directory: URL, to target: Schema.Version? = nil) throws -> [FixtureResult] {
        _ = try versions()
        return try fixtures(in: directory).map { testFixture($0, to: target) }
    }

    /// Migrates a copy of one fixture to `target` (nil: the latest version) and validates it.
    public func testFixture(_ fixture: URL, to target: Schema.Version? = nil) -> FixtureResult {
        var result = FixtureResult(fixture: fixture)
        do {
            let database = try database(copying: fixture)
            let version = try recordedVersion(of: database.url, fixture: fixture)
            result.fromVersion = version
            result.rowsBefore = try Self.rowCount(database)
            do {
                let migrated = try database.migrate(to: target)
                result.toVersion = migrated.toVersion
                try database.validate()
            } catch let error as MigrationError {
                throw MigrationTestFailure(
                    .migrationFailed, error.message, database: fixture.path, version: version,
                    details: error.details.map { "- " + $0 } + (error.remedy.map { ["fix: " + $0] } ?? []),
                    underlyingError: error)
            }
            result.rowsAfter = try Self.rowCount(database)
        } catch var failure as MigrationTestFailure {
            failure.database = fixture.path
            result.failure = failure
        } catch let error as MigrationError {
            result.failure = MigrationTestFailure(
                .migrationFailed, error.message, database: fixture.path, version: result.fromVersion,
                underlyingError: error)
        } catch {
            result.failure = MigrationTestFailure(.migrationFailed, "\(error)", database: fixture.path)
        }
        return result
    }

    /// The version the fixture records for this plan, which the plan must still declare.
    private func recordedVersion(of copy: URL, fixture: URL) throws -> Schema.Version {
        let plan = try migrator.planName()
        let history = try Migrator.history(databaseAt: copy)
        guard let recorded = history.last(where: { $0.plan == plan })?.to else {
            let others = Set(history.map(\.plan)).sorted()
            throw MigrationTestFailure(
                .notThePlansDatabase,
                "\(fixture.lastPathComponent) records no version of the plan '\(plan)'"
                    + (others.isEmpty
                        ? "" : " (it records the plans \(others.map { "'\($0)'" }.joined(separator: ", ")))"),
                database: fixture.path)
        }
        let declared = try versions()
        guard declared.contains(recorded) else {
            throw MigrationTestFailure(
                .versionNotDeclared,
                "\(fixture.lastPathComponent) is at version \(recorded), which the plan '\(plan)' "
                    + (recorded < declared[0] ? "no longer declares" : "does not declare")
                    + " (it declares \(declared.map(\.description).joined(separator: ", ")))",
                database: fixture.path, version: recorded)
        }
        return recorded
    }

    /// The rows of every ordinary table but SQLite's and the package's own.
    static func rowCount(_ database: TestDatabase) throws -> Int {
        let tables = try database.rows(
            """
            SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'table' \
            AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name NOT LIKE '\\_schema\\_migrations%' ESCAPE '\\'
            """)
        var total = 0
        for table in tables.compactMap({ $0.first?.stringValue }) {
            let count = try database.rows("SELECT count(*) FROM \(SQL.quoteIdentifier(table))").first?.first
            total += Int(count?.int64Value ?? 0)
        }
        return total
    }
}

extension FixtureResult {
    init(fixture: URL) {
        self.fixture = fixture
    }
}
