import Foundation
import SchemaMigrations
import SchemaMigrationsTesting
import Testing

/// Fixtures of released versions: captured at 1.0.0 and 2.0.0, tested against the 3.0.0 release;
/// a released version edited, a version no longer declared, another plan's file and a file that is
/// no database each fail naming the fixture and why; the fixtures are never written.
@Suite struct FixtureTests {
    let scratch = TemporaryDatabase("app.sqlite")
    var fixtures: URL { scratch.directory.appendingPathComponent("fixtures") }

    /// A notes database at `version`, with rows (two notes share a title at 1.0.0).
    func app(at version: Schema.Version) throws -> URL {
        try Migrator(plan: NotesPlan.self, options: MigrationOptions(targetVersion: NotesV1.versionIdentifier))
            .migrate(databaseAt: scratch.url)
        try scratch.execute(
            "INSERT INTO Note (title, body) VALUES ('groceries', 'milk eggs bread'), ('groceries', 'tea'), ('plans', '')"
        )
        try Migrator(plan: NotesPlan.self, options: MigrationOptions(targetVersion: version)).migrate(
            databaseAt: scratch.url)
        return scratch.url
    }

    func bytes(of directory: URL) throws -> [String: Data] {
        var all: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            all[name] = try Data(contentsOf: directory.appendingPathComponent(name))
        }
        return all
    }

    @Test func fixturesOfTwoReleasesPassTheNextRelease() throws {
        let tester = MigrationTester(plan: NotesPlan.self)
        let app = try app(at: NotesV1.versionIdentifier)
        let first = try tester.captureFixture(of: app, into: fixtures)
        try Migrator(plan: NotesPlan.self, options: MigrationOptions(targetVersion: NotesV2.versionIdentifier))
            .migrate(databaseAt: app)
        try scratch.execute("INSERT INTO Tag (label, note_id) VALUES ('home', 1)")
        let second = try tester.captureFixture(of: app, into: fixtures, name: "with-tags")
        #expect([first, second].map(\.lastPathComponent) == ["1.0.0.sqlite", "2.0.0-with-tags.sqlite"])
        let before = try bytes(of: fixtures)

        let results = try tester.testFixtures(in: fixtures)
        #expect(results.map(\.passed) == [true, true], "\(results)")
        #expect(results.map(\.fromVersion) == [NotesV1.versionIdentifier, NotesV2.versionIdentifier])
        #expect(results.map(\.toVersion) == [NotesV3.versionIdentifier, NotesV3.versionIdentifier])
        #expect(results.map(\.rowsBefore) == [3, 4] && results.map(\.rowsAfter) == [3, 4])
        #expect(results[0].description == "ok    1.0.0.sqlite  1.0.0 → 3.0.0, 3 rows → 3")
        #expect(try bytes(of: fixtures) == before, "the fixtures are only read")

        // What the fixture at 1.0.0 became, read back at 3.0.0: the custom stage ran.
        let migrated = try tester.database(copying: first)
        try migrated.migrate()
        let notes = try migrated.read { context in
            try context.fetch("Note", orderBy: "id").map {
                "\(try $0.value("heading", as: String.self)): \(try $0.value("words", as: Int.self))"
            }
        }
        #expect(notes == ["groceries: 3", "groceries (2): 1", "plans: 0"])
    }

    @Test func aReleasedVersionEditedFailsNamingTheFixtureAndTheChange() throws {
        try MigrationTester(plan: NotesPlan.self).captureFixture(
            of: try app(at: NotesV1.versionIdentifier), into: fixtures)
        let results = try MigrationTester(plan: NotesPlanEditedV1.self).testFixtures(in: fixtures)
        let failure = try #require(results.first?.failure)
        #expect(failure.kind == .migrationFailed)
        #expect(failure.database == fixtures.appendingPathComponent("1.0.0.sqlite").path)
        #expect(failure.version == NotesV1.versionIdentifier)
        #expect(failure.underlyingError?.code == .invalidPlan || failure.underlyingError?.code == .unknownVersion)
        #expect(failure.message.contains("1.0.0"), "\(failure)")
        #expect(failure.details.contains { $0.contains("pinned") }, "the change is named: \(failure)")
        #expect(results[0].description.hasPrefix("FAIL  1.0.0.sqlite\n  error: "))
        #expect(
            results[0].description.contains(
                "\n    -   Note.pinned: added\n    fix: a released version must never change"))
    }

    @Test func aVersionThePlanNoLongerDeclaresIsSaidSo() throws {
        try MigrationTester(plan: NotesPlan.self).captureFixture(
            of: try app(at: NotesV1.versionIdentifier), into: fixtures)
        let failure = try #require(
            try MigrationTester(plan: NotesPlanFromV2.self).testFixtures(in: fixtures).first?.failure)
        #expect(failure.kind == .versionNotDeclared)
        #expect(
            failure.message
                == "1.0.0.sqlite is at version 1.0.0, which the plan 'Notes' no longer declares (it declares 2.0.0, 3.0.0)"
        )
    }

    @Test func anotherPlansFileAndAFileThatIsNoDatabaseFailEachOnTheirOwn() throws {
        try MigrationTester(plan: NotesPlan.self).captureFixture(
            of: try app(at: NotesV1.versionIdentifier), into: fixtures)
        try Data("SQLite format 2, not really".utf8).write(to: fixtures.appendingPathComponent("broken.db"))
        try Data("notes".utf8).write(to: fixtures.appendingPathComponent("README.md"))
        let results = try MigrationTester(plan: OtherAppPlan.self).testFixtures(in: fixtures)
        #expect(
            results.map(\.fixture.lastPathComponent) == ["1.0.0.sqlite", "broken.db"], "other files are no fixtures")
        #expect(results[0].failure?.kind == .notThePlansDatabase)
        #expect(
            results[0].failure?.message
                == "1.0.0.sqlite records no version of the plan 'Other' (it records the plans 'Notes')")
        #expect(results[1].failure?.kind == .notADatabase)
    }

    @Test func aDirectoryWithoutFixturesIsAnError() throws {
        try FileManager.default.createDirectory(at: fixtures, withIntermediateDirectories: true)
        let tester = MigrationTester(plan: NotesPlan.self)
        let empty = try #require(throws: MigrationError.self) { try tester.testFixtures(in: fixtures) }
        #expect(empty.code == .invalidOption && empty.message.contains("holds no fixture"))
        let missing = try #require(throws: MigrationError.self) {
            try tester.testFixtures(in: fixtures.appendingPathComponent("nowhere"))
        }
        #expect(missing.message.contains("is not a directory of fixtures"))
    }

    @Test func captureRefusesWhatWouldNotBeAReleasedVersionAndWritesNothing() throws {
        let tester = MigrationTester(plan: NotesPlan.self)
        let app = try app(at: NotesV2.versionIdentifier)
        let appBytes = try Data(contentsOf: app)
        for name in ["", "../escape", "a/b", "*", "it's", ".hidden", "tab\tname", String(repeating: "n", count: 101)] {
            let error = try #require(throws: MigrationError.self, "\(name)") {
                try tester.captureFixture(of: app, into: fixtures, name: name)
            }
            #expect(error.code == .invalidOption && error.message.contains("is not a plain file name"))
        }
        // SQL that changes the schema, leaves a key dangling, or fails: nothing written.
        for (sql, code) in [
            ("ALTER TABLE Note ADD COLUMN secret TEXT", MigrationError.Code.drift),
            ("PRAGMA defer_foreign_keys = ON; INSERT INTO Tag (label, note_id) VALUES ('x', 99)", .dataViolation),
            ("INSERT INTO Tag (label, note_id) VALUES ('x', 99)", .sqlite),
            ("UPDATE Nope SET x = 1", .sqlite),
        ] {
            let error = try #require(throws: MigrationError.self, "\(sql)") {
                try tester.captureFixture(of: app, into: fixtures, preparing: sql)
            }
            #expect(error.code == code, "\(sql): \(error)")
            #expect(!FileManager.default.fileExists(atPath: fixtures.appendingPathComponent("2.0.0.sqlite").path))
        }
        #expect(try Data(contentsOf: app) == appBytes, "the database captured is only read")
        // A database that records no version of the plan; a fixture that already exists.
        let unversioned = scratch.directory.appendingPathComponent("plain.sqlite")
        try SQLiteConnection(path: unversioned.path).execute("CREATE TABLE t(x)")
        #expect(throws: MigrationError.self) { try tester.captureFixture(of: unversioned, into: fixtures) }
        try tester.captureFixture(of: app, into: fixtures, preparing: "UPDATE Note SET body = 'redacted'")
        let again = try #require(throws: MigrationError.self) { try tester.captureFixture(of: app, into: fixtures) }
        #expect(again.code == .invalidOption && again.message.hasSuffix("2.0.0.sqlite' already exists"))
        let captured = try tester.database(copying: fixtures.appendingPathComponent("2.0.0.sqlite"))
        #expect(try captured.rows("SELECT DISTINCT body FROM Note") == [[.text("redacted")]])
        #expect(try captured.rows("PRAGMA journal_mode") == [[.text("delete")]])
    }
}
