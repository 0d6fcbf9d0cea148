import SchemaMigrations

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension MigrationTester {
    /// Captures a fixture: a copy of `database`, which must be at a version of the plan as
    /// recorded and without drift, prepared by `sql` (the app's own anonymisation and trimming:
    /// `UPDATE User SET email = 'user' || id || '@example.com'; DELETE FROM Post WHERE id > 100`),
    /// written compact into `directory` as `<version>.sqlite` (`<version>-<name>.sqlite` with a
    /// name). The fixture keeps the plan's metadata (version, snapshot, history), so it is that
    /// version as released; ``testFixtures(in:to:)`` migrates it on every later release.
    ///
    /// `database` is only read. `sql` runs on the copy in one transaction with foreign keys
    /// enforced (their delete rules apply); it must leave the schema as it was.
    /// - Returns: the fixture's path.
    /// - Throws: `MigrationError`: `invalidOption` for a name that is not a plain file name
    ///   (letters, digits, `-`, `_`, `.`, not starting with `.`) or a fixture that already
    ///   exists; `unknownVersion` for a database that records no version of the plan; `drift`
    ///   for one that drifted, or whose schema `sql` changed; `dataViolation` when `sql` leaves a
    ///   foreign key dangling; SQLite's error when `sql` fails. Nothing is written then.
    @discardableResult
    public func captureFixture(of database: URL, into directory: URL, name: String? = nil, preparing sql: String? = nil)
        throws -> URL
    {
        if let name { try Self.checkFixtureName(name) }
        guard FileManager.default.fileExists(atPath: database.path) else {
            throw MigrationError(.notADatabase, "'\(database.path)' does not exist", remedy: "pass the database's path")
        }
        let status = try migrator.verify(databaseAt: database)
        guard let version = status.currentVersion, status.isRecorded else {
            throw MigrationError(
                .unknownVersion, "'\(database.path)' records no version of the plan '\(try migrator.planName())'",
                remedy: "apply the plan (or baseline the database) first: a fixture is a released version's database")
        }
        let file = directory.appendingPathComponent("\(version)\(name.map { "-\($0)" } ?? "").sqlite")
        if FileManager.default.fileExists(atPath: file.path) {
            throw MigrationError(
                .invalidOption, "the fixture '\(file.path)' already exists",
                remedy: "give another name (--name), or delete the old fixture first")
        }
        let scratch = try ScratchDirectory(prefix: "schemamigrations-fixture")
        let copy = scratch.url.appendingPathComponent("copy.sqlite")
        do {
            try migrator.openDatabase(database, readOnly: true).backup(toPath: copy.path)
        } catch let error as SQLiteError {
            throw MigrationError.wrap(error, message: "cannot copy '\(database.path)'; no fixture was written")
        }
        if let sql {
            do {
                try prepare(copy, with: sql)
            } catch let error as SQLiteError {
                throw MigrationError.wrap(
                    error, message: "the preparing SQL failed on the copy; no fixture was written")
            }
            let changed = { (details: [String]) in
                MigrationError(
                    .drift, "the preparing SQL changed the schema: the copy no longer matches version \(version)",
                    version: version, remedy: "prepare rows only (UPDATE, DELETE, INSERT), never the schema",
                    details: details)
            }
            do {
                let after = try migrator.verify(databaseAt: copy)
                guard after.currentVersion == version, after.isRecorded else { throw changed([]) }
            } catch let error as MigrationError where error.code == .drift && error.message != changed([]).message {
                throw changed(error.details)
            }
        }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // Compact, in the rollback journal mode, written beside the fixture and renamed: a
        // fixture is whole or absent.
        let compact = scratch.url.appendingPathComponent("compact.sqlite")
        do {
            try migrator.openDatabase(copy, readOnly: false).execute("VACUUM INTO \(SQL.quoteString(compact.path))")
            let written = try migrator.openDatabase(compact, readOnly: false)
            _ = try written.rows("PRAGMA journal_mode = DELETE")
            try written.backup(toPath: file.path)
        } catch let error as SQLiteError {
            throw MigrationError.wrap(error, message: "cannot write the fixture '\(file.path)'")
        }
        return file
    }

    /// Runs the user's SQL on the copy in one transaction, foreign keys enforced; refuses to
    /// leave more foreign keys dangling than the database had.
    private func prepare(_ copy: URL, with sql: String) throws {
        let db = try migrator.openDatabase(copy, readOnly: false)
        try db.execute("PRAGMA foreign_keys = ON")
        let dangling = try db.rows("PRAGMA foreign_key_check").count
        try db.transaction(.immediate) {
            try db.execute(sql)
            let now = try db.rows("PRAGMA foreign_key_check").count
            if now > dangling {
                throw MigrationError(
                    .dataViolation, "the preparing SQL leaves \(now - dangling) foreign key(s) dangling",
                    remedy: "delete the rows that refer to what it deletes too, or keep what they refer to")
            }
        }
    }

    /// A fixture's name must be a plain file name: no path, glob or quote characters.
    static func checkFixtureName(_ name: String) throws {
        let allowed = name.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                || "-_.".unicodeScalars
                    .contains($0)
        }
        guard !name.isEmpty, name.count <= 100, allowed, !name.hasPrefix(".") else {
            throw MigrationError(
                .invalidOption, "the fixture name '\(name)' is not a plain file name",
                remedy:
                    "use letters, digits, '-', '_' and '.', at most 100, not starting with '.' (for example 'eu-users')"
            )
        }
    }
}
