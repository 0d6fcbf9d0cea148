import Foundation
import SchemaMigrations
import Testing

/// `MIGRATE_*` variables left over in a pipeline's environment, against what the command line
/// says. The command line wins: a variable only fills an option the command line leaves out, and
/// options that are one choice (`--database` / `--databases-from`, `--backup` / `--no-backup`,
/// `snapshot`'s `--plan` / `--database`) are filled from the environment only when the command
/// line gives none of them. An empty variable is unset. A flag's variable is 1, true, yes, on
/// (set) or 0, false, no, off (unset), in any case; anything else is a usage error naming it.
@Suite struct HostileEnvironmentTests {
    @Test func anExportedDatabaseIsNotMigratedOnTopOfAListOnTheCommandLine() throws {
        let scratch = Scratch()
        let fleet = try HostileFleet(scratch)
        let listed = try fleet.database("listed.sqlite")
        let exported = try fleet.database("exported.sqlite")
        let before = try scratch.bytes(exported)
        let list = scratch.path("list.txt")
        try (listed + "\n").write(toFile: list, atomically: true, encoding: .utf8)
        let result = try BuiltCommand.migrate(
            ["apply", "--plan", Scratch.jsonPlan, "--databases-from", list, "--no-backup", "--format", "json"],
            environment: ["MIGRATE_DATABASE": exported])
        #expect(result.status == 0, "\(result)")
        #expect(
            (try result.json() as? [String: Any])?["database"] as? String == listed, "one database: \(result.stdout)")
        #expect(
            try scratch.bytes(exported) == before,
            "MIGRATE_DATABASE is ignored: the command line chose --databases-from")
    }

    @Test func anExportedListIsNotMigratedOnTopOfADatabaseOnTheCommandLine() throws {
        let scratch = Scratch()
        let fleet = try HostileFleet(scratch)
        let given = try fleet.database("given.sqlite")
        let exported = try fleet.database("exported.sqlite")
        let before = try scratch.bytes(exported)
        let list = scratch.path("list.txt")
        try (exported + "\n").write(toFile: list, atomically: true, encoding: .utf8)
        let result = try BuiltCommand.migrate(
            ["apply", "--plan", Scratch.jsonPlan, "--database", given, "--no-backup", "--format", "json"],
            environment: ["MIGRATE_DATABASES_FROM": list])
        #expect(result.status == 0, "\(result)")
        #expect(
            (try result.json() as? [String: Any])?["database"] as? String == given, "one database: \(result.stdout)")
        #expect(
            try scratch.bytes(exported) == before,
            "MIGRATE_DATABASES_FROM is ignored: the command line chose --database")

        // With nothing on the command line, both variables fill the choice together, as both options would.
        let both = try BuiltCommand.migrate(
            ["status", "--plan", Scratch.jsonPlan, "--format", "json"],
            environment: ["MIGRATE_DATABASES_FROM": list, "MIGRATE_DATABASE": given])
        #expect(both.status == 3, "\(both)")
        #expect((try both.json() as? [[String: Any]])?.map { $0["database"] as? String } == [given, exported])
    }

    @Test func aFlagsVariableThatIsNotABooleanIsAUsageErrorNamingIt() throws {
        let scratch = Scratch()
        let (database, plan) = try DestructivePlan.make(in: scratch)
        let before = try scratch.bytes(database)
        for value in ["y", "2", "enabled", "nope", " 1", "true!"] {
            let result = try BuiltCommand.migrate(
                ["apply", "--plan", plan, "--database", database, "--no-backup"],
                environment: ["MIGRATE_DENY_DESTRUCTIVE": value])
            #expect(result.status == 2, "'\(value)': \(result)")
            #expect(
                result.stderr.hasPrefix(
                    "error: MIGRATE_DENY_DESTRUCTIVE: '\(value)' is not a boolean\n"
                        + "  1, true, yes or on sets --deny-destructive; 0, false, no or off leaves it unset\n\nusage: migrate apply "
                ), "'\(value)': \(result.stderr)")
            #expect(try scratch.bytes(database) == before, "'\(value)': the destructive plan was not applied")
        }
        // Every flag's variable alike, on every subcommand that has the flag.
        let flags: [(variable: String, arguments: [String])] = [
            ("MIGRATE_NO_BACKUP", ["apply", "--plan", plan, "--database", database]),
            ("MIGRATE_PROGRESS", ["status", "--plan", plan, "--database", database]),
            ("MIGRATE_CREATE", ["apply", "--plan", plan, "--database", database]),
            ("MIGRATE_SIMULATE", ["plan", "--plan", plan, "--database", database]),
            ("MIGRATE_SHOW_VALUES", ["plan", "--plan", plan, "--database", database]),
            ("MIGRATE_DENY_DESTRUCTIVE", ["lint", "--plan", plan]),
            ("MIGRATE_LEAVE_OUT_UNDECLARABLE", ["snapshot", "--database", database, "--output", scratch.path("out")]),
        ]
        for (variable, arguments) in flags {
            let result = try BuiltCommand.migrate(arguments, environment: [variable: "maybe"])
            #expect(result.status == 2, "\(variable): \(result)")
            #expect(
                result.stderr.hasPrefix("error: \(variable): 'maybe' is not a boolean\n"),
                "\(variable): \(result.stderr)")
        }
        #expect(try scratch.bytes(database) == before)
    }

    @Test func aFlagsVariableAcceptsOneTrueYesOnAndZeroFalseNoOffInAnyCase() throws {
        for value in ["1", "true", "YES", "On"] {
            let scratch = Scratch()
            let (database, plan) = try DestructivePlan.make(in: scratch)
            let result = try BuiltCommand.migrate(
                ["apply", "--plan", plan, "--database", database, "--no-backup"],
                environment: ["MIGRATE_DENY_DESTRUCTIVE": value])
            #expect(result.status == 5, "'\(value)' sets --deny-destructive: \(result)")
        }
        for value in ["0", "false", "No", "OFF", ""] {
            let scratch = Scratch()
            let (database, plan) = try DestructivePlan.make(in: scratch)
            let result = try BuiltCommand.migrate(
                ["apply", "--plan", plan, "--database", database, "--no-backup"],
                environment: ["MIGRATE_DENY_DESTRUCTIVE": value])
            #expect(result.status == 0, "'\(value)' leaves --deny-destructive unset: \(result)")
        }
    }

    /// `MIGRATE_NO_BACKUP=1` in the environment, `--backup PATH` on the command line: the backup goes to PATH.
    @Test func theCommandLinesBackupWinsOverAnExportedNoBackupAndTheOtherWayRound() throws {
        let scratch = Scratch()
        let fleet = try HostileFleet(scratch)
        let database = try fleet.database("app.sqlite")
        let backup = scratch.path("before.sqlite")
        let result = try BuiltCommand.migrate(
            ["apply", "--plan", Scratch.jsonPlan, "--database", database, "--backup", backup],
            environment: ["MIGRATE_NO_BACKUP": "1"])
        #expect(result.status == 0, "\(result)")
        #expect(try fleet.version(backup) == "2.0.0", "the backup is at PATH")
        #expect(try fleet.version(database) == "3.0.0")

        let other = try fleet.database("other.sqlite")
        let noBackup = try BuiltCommand.migrate(
            ["apply", "--plan", Scratch.jsonPlan, "--database", other, "--no-backup"],
            environment: ["MIGRATE_BACKUP": scratch.path("unwanted.sqlite")])
        #expect(noBackup.status == 0, "\(noBackup)")
        #expect(
            !FileManager.default.fileExists(atPath: scratch.path("unwanted.sqlite")),
            "--no-backup wins over MIGRATE_BACKUP")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: scratch.directory.path).filter {
                $0.hasPrefix("other.sqlite.backup")
            }.isEmpty)

        // Both variables set, nothing on the command line: a usage error naming both.
        let third = try fleet.database("third.sqlite")
        let both = try BuiltCommand.migrate(
            ["apply", "--plan", Scratch.jsonPlan, "--database", third],
            environment: ["MIGRATE_BACKUP": scratch.path("b.sqlite"), "MIGRATE_NO_BACKUP": "yes"])
        #expect(both.status == 2, "\(both)")
        #expect(
            both.stderr.hasPrefix("error: MIGRATE_BACKUP and MIGRATE_NO_BACKUP cannot be given together\n"),
            "\(both.stderr)")
        #expect(try fleet.version(third) == "2.0.0")
        // MIGRATE_NO_BACKUP=0 is no conflict.
        let off = try BuiltCommand.migrate(
            ["apply", "--plan", Scratch.jsonPlan, "--database", third],
            environment: ["MIGRATE_BACKUP": scratch.path("b.sqlite"), "MIGRATE_NO_BACKUP": "0"])
        #expect(off.status == 0, "\(off)")
        #expect(try fleet.version(scratch.path("b.sqlite")) == "2.0.0")
    }

    /// An empty variable is unset: it neither fills its option nor turns a flag off or on.
    @Test func anEmptyVariableIsUnset() throws {
        let scratch = Scratch()
        let fleet = try HostileFleet(scratch)
        let database = try fleet.database("app.sqlite")
        let missing = try BuiltCommand.migrate(
            ["status", "--plan", Scratch.jsonPlan], environment: ["MIGRATE_DATABASE": "", "MIGRATE_DATABASES_FROM": ""])
        #expect(missing.status == 2)
        #expect(missing.stderr.hasPrefix("error: missing --database PATH\n"), "\(missing.stderr)")
        let text = try BuiltCommand.migrate(
            ["status", "--plan", Scratch.jsonPlan, "--database", database],
            environment: [
                "MIGRATE_FORMAT": "", "MIGRATE_TO": "", "MIGRATE_JOBS": "", "MIGRATE_BUSY_TIMEOUT": "",
                "MIGRATE_PROGRESS": "",
            ])
        #expect(text.status == 3, "\(text)")
        #expect(text.stdout.hasPrefix("database: \(database)\n"), "text, the default format: \(text.stdout)")
        let backedUp = try BuiltCommand.migrate(
            ["apply", "--plan", Scratch.jsonPlan, "--database", database, "--format", "json"],
            environment: ["MIGRATE_NO_BACKUP": "", "MIGRATE_BACKUP": ""])
        #expect(backedUp.status == 0, "\(backedUp)")
        #expect((try backedUp.json() as? [String: Any])?["backup"] is String, "the default backup beside the database")
    }

    /// Each value option's variable, set to something wrong, loses to the command line's value.
    @Test func theCommandLinesValueWinsOverEveryVariable() throws {
        let scratch = Scratch()
        let fleet = try HostileFleet(scratch)
        let database = try fleet.database("app.sqlite")
        let decoy = try fleet.database("decoy.sqlite")
        let decoyBytes = try scratch.bytes(decoy)
        let environment = [
            "MIGRATE_PLAN": scratch.path("no-plan"), "MIGRATE_DATABASE": decoy, "MIGRATE_TO": "9.0.0",
            "MIGRATE_FORMAT": "markdown",
            "MIGRATE_TRANSACTION": "all", "MIGRATE_JOBS": "0", "MIGRATE_BUSY_TIMEOUT": "-1", "MIGRATE_BACKUP": decoy,
            "MIGRATE_DATABASES_FROM": scratch.path("no-list"), "MIGRATE_CREATE": "nonsense-is-never-read",
        ]
        let result = try BuiltCommand.migrate(
            [
                "apply", "--plan", Scratch.jsonPlan, "--database", database, "--to", "3.0.0", "--format", "json",
                "--transaction", "stage", "--jobs", "1", "--busy-timeout", "1", "--no-backup", "--create",
            ],
            environment: environment)
        #expect(result.status == 0, "\(result)")
        #expect((try result.json() as? [String: Any])?["currentVersion"] as? String == "3.0.0")
        #expect(try scratch.bytes(decoy) == decoyBytes)
    }

    @Test func theHelpStatesTheRules() throws {
        let apply = try BuiltCommand.migrate(["help", "apply"])
        #expect(
            apply.stdout.contains(
                "the command line wins: a variable only fills an option the command line leaves out, and options that are one choice "
                    + "(--database and --databases-from; --backup and --no-backup) only when the command line gives none of them."
            ))
        #expect(
            apply.stdout.contains(
                "A flag's variable is 1, true, yes, on (set) or 0, false, no, off (unset), in any case; any other value is a usage error."
            ))
        #expect(apply.stdout.contains("A path that exists is that file, whatever characters it holds."))
        #expect(apply.stdout.contains("The lines of --databases-from are paths, never patterns."))
        let lint = try BuiltCommand.migrate(["help", "lint"])
        #expect(!lint.stdout.contains("one choice") && !lint.stdout.contains("--databases-from"), "only what lint has")
    }
}
