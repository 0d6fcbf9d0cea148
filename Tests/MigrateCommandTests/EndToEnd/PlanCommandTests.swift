import Foundation
import SchemaMigrations
import Testing

/// `plan`, the dry run, through the built executables: every format, the file never written, the
/// SQL script equal to `apply` when the sqlite3 shell runs it, and `--deny-destructive`.
@Suite struct PlanCommandTests {
    @Test func theJSONReportHasEveryPromisedKey() throws {
        let scratch = Scratch()
        let database = try scratch.sampleTrips("v2.sqlite", at: Schema.Version(2, 0, 0))
        let result = try BuiltCommand.migrate([
            "plan", "--plan", Scratch.jsonPlan, "--database", database, "--format", "json",
        ])
        #expect(result.status == 0, "\(result)")
        let report = try #require(try result.json() as? [String: Any])
        #expect(report["database"] as? String == database)
        #expect(report["currentVersion"] as? String == "2.0.0")
        #expect(report["targetVersion"] as? String == "3.0.0")
        #expect(report["exitStatus"] as? Int == 0)
        let stages = try #require(report["stages"] as? [[String: Any]])
        #expect(stages.count == 1)
        #expect(stages[0]["from"] as? String == "2.0.0")
        #expect(stages[0]["to"] as? String == "3.0.0")
        #expect(stages[0]["kind"] as? String == "lightweight")
        let steps = try #require(stages[0]["steps"] as? [[String: Any]])
        #expect(steps.map { $0["op"] as? String } == ["renameColumn", "renameColumn", "addColumn", "createIndex"])
        #expect(steps.allSatisfy { $0["table"] as? String == "Trip" })
        #expect(
            steps.map { $0["sql"] as? [String] } == [
                [#"ALTER TABLE "Trip" RENAME COLUMN "start_date" TO "startDate""#],
                [#"ALTER TABLE "Trip" RENAME COLUMN "end_date" TO "endDate""#],
                [#"ALTER TABLE "Trip" ADD COLUMN "notes" TEXT"#],
                [#"CREATE INDEX "Trip_name_startDate_endDate" ON "Trip" ("name", "startDate", "endDate")"#],
            ])
        #expect(steps.allSatisfy { $0["rewritesRows"] as? Bool == false && $0["destructive"] as? Bool == false })
    }

    @Test func theCustomStageShowsTheDuplicatesItsCodeMustRemove() throws {
        let scratch = Scratch()
        let database = try scratch.sampleTrips("v1.sqlite", trips: 12)
        let result = try BuiltCommand.sampleTrips(["plan", "--database", database])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.stdout.contains(
                "WARNING: (name) becomes unique but 3 values are shared by several rows; willMigrate must remove them\n"
            ))
        #expect(result.stdout.contains("  0. willMigrate runs (database at 1.0.0); checks on the data run after it\n"))
        #expect(result.stdout.contains("       impact: (name): 3 values shared by several rows: "))
        #expect(result.stdout.contains("       ALTER TABLE \"Trip\" RENAME COLUMN \"start_date\" TO \"startDate\";\n"))
    }

    @Test func noFormatWritesToTheDatabaseEvenWhenItIsWritable() throws {
        let scratch = Scratch()
        let database = try scratch.sampleTrips("v1.sqlite")
        let before = try scratch.bytes(database)
        let attributes = try FileManager.default.attributesOfItem(atPath: database)
        #expect((attributes[.posixPermissions] as? Int).map { $0 & 0o200 != 0 } == true)
        for format in ["text", "json", "sql", "markdown"] {
            let result = try BuiltCommand.sampleTrips(["plan", "--database", database, "--format", format])
            #expect(result.status == 0, "\(format): \(result)")
            #expect(!result.stdout.isEmpty)
            #expect(try scratch.bytes(database) == before, "\(format)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.directory.path) == ["v1.sqlite"])
    }

    @Test func simulateAppliesThePlanToACopyAndTimesEachStep() throws {
        let scratch = Scratch()
        let database = try scratch.sampleTrips("v1.sqlite")
        let before = try scratch.bytes(database)
        var result = try BuiltCommand.sampleTrips(["plan", "--simulate", "--database", database])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.stdout.contains("simulation: the migration succeeds on a copy of today's data: 1.0.0 → 3.0.0 in "))
        #expect(result.stdout.contains(" ms  2.0.0 → 3.0.0: Rename column Trip.start_date to startDate\n"))
        result = try BuiltCommand.sampleTrips(["plan", "--simulate", "--format", "json", "--database", database])
        #expect(result.status == 0, "\(result)")
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let simulation = object?["simulation"] as? [String: Any]
        #expect(simulation?["succeeded"] as? Bool == true)
        #expect(
            (simulation?["steps"] as? [[String: Any]])?.map { $0["summary"] as? String } == [
                "willMigrate runs", "Create unique index Trip_name_unique on Trip(name)",
                "Rename column Trip.start_date to startDate",
                "Rename column Trip.end_date to endDate", "Add column Trip.notes TEXT",
                "Create index Trip_name_startDate_endDate on Trip(name, startDate, endDate)",
            ], "the custom stage's code is timed too")
        #expect(try scratch.bytes(database) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.directory.path) == ["v1.sqlite"])
    }

    @Test func theMarkdownReportIsForAPullRequest() throws {
        let scratch = Scratch()
        let database = try scratch.sampleTrips("v2.sqlite", at: Schema.Version(2, 0, 0))
        let result = try BuiltCommand.migrate([
            "plan", "--plan", Scratch.jsonPlan, "--database", database, "--format", "markdown",
        ])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.hasPrefix("### Migration of `v2.sqlite`: 2.0.0 → 3.0.0\n"))
        #expect(result.stdout.contains("\n#### Stage 2.0.0 → 3.0.0 (lightweight)\n"))
        #expect(result.stdout.contains("\n**Breaking:** 2.0.0's code fails on it.\n"))
        #expect(
            result.stdout.contains(
                "\n| 1 | Rename column Trip.start_date to startDate | schema only, O(1), **breaking** |  |\n"))
        #expect(
            result.stdout.contains("\n```sql\nALTER TABLE \"Trip\" RENAME COLUMN \"start_date\" TO \"startDate\";\n"))
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3"), "needs the sqlite3 shell"))
    func theSQLScriptRunBySqlite3DoesWhatApplyDoes() throws {
        let scratch = Scratch()
        // The JSON plan's lightweight stage on a V2 database, and the Swift plan's custom stage on a V1 one.
        let cases: [(command: String, plan: [String], version: Schema.Version)] = [
            ("migrate", ["--plan", Scratch.jsonPlan], Schema.Version(2, 0, 0)),
            ("sample-trips", [], Schema.Version(1, 0, 0)),
        ]
        for (index, example) in cases.enumerated() {
            let original = try scratch.sampleTrips("original-\(index).sqlite", at: example.version, trips: 40)
            let scripted = scratch.path("scripted-\(index).sqlite")
            let applied = scratch.path("applied-\(index).sqlite")
            try FileManager.default.copyItem(atPath: original, toPath: scripted)
            try FileManager.default.copyItem(atPath: original, toPath: applied)

            let plan = try BuiltCommand.run(
                example.command, ["plan", "--database", original, "--format", "sql"] + example.plan)
            #expect(plan.status == 0, "\(plan)")
            let script = scratch.path("migrate-\(index).sql")
            try Data(plan.stdout.utf8).write(to: URL(fileURLWithPath: script))
            let shell = try BuiltCommand.runProgram("/usr/bin/sqlite3", [scripted, ".read \(script)"])
            #expect(shell.status == 0, "\(shell)")
            let apply = try BuiltCommand.run(
                example.command, ["apply", "--database", applied, "--no-backup"] + example.plan)
            #expect(apply.status == 0, "\(apply)")

            #expect(try scratch.contents(scripted) == scratch.contents(applied))
            #expect(
                try scratch.rows(scripted, "SELECT version FROM _schema_migrations ORDER BY seq DESC LIMIT 1") == [
                    ["'3.0.0'"]
                ])
            let status = try BuiltCommand.run(example.command, ["status", "--database", scripted] + example.plan)
            #expect(status.status == 0, "\(status)")

            // Run again, the script changes nothing: the schema is no longer the one it was written for.
            let before = try scratch.bytes(scripted)
            let again = try BuiltCommand.runProgram("/usr/bin/sqlite3", [scripted, ".read \(script)"])
            #expect(again.status != 0)
            #expect(again.stderr.contains("the schema changed since this script was written"))
            #expect(try scratch.bytes(scripted) == before)
        }
    }

    @Test func denyDestructiveRefusesAPlanThatLosesDataWithStatus5() throws {
        let scratch = Scratch()
        let (database, plan) = try DestructivePlan.make(in: scratch)
        var result = try BuiltCommand.migrate(["plan", "--plan", plan, "--database", database])
        #expect(result.status == 0, "\(result)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines[3] == "WARNING: destructive: Drop column Note.legacy and its values (2 non-empty values)")
        #expect(lines.contains("       impact: Note.legacy: 2 non-empty values lost"))

        result = try BuiltCommand.migrate(["plan", "--plan", plan, "--database", database, "--deny-destructive"])
        #expect(result.status == 5, "\(result)")
        #expect(
            result.stderr == """
                error: refused by --deny-destructive: 1 step can lose data
                  - Drop column Note.legacy and its values (2 non-empty values)
                  fix: have a person review the plan, then run without --deny-destructive

                """)
        result = try BuiltCommand.migrate(["plan", "--plan", plan, "--database", database, "--format", "json"])
        let step = try #require(
            ((try result.json() as? [String: Any])?["stages"] as? [[String: Any]])?.first?["steps"] as? [[String: Any]])[
                0]
        #expect(
            step["op"] as? String == "dropColumn" && step["destructive"] as? Bool == true
                && step["rewritesRows"] as? Bool == true)
        let impact = try #require(step["impact"] as? [String: Any])
        #expect(impact["rows"] as? Int == 3)
        #expect((impact["nonEmptyValues"] as? [[String: Any]])?.first?["count"] as? Int == 2)
    }
}

/// A plan whose second version drops a column, and a database at its first version with three
/// notes, two of which hold a value in that column.
enum DestructivePlan {
    static func make(in scratch: Scratch) throws -> (database: String, plan: String) {
        let v1 = Schema(
            version: Schema.Version(1, 0, 0),
            entities: [
                Schema.Entity(
                    name: "Note",
                    attributes: [
                        Schema.Attribute(name: "text", valueType: .string, defaultValue: "''"),
                        Schema.Attribute(name: "legacy", valueType: .string, isOptional: true),
                    ])
            ])
        let v2 = Schema(
            version: Schema.Version(2, 0, 0),
            entities: [
                Schema.Entity(
                    name: "Note",
                    attributes: [
                        Schema.Attribute(name: "text", valueType: .string, defaultValue: "''")
                    ])
            ])
        let plan = PlanDirectory(name: "notes", schemas: [v1, v2], stages: [])
        let directory = scratch.directory.appendingPathComponent("notes-plan")
        try plan.write(to: directory)
        let database = scratch.path("notes.sqlite")
        try Migrator(planDirectory: plan.restricted(through: v1.version)).migrate(
            databaseAt: URL(fileURLWithPath: database))
        try scratch.execute(
            database, "INSERT INTO Note (text, legacy) VALUES ('a', 'old'), ('b', NULL), ('c', 'older')")
        return (database, directory.path)
    }
}
