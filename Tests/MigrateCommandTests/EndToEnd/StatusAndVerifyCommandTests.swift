import Foundation
import SchemaMigrations
import Testing

/// `status` and `verify` through the built executables: where a database stands, and every
/// refusal with its exit status.
@Suite struct StatusAndVerifyCommandTests {
    @Test func statusExits3WhileStagesArePendingAnd0Once() throws {
        let scratch = Scratch()
        let database = try scratch.sampleTrips("trips.sqlite")
        var result = try BuiltCommand.sampleTrips(["status", "--database", database])
        #expect(result.status == 3, "\(result)")
        #expect(
            result.stdout == """
                database: \(database)
                current version: 1.0.0
                target version:  3.0.0
                pending: 2 stages
                  1.0.0 → 2.0.0 (custom)
                  2.0.0 → 3.0.0 (lightweight)

                """)
        #expect(result.stderr.isEmpty)

        #expect(try BuiltCommand.sampleTrips(["apply", "--database", database, "--no-backup"]).status == 0)
        result = try BuiltCommand.sampleTrips(["status", "--database", database, "--format", "json"])
        #expect(result.status == 0, "\(result)")
        let object = try #require(try result.json() as? [String: Any])
        #expect(object["database"] as? String == database)
        #expect(object["currentVersion"] as? String == "3.0.0")
        #expect(object["targetVersion"] as? String == "3.0.0")
        #expect(object["upToDate"] as? Bool == true)
        #expect((object["stages"] as? [Any])?.isEmpty == true)
        #expect(object["exitStatus"] as? Int == 0)
    }

    @Test func statusWithAJSONPlanAndATargetVersion() throws {
        let scratch = Scratch()
        let database = try scratch.sampleTrips("v2.sqlite", at: Schema.Version(2, 0, 0))
        let result = try BuiltCommand.migrate([
            "status", "--plan", Scratch.jsonPlan, "--database", database, "--format", "json",
        ])
        #expect(result.status == 3, "\(result)")
        let object = try #require(try result.json() as? [String: Any])
        #expect(object["currentVersion"] as? String == "2.0.0")
        let stages = try #require(object["stages"] as? [[String: Any]])
        #expect(stages.count == 1)
        #expect(
            stages[0]["from"] as? String == "2.0.0" && stages[0]["to"] as? String == "3.0.0"
                && stages[0]["kind"] as? String == "lightweight")
        #expect(
            try BuiltCommand.migrate(["status", "--plan", Scratch.jsonPlan, "--database", database, "--to", "2.0.0"])
                .status == 0)
    }

    @Test func verifyExits0WhenTheSchemaMatchesAnd4WhenItDrifted() throws {
        let scratch = Scratch()
        let database = try scratch.sampleTrips("trips.sqlite", at: Schema.Version(3, 0, 0))
        var result = try BuiltCommand.sampleTrips(["verify", "--database", database])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "database: \(database)\nthe schema matches version 3.0.0, as recorded\n")

        try scratch.execute(database, "ALTER TABLE Trip ADD COLUMN rating INTEGER")
        result = try BuiltCommand.sampleTrips(["verify", "--database", database])
        #expect(result.status == 4, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr == """
                error: the database's schema no longer matches version 3.0.0, which its metadata records
                  version: 3.0.0
                  - column Trip.rating is not declared
                  fix: undo the change made outside the plan, or declare it as a new version

                """)
        result = try BuiltCommand.sampleTrips(["verify", "--database", database, "--format", "json"])
        let error = try #require((try result.json() as? [String: Any])?["error"] as? [String: Any])
        #expect(error["code"] as? String == "drift")
        #expect(error["details"] as? [String] == ["column Trip.rating is not declared"])
    }

    @Test func aDatabaseThePlanCannotTakeIsRefusedWithStatus5() throws {
        let scratch = Scratch()
        // V1 is not in the JSON plan, which starts at 2.0.0.
        let v1 = try scratch.sampleTrips("v1.sqlite")
        var result = try BuiltCommand.migrate(["status", "--plan", Scratch.jsonPlan, "--database", v1])
        #expect(result.status == 5, "\(result)")
        #expect(
            result.stderr.hasPrefix(
                "error: the database is at version 1.0.0, which the plan 'SampleTrips' does not declare\n"))

        // V3 is newer than a plan that stops at 2.0.0.
        let older = scratch.directory.appendingPathComponent("plan-through-2")
        try PlanDirectory(contentsOf: URL(fileURLWithPath: Scratch.jsonPlan)).restricted(
            through: Schema.Version(2, 0, 0)
        ).write(to: older)
        let v3 = try scratch.sampleTrips("v3.sqlite", at: Schema.Version(3, 0, 0))
        result = try BuiltCommand.migrate(["verify", "--plan", older.path, "--database", v3])
        #expect(result.status == 5, "\(result)")
        #expect(
            result.stderr.hasPrefix(
                "error: the database is at version 3.0.0, newer than the plan's latest version 2.0.0\n"))

        let corrupt = try scratch.corrupt("corrupt.sqlite")
        result = try BuiltCommand.sampleTrips(["status", "--database", corrupt])
        #expect(result.status == 5, "\(result)")
        #expect(result.stderr.hasPrefix("error: '\(corrupt)' is not a SQLite database, or is corrupt\n"))

        result = try BuiltCommand.sampleTrips(["status", "--database", scratch.path("missing.sqlite")])
        #expect(result.status == 5, "\(result)")
        #expect(result.stderr.hasPrefix("error: there is no database at '\(scratch.path("missing.sqlite"))'\n"))
        #expect(!FileManager.default.fileExists(atPath: scratch.path("missing.sqlite")))
    }
}
