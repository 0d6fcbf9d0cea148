import Foundation
import Testing

@testable import SchemaMigrations

/// A backup is of something: a new or empty file, whose schema the migration creates, gets none
/// (it used to get a 4 KiB copy of nothing), and the result says whether one was written.
@Suite struct BackupOfNothingTests {
    typealias A = PlanBuilder

    @Test func creatingAMissingFileWritesNoBackup() throws {
        let db = TemporaryDatabase()
        let backup = db.directory.appendingPathComponent("backup.sqlite")
        let result = try A.migrator([A.schema(1, [PersonFixture.person])], options: MigrationOptions(backupURL: backup))
            .migrate(databaseAt: db.url)
        #expect(result.outcome == .created)
        #expect(result.backupURL == nil)
        #expect(!FileManager.default.fileExists(atPath: backup.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: db.directory.path) == ["test.sqlite"])
    }

    @Test func anEmptyFileWritesNoBackup() throws {
        let db = TemporaryDatabase()
        #expect(FileManager.default.createFile(atPath: db.path, contents: nil))
        let backup = db.directory.appendingPathComponent("backup.sqlite")
        let result = try A.migrator([A.schema(1, [PersonFixture.person])], options: MigrationOptions(backupURL: backup))
            .migrate(databaseAt: db.url)
        #expect(result.outcome == .created && result.backupURL == nil)
        #expect(!FileManager.default.fileExists(atPath: backup.path))
    }

    @Test func aDatabaseWithTablesIsBackedUpAndTheResultSaysWhere() throws {
        let db = TemporaryDatabase()
        let v1 = A.schema(1, [PersonFixture.person])
        let v2 = A.schema(
            2, [PersonFixture.person { $0.attributes.append(A.attribute("nick", .string, optional: true)) }])
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute(PersonFixture.rows)
        let backup = db.directory.appendingPathComponent("backup.sqlite")
        let result = try A.migrator([v1, v2], options: MigrationOptions(backupURL: backup)).migrate(databaseAt: db.url)
        #expect(result.outcome == .migrated)
        #expect(result.backupURL == backup)
        let copy = try SQLiteConnection(path: backup.path, mode: .readOnly)
        #expect(try copy.scalar("SELECT count(*) FROM Person")?.int64Value == 3)
    }
}
