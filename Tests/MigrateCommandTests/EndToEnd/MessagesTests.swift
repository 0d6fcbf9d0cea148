import Foundation
import MigrateCommand
import SchemaMigrations
import Testing

/// Each message a pipeline meets names what happened and the fix.
@Suite struct MessagesTests {
    @Test func planPointingAtAFileSaysToPassItsDirectory() throws {
        let file = Scratch.jsonPlan + "/plan.json"
        let result = try BuiltCommand.migrate(["status", "--plan", file, "--database", "x.sqlite"])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("error: '\(file)' is a file, not a plan directory\n"))
        #expect(result.stderr.contains("  fix: pass the directory holding it: --plan \(Scratch.jsonPlan)\n"))
    }

    /// A database recorded under the plan 'SampleTrips', and a plan.json naming its plan twice,
    /// first as 'Other': read one way, the database would be unversioned; the file is refused.
    @Test func aPlanFileNamingAKeyTwiceIsRefusedNamingTheKeyAndBothValues() throws {
        let scratch = Scratch()
        let database = try scratch.sampleTrips("named.sqlite", at: Schema.Version(3, 0, 0))
        let plan = scratch.path("plan")
        try FileManager.default.copyItem(atPath: Scratch.jsonPlan, toPath: plan)
        let file = plan + "/plan.json"
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let edited = text.replacingOccurrences(
            of: #""name": "SampleTrips","#, with: #""name": "Other", "name": "SampleTrips","#)
        #expect(edited != text)
        try Data(edited.utf8).write(to: URL(fileURLWithPath: file))
        let result = try BuiltCommand.migrate(["status", "--plan", plan, "--database", database])
        #expect(result.status == 2, "\(result)")
        #expect(
            result.stderr.contains(
                #"error: '\#(file)' names the key 'name' twice, with different values: "Other" and "SampleTrips""#
                    + "\n"),
            "\(result)")
        #expect(result.stderr.contains("  fix: keep the value you mean and remove the other\n"))
        #expect(result.stdout.isEmpty)
    }

    @Test func aDatabaseLockedExclusivelyNamesTheLockAndTheFix() throws {
        let scratch = Scratch()
        let database = try scratch.sampleTrips("locked.sqlite", at: Schema.Version(2, 0, 0))
        let before = try scratch.bytes(database)
        let holder = try SQLiteConnection(path: database, mode: .readWrite)
        try holder.execute("BEGIN EXCLUSIVE")
        try holder.execute("UPDATE Trip SET destination = destination")
        let result = try BuiltCommand.migrate([
            "status", "--plan", Scratch.jsonPlan, "--database", database, "--busy-timeout", "0.1",
        ])
        try holder.execute("ROLLBACK")
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("another connection holds a lock on it"), "\(result)")
        #expect(result.stderr.contains("(SQLITE_BUSY)"))
        #expect(
            result.stderr.contains(
                "  fix: wait for the other process to finish (a long transaction, an open sqlite3 shell), then retry; or let it wait longer: --busy-timeout SECONDS"
            ))
        #expect(try scratch.bytes(database) == before)
    }

    @Test func verifyOnAnUnversionedCurrentDatabaseSaysWhatIsPending() throws {
        let scratch = Scratch()
        let database = try scratch.sampleTrips("v3.sqlite", at: Schema.Version(3, 0, 0))
        try scratch.execute(database, "DROP TABLE _schema_migrations")
        let result = try BuiltCommand.migrate(["verify", "--plan", Scratch.jsonPlan, "--database", database])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.stdout == """
                database: \(database)
                no version recorded; the tables match version 3.0.0
                pending: recording version 3.0.0 (apply records it)

                """)
    }

    @Test func versionHelpOfHelpAndDidYouMean() throws {
        var result = try BuiltCommand.migrate(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("migrate \(MigrateCommand.version) (SchemaMigrations, SQLite 3."))
        result = try BuiltCommand.migrate(["help", "--help"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.hasPrefix("usage: migrate <subcommand> [options]\n"))
        result = try BuiltCommand.migrate(["stauts"])
        #expect(result.status == 2)
        #expect(
            result.stderr.hasPrefix(
                "error: unknown subcommand 'stauts'\n  did you mean 'status'?\n\nusage: migrate <subcommand>"))
    }

    @Test func markdownShowsCountsNotValuesUnlessAskedAndThenEscapesThem() throws {
        let scratch = Scratch()
        let database = try scratch.sampleTrips("v1.sqlite")
        try scratch.execute(
            database, "INSERT INTO Trip (name) VALUES ('<img src=x>|**boom**'), ('<img src=x>|**boom**')")
        let before = try scratch.bytes(database)
        let counts = try BuiltCommand.sampleTrips(["plan", "--database", database, "--format", "markdown"])
        #expect(counts.status == 0, "\(counts)")
        #expect(
            counts.stdout.contains("(name): 4 values shared by several rows (8 rows among the 4 most shared values)"),
            "\(counts.stdout)")
        #expect(
            !counts.stdout.contains("boom") && !counts.stdout.contains("Trip 0"),
            "no value from the database in a pull request")

        let values = try BuiltCommand.sampleTrips([
            "plan", "--database", database, "--format", "markdown", "--show-values",
        ])
        #expect(values.status == 0)
        #expect(values.stdout.contains("'&lt;img src=x&gt;\\|\\*\\*boom\\*\\*' ×2"), "\(values.stdout)")
        #expect(!values.stdout.contains("<img"))
        #expect(try scratch.bytes(database) == before)
    }

    @Test func everyOptionComesFromTheEnvironmentAndTheCommandLineWins() throws {
        let scratch = Scratch()
        let database = try scratch.sampleTrips("v2.sqlite", at: Schema.Version(2, 0, 0))
        let environment = [
            "MIGRATE_DATABASE": database, "MIGRATE_PLAN": Scratch.jsonPlan, "MIGRATE_FORMAT": "json",
            "MIGRATE_NO_BACKUP": "1",
        ]
        let captured = CapturedConsole()
        #expect(
            MigrateCommand(name: "migrate").run(["status"], console: captured.console, environment: environment)
                == .pending)
        #expect(
            (try JSONSerialization.jsonObject(with: Data(captured.output.utf8)) as? [String: Any])?["currentVersion"]
                as? String == "2.0.0")

        let text = CapturedConsole()
        #expect(
            MigrateCommand(name: "migrate").run(
                ["apply", "--format", "text"], console: text.console, environment: environment) == .success)
        #expect(text.output.hasPrefix("database: \(database)\nmigrated 2.0.0 → 3.0.0"))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: scratch.directory.path) == ["v2.sqlite"],
            "MIGRATE_NO_BACKUP=1 is --no-backup")

        let help = CapturedConsole()
        _ = MigrateCommand(name: "migrate").run(["help", "apply"], console: help.console, environment: [:])
        #expect(help.output.contains("  --busy-timeout SECONDS"))
        #expect(help.output.contains("$MIGRATE_BUSY_TIMEOUT"))
        #expect(help.output.contains("$MIGRATE_NO_BACKUP=1"))
    }
}
