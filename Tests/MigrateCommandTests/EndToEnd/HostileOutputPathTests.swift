import Foundation
import SchemaMigrations
import Testing

@testable import MigrateCommand

/// Where the command writes (`--backup`, `--output`) and what it reads besides databases
/// (`--plan`, `snapshot`'s and `scaffold`'s `--database`), given paths that collide with what is
/// there, with each other, or with names the command itself generates (`app.sqlite-2.sql`,
/// `app.sqlite.backup-…`). Nothing is ever overwritten that the user did not name, and a path
/// with glob characters is a plain path.
@Suite struct HostileOutputPathTests {
    @Test func aBackupPathIsNeverAnExistingFileTheDatabaseItselfOrAPattern() throws {
        let scratch = Scratch()
        let fleet = try HostileFleet(scratch)
        let database = try fleet.database("app.sqlite")
        let taken = try fleet.database("taken.sqlite")
        let before = try scratch.bytes(database)
        for path in [taken, database] {
            try HostileOptionValueTests.expectUsageError(
                ["apply", "--plan", Scratch.jsonPlan, "--database", database, "--backup", path],
                "--backup \(path): a file is there already; a backup never overwrites one, so choose a new path\n")
        }
        try HostileOptionValueTests.expectUsageError(
            ["apply", "--plan", Scratch.jsonPlan, "--database", database], environment: ["MIGRATE_BACKUP": taken],
            "MIGRATE_BACKUP \(taken): a file is there already")
        try HostileOptionValueTests.expectUsageError(
            ["apply", "--plan", Scratch.jsonPlan, "--database", database, "--database", taken, "--backup", taken],
            "--backup \(taken): with several databases it must name a directory, and a file is there\n")
        #expect(try scratch.bytes(database) == before)

        // Glob characters in a backup path are characters: that very file is written.
        let literal = scratch.path("b[1]*?.bak")
        let result = try BuiltCommand.migrate([
            "apply", "--plan", Scratch.jsonPlan, "--database", database, "--backup", literal,
        ])
        #expect(result.status == 0, "\(result)")
        #expect(try fleet.version(literal) == "2.0.0")
        #expect(try fleet.version(database) == "3.0.0")
    }

    /// The backups `apply` leaves beside a database match `dir/*`, not `dir/*.sqlite`: the
    /// expansion shown says which a pattern picked up.
    @Test func backupsBesideADatabaseShowInABroadPatternsExpansion() throws {
        let scratch = Scratch()
        let fleet = try HostileFleet(scratch)
        let database = try fleet.database("dbs/app.sqlite")
        let applied = try BuiltCommand.migrate([
            "apply", "--plan", Scratch.jsonPlan, "--database", database, "--format", "json",
        ])
        #expect(applied.status == 0, "\(applied)")
        let backup = try #require((try applied.json() as? [String: Any])?["backup"] as? String)
        let narrow = try BuiltCommand.migrate([
            "status", "--plan", Scratch.jsonPlan, "--database", scratch.path("dbs/*.sqlite"),
        ])
        #expect(narrow.status == 0, "\(narrow)")
        #expect(narrow.stderr.hasSuffix("it matches 1 file\n  \(database)\n"), "\(narrow.stderr)")
        let broad = try BuiltCommand.migrate([
            "status", "--plan", Scratch.jsonPlan, "--database", scratch.path("dbs/*"),
        ])
        #expect(broad.status == 3, "the backup, at 2.0.0, is pending: \(broad)")
        #expect(broad.stderr.hasSuffix("it matches 2 files\n  \(database)\n  \(backup)\n"), "\(broad.stderr)")
    }

    @Test func scriptsOfSameNamedDatabasesAndOfADatabaseNamedLikeAGeneratedScriptNeverCollide() throws {
        let scratch = Scratch()
        let fleet = try HostileFleet(scratch)
        // b/app.sqlite's script would be app.sqlite-2.sql: a database named app.sqlite-2 is there too.
        let databases = try ["a/app.sqlite", "c/app.sqlite-2", "b/app.sqlite"].map { try fleet.database($0) }
        let output = scratch.path("scripts")
        let run = try BuiltCommand.migrate(
            ["plan", "--plan", Scratch.jsonPlan, "--format", "sql", "--output", output, "--jobs", "1"]
                + databases.flatMap { ["--database", $0] })
        #expect(run.status == 0, "\(run)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: output).sorted() == [
                "app.sqlite-2.sql", "app.sqlite-3.sql", "app.sqlite.sql",
            ])
        #expect(
            run.stdout
                == ["app.sqlite.sql", "app.sqlite-2.sql", "app.sqlite-3.sql"].map { "wrote \(output)/\($0)\n" }.joined(
                    separator: "\n"), "\(run.stdout)")

        let file = try fleet.database("a-file")
        try HostileOptionValueTests.expectUsageError(
            ["plan", "--plan", Scratch.jsonPlan, "--database", databases[0], "--format", "sql", "--output", file],
            "--output \(file): a file is there, not a directory\n")
        try HostileOptionValueTests.expectUsageError(
            ["plan", "--plan", Scratch.jsonPlan, "--database", databases[0], "--output", output],
            "--output is for --format sql\n")
        // A MIGRATE_OUTPUT exported for snapshot reaches plan too, and is named as the variable.
        try HostileOptionValueTests.expectUsageError(
            ["plan", "--plan", Scratch.jsonPlan, "--database", databases[0]], environment: ["MIGRATE_OUTPUT": output],
            "MIGRATE_OUTPUT is for --format sql\n")
    }

    @Test func snapshotAndScaffoldOutputsThatAreTheWrongKindOfThing() throws {
        let scratch = Scratch()
        let fleet = try HostileFleet(scratch)
        let database = try fleet.database("app.sqlite")
        let file = try fleet.database("a-file")
        let before = try scratch.bytes(file)
        try HostileOptionValueTests.expectUsageError(
            ["snapshot", "--plan", Scratch.jsonPlan, "--output", file],
            "--output \(file): a file is there, not a directory\n")
        try HostileOptionValueTests.expectUsageError(
            ["snapshot", "--database", database, "--output", file],
            "--output \(file): a file is there, not a directory\n")
        try HostileOptionValueTests.expectUsageError(
            ["scaffold", "--database", database, "--output", scratch.directory.path],
            "--output \(scratch.directory.path): a directory is there, not a file\n")
        #expect(try scratch.bytes(file) == before)

        // snapshot's --plan and --database are one choice: both on the command line is refused;
        // a variable for one never overrides the other on the command line.
        let output = scratch.path("out")
        try HostileOptionValueTests.expectUsageError(
            ["snapshot", "--plan", Scratch.jsonPlan, "--database", database, "--output", output],
            "--plan and --database cannot be given together\n")
        let plan = try BuiltCommand.migrate(
            ["snapshot", "--plan", Scratch.jsonPlan, "--output", output], environment: ["MIGRATE_DATABASE": database])
        #expect(plan.status == 0, "\(plan)")
        #expect(
            plan.stdout.contains("/schema-3.0.0.json\n"),
            "the plan was snapshotted, not MIGRATE_DATABASE: \(plan.stdout)")
        let fromDatabase = try BuiltCommand.migrate(
            ["snapshot", "--database", database, "--output", scratch.path("out2")],
            environment: ["MIGRATE_PLAN": Scratch.jsonPlan])
        #expect(fromDatabase.status == 0, "\(fromDatabase)")
        #expect(
            fromDatabase.stdout.contains("/schema-1.0.0.json\n"), "the database was snapshotted: \(fromDatabase.stdout)"
        )
    }

    @Test func scaffoldAndSnapshotTakeAPathWithGlobCharactersAsItIsAndEscapeAHostileName() throws {
        let scratch = Scratch()
        let fleet = try HostileFleet(scratch)
        let database = try fleet.database("shop[1]?.sqlite")
        let lookAlike = try fleet.database("shop1X.sqlite")
        let lookAlikeBytes = try scratch.bytes(lookAlike)
        let scaffold = try BuiltCommand.migrate(["scaffold", "--database", database, "--name", "a b\"c\\ <img>"])
        #expect(scaffold.status == 0, "\(scaffold)")
        #expect(
            scaffold.stdout.contains("static let name = \"a b\\\"c\\\\ <img>\""),
            "a Swift string literal: \(scaffold.stdout)")
        #expect(scaffold.stdout.contains("enum ABCImgSchemaV1: VersionedSchema"), "\(scaffold.stdout)")
        let snapshot = try BuiltCommand.migrate(["snapshot", "--database", database, "--output", scratch.path("out")])
        #expect(snapshot.status == 0, "\(snapshot)")
        let baseline = try BuiltCommand.migrate([
            "baseline", "--plan", Scratch.jsonPlan, "--database", database, "--version", "2.0.0",
        ])
        #expect(baseline.status == 5, "the file already records a version: refused, and not globbed: \(baseline)")
        #expect(
            baseline.stderr.hasPrefix("error: the database already records version 2.0.0 of the plan 'SampleTrips'"),
            "\(baseline.stderr)")
        #expect(try scratch.bytes(lookAlike) == lookAlikeBytes)
    }

    @Test func aClusterAndFilesAreOneChoice() throws {
        let scratch = Scratch()
        let database = try HostileFleet(scratch).database("app.sqlite")
        try HostileOptionValueTests.expectUsageError(
            ["status", "--plan", Scratch.jsonPlan],
            environment: ["MIGRATE_CLUSTER": "127.0.0.1:1", "MIGRATE_DATABASE": database],
            "MIGRATE_CLUSTER and MIGRATE_DATABASE cannot be given together\n")
        let file = try BuiltCommand.migrate(
            ["status", "--plan", Scratch.jsonPlan, "--database", database],
            environment: ["MIGRATE_CLUSTER": "127.0.0.1:1"])
        #expect(file.status == 3, "--database on the command line wins over MIGRATE_CLUSTER: \(file)")
        try HostileOptionValueTests.expectUsageError(
            ["status", "--plan", Scratch.jsonPlan], environment: ["MIGRATE_CLUSTER": "127.0.0.1:1"],
            "missing --name DB\n")
        try HostileOptionValueTests.expectUsageError(
            ["status", "--plan", Scratch.jsonPlan, "--cluster", ", ,", "--name", "app"], "--cluster: no node address\n")
        try HostileOptionValueTests.expectUsageError(
            ["status", "--plan", Scratch.jsonPlan, "--cluster", "127.0.0.1:1", "--database", database],
            "unknown option '--database' for 'status'\n")
    }

    /// A cluster has no online rebuilds: the variables that ask for them are refused before any
    /// node is contacted (the port here has no node), never silently traded for the long lock.
    @Test func theOnlineVariablesAreRefusedForACluster() throws {
        let cluster = ["--plan", Scratch.jsonPlan, "--cluster", "127.0.0.1:1", "--name", "app"]
        for subcommand in ["apply", "plan"] {
            try HostileOptionValueTests.expectUsageError(
                [subcommand] + cluster, environment: ["MIGRATE_ONLINE": "yes"],
                "MIGRATE_ONLINE=yes: online rebuilds are not available on a dqlite cluster, whose migration write-locks the leader for one transaction\n"
            )
            try HostileOptionValueTests.expectUsageError(
                [subcommand] + cluster, environment: ["MIGRATE_ONLINE": "0", "MIGRATE_CHUNK_TARGET": "50"],
                "MIGRATE_CHUNK_TARGET=50: online rebuilds are not available on a dqlite cluster, whose migration write-locks the leader for one transaction\n"
            )
        }
        try HostileOptionValueTests.expectUsageError(
            ["apply"] + cluster + ["--online"], "unknown option '--online' for 'apply'\n")
        // The same for a refusal a cluster's apply cannot make: destructive steps would run.
        try HostileOptionValueTests.expectUsageError(
            ["apply"] + cluster, environment: ["MIGRATE_DENY_DESTRUCTIVE": "ON"],
            "MIGRATE_DENY_DESTRUCTIVE=ON: a cluster's apply does not refuse destructive steps; review them with plan --cluster\n"
        )
        try HostileOptionValueTests.expectUsageError(
            ["apply"] + cluster, environment: ["MIGRATE_DENY_DESTRUCTIVE": "off", "MIGRATE_ONLINE": "1"],
            "MIGRATE_ONLINE=1: online rebuilds are not available on a dqlite cluster, whose migration write-locks the leader for one transaction\n"
        )
    }

    /// Every option of a subcommand's file form that its cluster form lacks is either refused when
    /// its variable is set, or named as one the cluster form may leave aside: a new option of the
    /// file form must be put in one or the other.
    @Test func everyFileFormVariableTheClusterFormLacksIsRefusedOrNamedHarmless() throws {
        let cluster = ["--plan", Scratch.jsonPlan, "--cluster", "127.0.0.1:1", "--name", "app"]
        let ignored: Set<String> = [
            "--database", "--databases-from", "--jobs", "--progress", "--no-backup", "--show-values",
        ]
        let values = [
            "--busy-timeout": "30", "--create": "1", "--transaction": "stage", "--output": "/tmp/x",
            "--deny-destructive": "yes", "--online": "on", "--chunk-target": "8", "--pause-file": "/tmp/p",
            "--load-extension": "/tmp/ext.so", "--require-compatible": "1", "--allow-data-loss": "1",
        ]
        let expected: [String: Set<String>] = [
            "status": ["--busy-timeout", "--load-extension"], "verify": ["--busy-timeout", "--load-extension"],
            "plan": [
                "--busy-timeout", "--deny-destructive", "--require-compatible", "--output", "--online",
                "--chunk-target", "--allow-data-loss",
            ],
            "apply": [
                "--busy-timeout", "--deny-destructive", "--require-compatible", "--create", "--transaction", "--online",
                "--chunk-target", "--pause-file", "--load-extension", "--allow-data-loss",
            ],
        ]
        for subcommand in BuiltInSubcommands.all(hasSwiftPlan: false)
        where ClusterSubcommands.names.contains(subcommand.name) {
            let clusterForm = Set(ClusterSubcommands.variant(of: subcommand, hasSwiftPlan: false).options.map(\.name))
            let lacking = Set(subcommand.options.map(\.name)).subtracting(clusterForm)
            #expect(lacking.subtracting(ignored) == expected[subcommand.name], "\(subcommand.name)")
            for option in lacking.subtracting(ignored).sorted() {
                let variable = EnvironmentDefaults.variable(forName: option)
                let value = try #require(values[option], "a value for \(option)")
                let result = try BuiltCommand.migrate([subcommand.name] + cluster, environment: [variable: value])
                #expect(result.status == 2, "\(subcommand.name) with \(variable): \(result)")
                #expect(result.stderr.contains("\(variable)=\(value): "), "\(subcommand.name): \(result.stderr)")
            }
        }
        // A value that asks for what the cluster form does anyway is accepted: it gets as far as the node.
        let planScope = try BuiltCommand.migrate(["apply"] + cluster, environment: ["MIGRATE_TRANSACTION": "plan"])
        #expect(planScope.status != 2, "\(planScope)")
        let busy = try BuiltCommand.migrate(["status"] + cluster, environment: ["MIGRATE_BUSY_TIMEOUT": "30"])
        #expect(
            busy.stderr.contains(
                "MIGRATE_BUSY_TIMEOUT=30: the cluster form of status has no --busy-timeout, and would run without it"),
            "\(busy)")
    }
}
