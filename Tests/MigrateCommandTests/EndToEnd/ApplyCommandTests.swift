import Foundation
import SchemaMigrations
import Testing

/// `apply` through the built executables: the README's first command, backups, a lock held by
/// another connection, drift, progress and `--to`.
@Suite struct ApplyCommandTests {
    @Test func theReadmeFlowBuildsAFixtureShowsTheDryRunAndApplies() throws {
        let scratch = Scratch()
        let database = scratch.path("trips.sqlite")
        var result = try BuiltCommand.sampleTrips(["fixture", "--database", database, "--trips", "40"])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.stdout
                == "created a V1 SampleTrips database with 40 trips (every fourth shares a name) at \(database)\n")
        #expect(try scratch.rows(database, "SELECT count(*), count(DISTINCT name) FROM Trip") == [["40", "30"]])

        result = try BuiltCommand.sampleTrips(["plan", "--database", database])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.hasPrefix("database: \(database)\ncurrent version: 1.0.0\ntarget version:  3.0.0\n"))

        result = try BuiltCommand.sampleTrips(["apply", "--database", database])
        #expect(result.status == 0, "\(result)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines[0] == "database: \(database)")
        #expect(lines[1].hasPrefix("migrated 1.0.0 → 3.0.0 in "))
        #expect(lines[2] == "  stage 1.0.0 → 2.0.0 (custom): Create unique index Trip_name_unique on Trip(name)")
        #expect(lines[3].hasPrefix("  stage 2.0.0 → 3.0.0 (lightweight): Rename column Trip.start_date to startDate; "))
        #expect(lines[4].hasPrefix("backup: \(database).backup-"))
        #expect(result.stderr.isEmpty, "no progress when standard error is not a terminal")
        #expect(try scratch.rows(database, "SELECT count(*), min(startDate) > 0 FROM Trip") == [["30", "1"]])

        // The backup holds the database as it was: V1, every trip.
        let backup = String(lines[4].dropFirst("backup: ".count))
        #expect(try scratch.rows(backup, "SELECT count(*) FROM Trip") == [["40"]])
        #expect(try scratch.rows(backup, "SELECT version FROM _schema_migrations") == [["'1.0.0'"]])

        // Again: nothing to do, nothing written, no second backup.
        let before = try scratch.bytes(database)
        result = try BuiltCommand.sampleTrips(["apply", "--database", database])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "database: \(database)\nup to date at 3.0.0: nothing written\n")
        #expect(try scratch.bytes(database) == before)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: scratch.directory.path).sorted() == [
                "trips.sqlite", backup.split(separator: "/").last.map(String.init)!,
            ])
    }

    @Test func aBackupGoesWhereTheOptionsSay() throws {
        let scratch = Scratch()
        let first = try scratch.sampleTrips("first.sqlite")
        let chosen = scratch.path("chosen.backup")
        var result = try BuiltCommand.sampleTrips([
            "apply", "--database", first, "--backup", chosen, "--format", "json",
        ])
        #expect(result.status == 0, "\(result)")
        let object = try #require(try result.json() as? [String: Any])
        #expect(object["backup"] as? String == chosen)
        #expect(object["outcome"] as? String == "migrated")
        #expect(object["fromVersion"] as? String == "1.0.0" && object["currentVersion"] as? String == "3.0.0")
        #expect((object["stages"] as? [[String: Any]])?.map { $0["kind"] as? String } == ["custom", "lightweight"])
        #expect(try scratch.rows(chosen, "SELECT version FROM _schema_migrations") == [["'1.0.0'"]])

        // A backup never overwrites a file.
        let second = try scratch.sampleTrips("second.sqlite")
        result = try BuiltCommand.sampleTrips(["apply", "--database", second, "--backup", chosen])
        #expect(result.status == 2, "\(result)")
        #expect(
            result.stderr.hasPrefix(
                "error: --backup \(chosen): a file is there already; a backup never overwrites one, so choose a new path\n\nusage: "
            ))

        result = try BuiltCommand.sampleTrips(["apply", "--database", second, "--no-backup"])
        #expect(result.status == 0, "\(result)")
        #expect(!result.stdout.contains("backup"))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: scratch.directory.path).sorted() == [
                "chosen.backup", "first.sqlite", "second.sqlite",
            ])
    }

    @Test func aLockHeldByAnotherConnectionFailsWithStatus6AndChangesNothing() throws {
        let scratch = Scratch()
        let database = try scratch.sampleTrips("v2.sqlite", at: Schema.Version(2, 0, 0))
        let before = try scratch.bytes(database)
        let holder = try SQLiteConnection(path: database, mode: .readWrite)
        try holder.execute("BEGIN IMMEDIATE")
        let result = try BuiltCommand.migrate([
            "apply", "--plan", Scratch.jsonPlan, "--database", database, "--busy-timeout", "0.2",
        ])
        try holder.execute("ROLLBACK")
        #expect(result.status == 6, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr.hasPrefix(
                "error: another connection held the database's write lock for longer than the busy timeout (waited 0.2 s); nothing was done\n"
            ))
        #expect(result.stderr.contains("(SQLITE_BUSY): database is locked"))
        #expect(try scratch.bytes(database) == before)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: scratch.directory.path) == ["v2.sqlite"],
            "the backup of an unchanged database is not kept")
    }

    @Test func aDriftedDatabaseIsNotAppliedAndExits4() throws {
        let scratch = Scratch()
        let database = try scratch.sampleTrips("v2.sqlite", at: Schema.Version(2, 0, 0))
        try scratch.execute(database, "ALTER TABLE Trip ADD COLUMN rating INTEGER")
        let before = try scratch.bytes(database)
        let result = try BuiltCommand.migrate(["apply", "--plan", Scratch.jsonPlan, "--database", database])
        #expect(result.status == 4, "\(result)")
        #expect(
            result.stderr.hasPrefix(
                "error: the database's schema no longer matches version 2.0.0, which its metadata records\n"))
        #expect(try scratch.bytes(database) == before)
    }

    @Test func progressGoesToStandardErrorWhenAskedAndToStopsAtAVersion() throws {
        let scratch = Scratch()
        let database = try scratch.sampleTrips("v1.sqlite")
        var result = try BuiltCommand.sampleTrips([
            "apply", "--database", database, "--to", "2.0.0", "--progress", "--no-backup",
        ])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("migrated 1.0.0 → 2.0.0 in "))
        let progress = result.stderr.split(separator: "\n")
        #expect(progress.count == 2)
        #expect(
            progress[0].hasPrefix("[") && progress[0].hasSuffix("] \(database): 1.0.0 → 2.0.0 [1/2] willMigrate runs"))
        #expect(
            progress[1].hasPrefix("[")
                && progress[1].hasSuffix(
                    "] \(database): 1.0.0 → 2.0.0 [2/2] Create unique index Trip_name_unique on Trip(name)")
        )

        result = try BuiltCommand.sampleTrips(["status", "--database", database])
        #expect(result.status == 3)
        #expect(result.stdout.contains("current version: 2.0.0\n"))
    }

    @Test func denyDestructiveOnApplyRefusesBeforeWriting() throws {
        let scratch = Scratch()
        let (database, plan) = try DestructivePlan.make(in: scratch)
        let before = try scratch.bytes(database)
        var result = try BuiltCommand.migrate(["apply", "--plan", plan, "--database", database, "--deny-destructive"])
        #expect(result.status == 5, "\(result)")
        #expect(result.stderr.hasPrefix("error: refused by --deny-destructive: 1 step can lose data\n"))
        #expect(try scratch.bytes(database) == before)
        result = try BuiltCommand.migrate(["apply", "--plan", plan, "--database", database, "--no-backup"])
        #expect(result.status == 0, "\(result)")
        #expect(try scratch.rows(database, "SELECT text FROM Note ORDER BY id") == [["'a'"], ["'b'"], ["'c'"]])
    }

    @Test func anEmptyFileGetsTheLatestSchemaAndAnOlderTargetPastACustomStageIsRefused() throws {
        let scratch = Scratch()
        let database = scratch.path("new.sqlite")
        try Data().write(to: URL(fileURLWithPath: database))
        var result = try BuiltCommand.sampleTrips(["apply", "--database", database, "--no-backup"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.split(separator: "\n")[1].hasPrefix("created version 3.0.0 in an empty database in "))
        #expect(
            result.stdout.contains(
                "\n  create 3.0.0: Create table Trip (5 columns, 2 indexes); Create table BucketListItem (5 columns, 1 index); Create table LivingAccommodation (3 columns, 1 index)\n"
            ))

        result = try BuiltCommand.sampleTrips(["plan", "--database", database, "--to", "1.0.0"])
        #expect(result.status == 5, "\(result)")
        #expect(
            result.stderr.contains(
                "cannot take the database back from 3.0.0 to 1.0.0: the custom stage 1.0.0 → 2.0.0 declares no way back"
            ))
    }
}
