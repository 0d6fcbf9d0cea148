import Foundation
import SchemaMigrations
import Testing

/// Taking a deploy back through the built executables: `revert` after an `apply`, `apply --to`
/// an older version, the data loss gate, `history` showing the revert, and the refusals.
@Suite struct RevertCommandTests {
    static let plan = Scratch.jsonPlan

    /// A SampleTrips database at 2.0.0 applied to 3.0.0 through the JSON plan.
    static func appliedToV3(_ scratch: Scratch) throws -> String {
        let database = try scratch.sampleTrips("trips.sqlite", at: Schema.Version(2, 0, 0))
        let result = try BuiltCommand.migrate(["apply", "--plan", plan, "--database", database, "--no-backup"])
        #expect(result.status == 0, "\(result)")
        return database
    }

    @Test func revertTakesTheLastApplyBackWithABackupAndHistoryShowsIt() throws {
        let scratch = Scratch()
        let database = try Self.appliedToV3(scratch)
        let trips = try scratch.rows(database, "SELECT id, name, startDate FROM Trip ORDER BY id")
        var result = try BuiltCommand.migrate(["revert", "--plan", Self.plan, "--database", database])
        #expect(result.status == 0, "\(result)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines[1].hasPrefix("reverted 3.0.0 → 2.0.0 in "))
        #expect(
            lines[2].hasPrefix(
                "  stage 3.0.0 → 2.0.0 (revert): Drop index on Trip(name, startDate, endDate); Rename column Trip.startDate to start_date; "
            ))
        #expect(lines[3].hasPrefix("backup: \(database).backup-"))
        let backup = String(lines[3].dropFirst("backup: ".count))
        #expect(try scratch.rows(backup, "SELECT max(seq), version FROM _schema_migrations") == [["3", "'3.0.0'"]])
        #expect(try scratch.rows(database, "SELECT id, name, start_date FROM Trip ORDER BY id") == trips)

        result = try BuiltCommand.migrate(["history", "--plan", Self.plan, "--database", database])
        #expect(result.status == 0, "\(result)")
        let last = try #require(result.stdout.split(separator: "\n").last)
        #expect(last.hasPrefix("4    3.0.0  2.0.0  revert  "), "\(result.stdout)")
        result = try BuiltCommand.migrate(["history", "--plan", Self.plan, "--database", database, "--format", "json"])
        let history = try #require((try result.json() as? [String: Any])?["history"] as? [[String: Any]])
        #expect(history.last?["kind"] as? String == "revert" && history.last?["from"] as? String == "3.0.0")
        result = try BuiltCommand.migrate([
            "history", "--plan", Self.plan, "--database", database, "--format", "markdown",
        ])
        #expect(result.stdout.contains("| 3.0.0 | 2.0.0 | revert |"), "\(result.stdout)")

        // The last entry is a revert: nothing to revert, nothing written.
        let before = try scratch.bytes(database)
        result = try BuiltCommand.migrate(["revert", "--plan", Self.plan, "--database", database, "--no-backup"])
        #expect(result.status == 5, "\(result)")
        #expect(
            result.stderr.contains(
                "nothing to revert in '\(database)': its last entry in the history is 'revert' at 2.0.0"))
        #expect(result.stderr.contains("fix: "))
        #expect(try scratch.bytes(database) == before)
    }

    @Test func dataTheNewerVersionAddedIsCountedAndRefusedUnlessAllowed() throws {
        let scratch = Scratch()
        let database = try Self.appliedToV3(scratch)
        try scratch.execute(database, "UPDATE Trip SET notes = 'keep me' WHERE id <= 2")
        let before = try scratch.bytes(database)

        var result = try BuiltCommand.migrate([
            "plan", "--plan", Self.plan, "--database", database, "--to", "2.0.0", "--format", "json",
        ])
        #expect(result.status == 5, "\(result)")
        let report = try #require(try result.json() as? [String: Any])
        let loss = try #require((report["dataLoss"] as? [[String: Any]])?.first)
        #expect(
            loss["table"] as? String == "Trip" && loss["column"] as? String == "notes" && loss["count"] as? Int == 2)
        #expect((report["stages"] as? [[String: Any]])?.first?["kind"] as? String == "revert")

        for format in ["text", "markdown", "sql"] {
            result = try BuiltCommand.migrate([
                "plan", "--plan", Self.plan, "--database", database, "--to", "2.0.0", "--allow-data-loss",
                "--format", format,
            ])
            #expect(result.status == 0, "\(format): \(result)")
            #expect(result.stdout.contains(#"ALTER TABLE "Trip" DROP COLUMN "notes""#), "\(format): \(result.stdout)")
        }

        for command in ["revert", "apply"] {
            result = try BuiltCommand.migrate(
                [command, "--plan", Self.plan, "--database", database, "--no-backup"]
                    + (command == "apply" ? ["--to", "2.0.0"] : []))
            #expect(result.status == 5, "\(command): \(result)")
            #expect(
                result.stderr.contains(
                    "the stage 3.0.0 → 2.0.0 drops 'Trip.notes': 2 non-empty values"), "\(command): \(result)")
            #expect(result.stderr.contains("fix: copy what must be kept elsewhere, then allow the loss"))
            #expect(try scratch.bytes(database) == before)
        }
        result = try BuiltCommand.migrate([
            "revert", "--plan", Self.plan, "--database", database, "--no-backup", "--allow-data-loss",
            "--deny-destructive",
        ])
        #expect(result.status == 5, "\(result)")
        #expect(try scratch.bytes(database) == before)
        result = try BuiltCommand.migrate([
            "revert", "--plan", Self.plan, "--database", database, "--no-backup", "--allow-data-loss",
        ])
        #expect(result.status == 0, "\(result)")
        #expect(
            try scratch.rows(database, "SELECT version FROM _schema_migrations ORDER BY seq DESC LIMIT 1") == [
                ["'2.0.0'"]
            ])
    }

    @Test func twoAppliesAreRevertedOneAtATime() throws {
        let scratch = Scratch()
        let database = try scratch.sampleTrips("trips.sqlite")
        var result = try BuiltCommand.sampleTrips(["apply", "--database", database, "--to", "2.0.0", "--no-backup"])
        #expect(result.status == 0, "\(result)")
        result = try BuiltCommand.sampleTrips(["apply", "--database", database, "--no-backup"])
        #expect(result.status == 0, "\(result)")
        result = try BuiltCommand.sampleTrips(["revert", "--database", database, "--no-backup"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("reverted 3.0.0 → 2.0.0 in "))
    }

    @Test func oneApplyPastACustomStageWithoutAWayBackIsRefusedUntouched() throws {
        let scratch = Scratch()
        let database = try scratch.sampleTrips("trips.sqlite")
        var result = try BuiltCommand.sampleTrips(["apply", "--database", database, "--no-backup"])
        #expect(result.status == 0, "\(result)")
        let before = try scratch.bytes(database)
        result = try BuiltCommand.sampleTrips(["revert", "--database", database])
        #expect(result.status == 5, "\(result)")
        #expect(
            result.stderr.contains(
                "cannot take the database back from 3.0.0 to 1.0.0: the custom stage 1.0.0 → 2.0.0 declares no way back"
            ), "\(result)")
        #expect(try scratch.bytes(database) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.directory.path) == ["trips.sqlite"])
    }

    @Test func revertRefusesToAndDatabasesWithNothingToRevert() throws {
        let scratch = Scratch()
        let database = try scratch.sampleTrips("trips.sqlite", at: Schema.Version(2, 0, 0))
        var result = try BuiltCommand.migrate([
            "revert", "--plan", Self.plan, "--database", database, "--to", "2.0.0",
        ])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("unknown option '--to' for 'revert'"))
        // Migrated from 1.0.0, a version the JSON plan does not declare (it starts at 2.0.0).
        var before = try scratch.bytes(database)
        result = try BuiltCommand.migrate(["revert", "--plan", Self.plan, "--database", database, "--no-backup"])
        #expect(result.status == 5, "\(result)")
        #expect(
            result.stderr.contains(
                "its last apply came from version 1.0.0, which the plan 'SampleTrips' does not declare"), "\(result)")
        #expect(try scratch.bytes(database) == before)
        // Created at the latest version: nothing to revert.
        let created = scratch.path("created.sqlite")
        result = try BuiltCommand.migrate(["apply", "--plan", Self.plan, "--database", created, "--create"])
        #expect(result.status == 0, "\(result)")
        before = try scratch.bytes(created)
        result = try BuiltCommand.migrate(["revert", "--plan", Self.plan, "--database", created])
        #expect(result.status == 5, "\(result)")
        #expect(
            result.stderr.contains(
                "nothing to revert in '\(created)': its last entry in the history is 'create' at 3.0.0"))
        #expect(try scratch.bytes(created) == before)
        result = try BuiltCommand.migrate([
            "revert", "--plan", Self.plan, "--database", scratch.path("missing.sqlite"), "--no-backup",
        ])
        #expect(result.status == 5, "\(result)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("missing.sqlite")))
        // Online changes go forward only: the dry run refuses as apply does.
        let current = scratch.path("current.sqlite")
        result = try BuiltCommand.migrate(["apply", "--plan", Self.plan, "--database", current, "--create"])
        #expect(result.status == 0, "\(result)")
        for command in ["plan", "apply"] {
            result = try BuiltCommand.migrate(
                [
                    command, "--plan", Self.plan, "--database", current, "--to", "2.0.0", "--online", "--no-backup",
                ].filter { command == "apply" || $0 != "--no-backup" })
            #expect(result.status == 5, "\(command): \(result)")
            #expect(
                result.stderr.contains("an online change goes forward only; the database is at 3.0.0"),
                "\(command): \(result)")
        }
        result = try BuiltCommand.migrate(["help", "revert"])
        #expect(result.status == 0 && result.stdout.contains("--allow-data-loss"), "\(result)")
    }
}
