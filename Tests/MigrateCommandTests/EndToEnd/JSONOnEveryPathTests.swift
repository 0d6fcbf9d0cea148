import Foundation
import MigrateCommand
import SchemaMigrations
import Testing

/// With `--format json`, a pipeline reads one JSON object on standard output whatever happens:
/// `exitStatus`, and on failure `error` with `code`, `message`, `remedy` and `cause` (null when
/// there is none). The database is unchanged by every failure.
@Suite struct JSONOnEveryPathTests {
    /// One way to reach an exit status, through the built `migrate` (or `sample-trips`).
    struct Case: CustomStringConvertible, Sendable {
        var description: String
        var status: Int32
        var errorCode: String?
        /// Builds the files and returns the command line; `database` is the file that must not change.
        var setUp: @Sendable (Scratch) throws -> (program: String, arguments: [String], database: String?)
    }

    static let cases: [Case] = [
        Case(description: "0: up to date", status: 0, errorCode: nil) { scratch in
            (
                "migrate",
                [
                    "status", "--plan", Scratch.jsonPlan, "--database",
                    try scratch.sampleTrips("v3.sqlite", at: Schema.Version(3, 0, 0)),
                ], nil
            )
        },
        Case(description: "1: the backup cannot be written", status: 1, errorCode: "sqlite") { scratch in
            let database = try scratch.sampleTrips("v2.sqlite", at: Schema.Version(2, 0, 0))
            let backup = scratch.directory.appendingPathComponent("no-such-directory/backup.sqlite").path
            return (
                "migrate", ["apply", "--plan", Scratch.jsonPlan, "--database", database, "--backup", backup], database
            )
        },
        Case(description: "6: another connection holds the lock", status: 6, errorCode: "locked") { scratch in
            let database = try scratch.sampleTrips("locked.sqlite", at: Schema.Version(2, 0, 0))
            return (
                "migrate",
                ["apply", "--plan", Scratch.jsonPlan, "--database", database, "--busy-timeout", "0.1", "--no-backup"],
                database
            )
        },
        Case(description: "2: unknown option", status: 2, errorCode: "usage") { _ in
            ("migrate", ["plan", "--plan", Scratch.jsonPlan, "--database", "x.sqlite", "--databse", "y"], nil)
        },
        Case(description: "2: unknown subcommand", status: 2, errorCode: "usage") { _ in ("migrate", ["aply"], nil) },
        Case(description: "2: malformed plan.json", status: 2, errorCode: "invalidPlan") { scratch in
            let plan = scratch.directory.appendingPathComponent("bad-plan")
            try FileManager.default.createDirectory(at: plan, withIntermediateDirectories: true)
            try Data("{\"name\": 3}".utf8).write(to: plan.appendingPathComponent("plan.json"))
            return ("migrate", ["status", "--plan", plan.path, "--database", scratch.path("x.sqlite")], nil)
        },
        Case(description: "2: missing snapshot", status: 2, errorCode: "invalidPlan") { scratch in
            let plan = scratch.directory.appendingPathComponent("plan")
            try FileManager.default.copyItem(atPath: Scratch.jsonPlan, toPath: plan.path)
            try FileManager.default.removeItem(at: plan.appendingPathComponent("schema-3.0.0.json"))
            return ("migrate", ["status", "--plan", plan.path, "--database", scratch.path("x.sqlite")], nil)
        },
        Case(description: "2: a custom stage in a JSON plan", status: 2, errorCode: "invalidPlan") { scratch in
            let database = try scratch.sampleTrips("v1.sqlite")
            let plan = BuiltCommand.repositoryRoot.appendingPathComponent("Fixtures/SampleTrips").path
            return ("migrate", ["apply", "--plan", plan, "--database", database], database)
        },
        Case(description: "3: pending", status: 3, errorCode: nil) { scratch in
            (
                "migrate",
                [
                    "status", "--plan", Scratch.jsonPlan, "--database",
                    try scratch.sampleTrips("v2.sqlite", at: Schema.Version(2, 0, 0)),
                ], nil
            )
        },
        Case(description: "4: drift", status: 4, errorCode: "drift") { scratch in
            let database = try scratch.sampleTrips("drift.sqlite", at: Schema.Version(2, 0, 0))
            try scratch.execute(database, "ALTER TABLE Trip ADD COLUMN rating INTEGER")
            return ("migrate", ["apply", "--plan", Scratch.jsonPlan, "--database", database, "--no-backup"], database)
        },
        Case(description: "5: not a database", status: 5, errorCode: "notADatabase") { scratch in
            let database = try scratch.corrupt("corrupt.sqlite")
            return ("migrate", ["apply", "--plan", Scratch.jsonPlan, "--database", database], database)
        },
        Case(description: "5: --deny-destructive", status: 5, errorCode: "destructive") { scratch in
            let (database, plan) = try DestructivePlan.make(in: scratch)
            return ("migrate", ["apply", "--plan", plan, "--database", database, "--deny-destructive"], database)
        },
    ]

    @Test(arguments: cases)
    func everyExitStatusPrintsOneJSONObject(_ testCase: Case) throws {
        let scratch = Scratch()
        let (program, arguments, database) = try testCase.setUp(scratch)
        let before = try database.map(scratch.bytes)
        // The lock case holds an exclusive transaction while the command runs.
        let holder = testCase.status == 6 ? try SQLiteConnection(path: database!, mode: .readWrite) : nil
        try holder?.execute("BEGIN IMMEDIATE")
        let result = try BuiltCommand.run(program, arguments + ["--format", "json"])
        try holder?.execute("ROLLBACK")

        #expect(result.status == testCase.status, "\(result)")
        let object = try #require(try result.json() as? [String: Any], "one JSON object: \(result)")
        #expect(object["exitStatus"] as? Int == Int(testCase.status))
        if let code = testCase.errorCode {
            let error = try #require(object["error"] as? [String: Any], "\(result)")
            #expect(error["code"] as? String == code)
            #expect((error["message"] as? String)?.isEmpty == false)
            #expect(
                error.keys.contains("remedy") && error.keys.contains("cause"),
                "remedy and cause are always there: \(error.keys)")
            if code != "usage" || testCase.description.contains("option") || testCase.description.contains("subcommand")
            {
                #expect(error["remedy"] is String, "\(testCase): every failure names its fix")
            }
        } else {
            #expect(object["error"] == nil)
        }
        if let database, let before {
            #expect(try scratch.bytes(database) == before, "\(testCase) changed the database")
        }
    }

    @Test func aThrowingCustomStagesErrorIsTheCause() throws {
        let scratch = Scratch()
        let url = scratch.directory.appendingPathComponent("notes.sqlite")
        try Migrator(plan: ThrowingNotesPlan.self, options: MigrationOptions(targetVersion: Schema.Version(1, 0, 0)))
            .migrate(databaseAt: url)
        let before = try scratch.bytes(url.path)
        let captured = CapturedConsole()
        let status = MigrateCommand(plan: ThrowingNotesPlan.self, name: "notes")
            .run(
                ["apply", "--database", url.path, "--no-backup", "--format", "json"], console: captured.console,
                environment: [:])
        #expect(status == .failed)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(captured.output.utf8)) as? [String: Any])
        let error = try #require(object["error"] as? [String: Any])
        #expect(error["code"] as? String == "customStageFailed")
        #expect(error["cause"] as? String == "note 7 and note 9 cannot be merged")
        #expect(try scratch.bytes(url.path) == before)
    }

    @Test func denyDestructiveNamesTheStepInEveryFormatAndPrintsNoScript() throws {
        let scratch = Scratch()
        let (database, plan) = try DestructivePlan.make(in: scratch)
        let base = ["plan", "--plan", plan, "--database", database, "--deny-destructive"]
        let json = try BuiltCommand.migrate(base + ["--format", "json"])
        #expect(json.status == 5)
        let refusals = try #require((try json.json() as? [String: Any])?["refusals"] as? [[String: Any]])
        #expect(refusals.count == 1)
        #expect(refusals[0]["code"] as? String == "destructive")
        #expect(refusals[0]["details"] as? [String] == ["Drop column Note.legacy and its values (2 non-empty values)"])

        let markdown = try BuiltCommand.migrate(base + ["--format", "markdown"])
        #expect(markdown.status == 5)
        #expect(markdown.stdout.hasPrefix("> [!CAUTION]\n> **Refused by --deny-destructive:** 1 step can lose data."))
        #expect(markdown.stdout.contains("> - Drop column Note.legacy and its values (2 non-empty values)\n"))

        let sql = try BuiltCommand.migrate(base + ["--format", "sql"])
        #expect(sql.status == 5)
        #expect(sql.stdout.isEmpty, "a refused plan prints no script to run")
        #expect(sql.stderr.contains("  - Drop column Note.legacy and its values (2 non-empty values)\n"))
    }
}
