import Foundation
import SchemaMigrations
import Testing

@testable import MigrateCommand

/// The values a user can give an option by mistake: empty, negative, huge, not a number, not a
/// version, the right word in the wrong case, two versions the wrong way round, an option given
/// twice. Each is a usage error (exit 2) naming the option, or the variable when the environment
/// gave it, and no database is touched.
@Suite struct HostileOptionValueTests {
    /// Runs the built `migrate` and expects a usage error whose message starts with `message`.
    static func expectUsageError(
        _ arguments: [String], environment: [String: String] = [:], _ message: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let result = try BuiltCommand.migrate(arguments, environment: environment)
        #expect(result.status == 2, "\(arguments) \(environment): \(result)", sourceLocation: sourceLocation)
        #expect(
            result.stderr.hasPrefix("error: " + message), "\(arguments) \(environment): \(result.stderr)",
            sourceLocation: sourceLocation)
    }

    /// Every option with a value, of every subcommand, in its file and its cluster form.
    @Test func anEmptyValueIsAUsageErrorForEveryOptionOfEverySubcommand() throws {
        var checked = 0
        for subcommand in BuiltInSubcommands.all(hasSwiftPlan: false) {
            for option in subcommand.options where option.takesValue {
                try Self.expectUsageError([subcommand.name, option.name, ""], "\(option.name): the value is empty\n")
                try Self.expectUsageError([subcommand.name, option.name + "="], "\(option.name): the value is empty\n")
                checked += 1
            }
            for option in subcommand.options where !option.takesValue {
                try Self.expectUsageError([subcommand.name, option.name + "="], "\(option.name) takes no value\n")
            }
            guard ClusterSubcommands.names.contains(subcommand.name) else { continue }
            for option in ClusterSubcommands.variant(of: subcommand, hasSwiftPlan: false).options
            where option.takesValue {
                let words = option.name == "--cluster" ? [] : ["--cluster", "127.0.0.1:1"]
                try Self.expectUsageError(
                    [subcommand.name] + words + [option.name, ""], "\(option.name): the value is empty\n")
                checked += 1
            }
        }
        #expect(checked >= 50, "every option was tried: \(checked)")
    }

    @Test func aBusyTimeoutMustBeANumberFromZeroToWhatSQLiteCanWait() throws {
        let scratch = Scratch()
        let database = try HostileFleet(scratch).database("app.sqlite")
        let before = try scratch.bytes(database)
        let subcommands: [[String]] = [
            ["status"], ["plan"], ["apply", "--no-backup"], ["verify"], ["history"],
            ["baseline", "--version", "2.0.0"],
        ]
        for subcommand in subcommands {
            for bad in ["-1", "-0.001", "nan", "inf", "-inf", "1e400", "abc", "5s", "1,5"] {
                try Self.expectUsageError(
                    subcommand + ["--plan", Scratch.jsonPlan, "--database", database, "--busy-timeout", bad],
                    "--busy-timeout: '\(bad)' is not a number of at least 0\n")
            }
            // SQLite counts the wait in milliseconds in a C int: more would have crashed the command.
            for huge in ["2147484", "99999999", "1e300"] {
                try Self.expectUsageError(
                    subcommand + ["--plan", Scratch.jsonPlan, "--database", database, "--busy-timeout", huge],
                    "--busy-timeout: '\(huge)' is more than 2147483 seconds, the longest SQLite can wait\n")
            }
        }
        for good in ["0", "0.25", "2147483"] {
            let result = try BuiltCommand.migrate([
                "status", "--plan", Scratch.jsonPlan, "--database", database, "--busy-timeout", good,
            ])
            #expect(result.status == 3, "\(good): \(result)")
        }
        try Self.expectUsageError(
            ["status", "--plan", Scratch.jsonPlan, "--database", database], environment: ["MIGRATE_BUSY_TIMEOUT": "-1"],
            "MIGRATE_BUSY_TIMEOUT: '-1' is not a number of at least 0\n")
        try Self.expectUsageError(
            ["status", "--plan", Scratch.jsonPlan, "--database", database],
            environment: ["MIGRATE_BUSY_TIMEOUT": "1e10"],
            "MIGRATE_BUSY_TIMEOUT: '1e10' is more than 2147483 seconds")
        let wins = try BuiltCommand.migrate(
            ["status", "--plan", Scratch.jsonPlan, "--database", database, "--busy-timeout", "1"],
            environment: ["MIGRATE_BUSY_TIMEOUT": "-1"])
        #expect(wins.status == 3, "the command line's value wins over a bad variable: \(wins)")
        #expect(try scratch.bytes(database) == before)
    }

    @Test func jobsMustBeAWholeNumberOfAtLeastOne() throws {
        let scratch = Scratch()
        let fleet = try HostileFleet(scratch)
        let databases = try ["a.sqlite", "b.sqlite"].map { try fleet.database($0) }
        let before = try databases.map { try scratch.bytes($0) }
        let named = databases.flatMap { ["--database", $0] }
        for subcommand in [["status"], ["plan"], ["apply", "--no-backup"], ["verify"], ["history"]] {
            for bad in ["0", "-1", "1.5", "two", " 2", "99999999999999999999", "0x2"] {
                try Self.expectUsageError(
                    subcommand + ["--plan", Scratch.jsonPlan, "--jobs", bad] + named,
                    "--jobs: '\(bad)' is not a whole number of at least 1\n")
            }
        }
        try Self.expectUsageError(
            ["status", "--plan", Scratch.jsonPlan] + named, environment: ["MIGRATE_JOBS": "0"],
            "MIGRATE_JOBS: '0' is not a whole number of at least 1\n")
        // More jobs than databases is no more workers than databases.
        for good in ["1", "+2", "1000000"] {
            let result = try BuiltCommand.migrate(["status", "--plan", Scratch.jsonPlan, "--jobs", good] + named)
            #expect(result.status == 3, "\(good): \(result)")
        }
        #expect(try databases.map { try scratch.bytes($0) } == before)
    }

    @Test func versionsMustBeDeclaredVersionsInTheRightOrder() throws {
        let scratch = Scratch()
        let database = try HostileFleet(scratch).database("app.sqlite")
        for bad in ["two", "-1.0.0", "2.0.0.0", "2.0.0-beta", " 2.0.0", "99999999999999999999.0.0"] {
            try Self.expectUsageError(
                ["apply", "--plan", Scratch.jsonPlan, "--database", database, "--no-backup", "--to", bad],
                "--to: '\(bad)' is not a version like 2.0.0\n")
        }
        try Self.expectUsageError(
            ["apply", "--plan", Scratch.jsonPlan, "--database", database, "--no-backup", "--to", "9.0.0"],
            "--to 9.0.0: the plan declares 2.0.0, 3.0.0\n")
        try Self.expectUsageError(
            ["apply", "--plan", Scratch.jsonPlan, "--database", database, "--no-backup"],
            environment: ["MIGRATE_TO": "9.0.0"],
            "MIGRATE_TO 9.0.0: the plan declares 2.0.0, 3.0.0\n")
        try Self.expectUsageError(
            ["apply", "--plan", Scratch.jsonPlan, "--database", database, "--to", "2.0.0", "--to", "3.0.0"],
            "--to is given more than once\n")
        #expect(try HostileFleet.version(database) == "2.0.0")

        let output = scratch.path("snapshot")
        try Self.expectUsageError(
            ["snapshot", "--plan", Scratch.jsonPlan, "--output", output, "--from", "3.0.0", "--through", "2.0.0"],
            "--from 3.0.0 is after --through 2.0.0\n")
        try Self.expectUsageError(
            ["snapshot", "--plan", Scratch.jsonPlan, "--output", output, "--through", "2.0.0"],
            environment: ["MIGRATE_FROM": "3.0.0"],
            "MIGRATE_FROM 3.0.0 is after --through 2.0.0\n")
        try Self.expectUsageError(
            ["snapshot", "--plan", Scratch.jsonPlan, "--output", output, "--from", "9.0.0"],
            "--from/--through: version 9.0.0 is not declared by the plan 'SampleTrips'")
        #expect(!FileManager.default.fileExists(atPath: output), "nothing written")

        // A pipeline's own MIGRATE_VERSION (its app's version, say) is baseline's --version.
        try Self.expectUsageError(
            ["baseline", "--plan", Scratch.jsonPlan, "--database", database],
            environment: ["MIGRATE_VERSION": "v1.4-beta"],
            "MIGRATE_VERSION: 'v1.4-beta' is not a version like 2.0.0\n")
    }

    @Test func choicesAreExactAndAVariableOutsideThemIsNamed() throws {
        let scratch = Scratch()
        let database = try HostileFleet(scratch).database("app.sqlite")
        for bad in ["JSON", "json ", "yaml", "markdown"] {
            try Self.expectUsageError(
                ["apply", "--plan", Scratch.jsonPlan, "--database", database, "--format", bad],
                "--format: '\(bad)' is not one of text, json\n")
        }
        for bad in ["PLAN", "all", "stages"] {
            try Self.expectUsageError(
                ["apply", "--plan", Scratch.jsonPlan, "--database", database, "--transaction", bad],
                "--transaction: '\(bad)' is not one of plan, stage\n")
        }
        // MIGRATE_FORMAT=markdown, right for plan, is wrong for apply; --format on the command line wins.
        try Self.expectUsageError(
            ["apply", "--plan", Scratch.jsonPlan, "--database", database], environment: ["MIGRATE_FORMAT": "markdown"],
            "MIGRATE_FORMAT: 'markdown' is not one of text, json\n  unset MIGRATE_FORMAT, or give --format on the command line\n"
        )
        let wins = try BuiltCommand.migrate(
            ["status", "--plan", Scratch.jsonPlan, "--database", database, "--format", "text"],
            environment: ["MIGRATE_FORMAT": "markdown"])
        #expect(wins.status == 3, "\(wins)")
        #expect(try HostileFleet.version(database) == "2.0.0")
    }

    @Test func swappedOrMissingValuesAreNamed() throws {
        let scratch = Scratch()
        let database = try HostileFleet(scratch).database("app.sqlite")
        let before = try scratch.bytes(database)
        // --plan and --database swapped: the plan cannot be loaded, the database is not opened.
        let swapped = try BuiltCommand.migrate([
            "apply", "--plan", database, "--database", Scratch.jsonPlan, "--no-backup",
        ])
        #expect(swapped.status == 2, "\(swapped)")
        #expect(
            swapped.stderr.hasPrefix(
                "migrate: the plan cannot be loaded\nerror: '\(database)' is a file, not a plan directory\n"),
            "\(swapped.stderr)")
        try Self.expectUsageError(
            ["apply", "--database", "--plan", Scratch.jsonPlan], "missing value for --database PATH\n")
        try Self.expectUsageError(
            ["apply", "--plan", Scratch.jsonPlan, "--database", database, "--format=json=text"],
            "--format: 'json=text' is not one of text, json\n")
        try Self.expectUsageError(
            ["apply", "--plan", Scratch.jsonPlan, database],
            "unexpected argument '\(database)'\n  a database is given with --database '\(database)'\n")
        #expect(try scratch.bytes(database) == before)
    }
}
