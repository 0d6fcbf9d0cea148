import Foundation
import SchemaMigrations
import Testing

/// `apply --create` of a new file asked to back it up: nothing to back up, so no backup file,
/// and the output says so when the backup path was asked for.
@Suite struct ApplyCreateBackupTests {
    @Test func aNewFileGetsNoBackupAndTheOutputSaysWhy() throws {
        let scratch = Scratch()
        let missing = scratch.path("new.sqlite")
        let backup = scratch.path("new.backup")
        let result = try BuiltCommand.sampleTrips([
            "apply", "--database", missing, "--create", "--backup", backup,
        ])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.stdout.contains(
                "\nbackup: none written to \(backup): the database was empty, nothing to back up\n"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: backup))
        #expect(FileManager.default.fileExists(atPath: missing))
    }

    /// The default backup beside the database: none for a new file, and nothing said.
    @Test func theDefaultBackupOfANewFileIsNotWritten() throws {
        let scratch = Scratch()
        let missing = scratch.path("new.sqlite")
        let result = try BuiltCommand.sampleTrips(["apply", "--database", missing, "--create"])
        #expect(result.status == 0, "\(result)")
        #expect(!result.stdout.contains("backup"), "\(result)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.directory.path) == ["new.sqlite"])
    }

    /// A database that holds something is backed up as before, and the output names the file.
    @Test func aDatabaseWithTablesIsStillBackedUp() throws {
        let scratch = Scratch()
        let database = try scratch.sampleTrips("v1.sqlite")
        let backup = scratch.path("v1.backup")
        let result = try BuiltCommand.sampleTrips(["apply", "--database", database, "--backup", backup])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("\nbackup: \(backup)\n"), "\(result)")
        #expect(FileManager.default.fileExists(atPath: backup))
    }
}
