import Foundation
import SchemaMigrations
import Testing

/// `capture` and `test` as a release pipeline runs them: fixtures of released versions captured
/// with the embedded command, the next release tested against them, in text and JSON, with the
/// exit statuses CI reads; the bare `migrate` with a JSON plan directory; every option attacked.
@Suite struct FixtureCommandTests {
    @Test func capturedReleasesPassTheNextOneInTextAndJSON() throws {
        let scratch = Scratch()
        let fixtures = scratch.path("fixtures")
        let v1 = try scratch.sampleTrips("v1.sqlite", trips: 12)
        let sql = scratch.path("anonymise.sql")
        try "UPDATE Trip SET destination = 'somewhere';\nDELETE FROM Trip WHERE id > 8;\n".write(
            toFile: sql, atomically: true, encoding: .utf8)
        var result = try BuiltCommand.sampleTrips(["capture", "--database", v1, "--fixtures", fixtures, "--sql", sql])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "captured \(fixtures)/1.0.0.sqlite at version 1.0.0\n")
        let v2 = try scratch.sampleTrips("v2.sqlite", at: Schema.Version(2, 0, 0))
        result = try BuiltCommand.sampleTrips([
            "capture", "--database", v2, "--fixtures", fixtures, "--name", "eu", "--format", "json",
        ])
        let captured = try #require(try result.json() as? [String: Any])
        #expect(
            captured["fixture"] as? String == "\(fixtures)/2.0.0-eu.sqlite" && captured["version"] as? String == "2.0.0"
        )
        let before = try FileManager.default.contentsOfDirectory(atPath: fixtures).sorted().map {
            try scratch.bytes("\(fixtures)/\($0)")
        }

        let text = try BuiltCommand.sampleTrips(["test", "--fixtures", fixtures])
        #expect(text.status == 0, "\(text)")
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix("ok    1.0.0.sqlite  1.0.0 → 3.0.0, "))
        #expect(lines[1].hasPrefix("ok    2.0.0-eu.sqlite  2.0.0 → 3.0.0, "))
        #expect(lines[2] == "2 fixtures: 2 passed, 0 failed")

        let json = try BuiltCommand.sampleTrips(["test", "--fixtures", fixtures, "--to", "2.0.0", "--format", "json"])
        #expect(json.status == 0, "\(json)")
        let object = try #require(try json.json() as? [String: Any])
        let each = try #require(object["fixtures"] as? [[String: Any]])
        #expect(each.map { $0["fixture"] as? String } == ["1.0.0.sqlite", "2.0.0-eu.sqlite"])
        #expect(each.map { $0["toVersion"] as? String } == ["2.0.0", "2.0.0"])
        #expect(each.allSatisfy { $0["passed"] as? Bool == true && $0["failure"] is NSNull })
        #expect(object["passed"] as? Int == 2 && object["failed"] as? Int == 0 && object["exitStatus"] as? Int == 0)
        #expect(object["plan"] as? String == "SampleTrips")
        let after = try FileManager.default.contentsOfDirectory(atPath: fixtures).sorted().map {
            try scratch.bytes("\(fixtures)/\($0)")
        }
        #expect(after == before, "testing never writes a fixture")
    }

    @Test func aFailingFixtureFailsTheRunWithItsOwnStatus() throws {
        let scratch = Scratch()
        let fixtures = scratch.path("fixtures")
        let v1 = try scratch.sampleTrips("v1.sqlite")
        #expect(try BuiltCommand.sampleTrips(["capture", "--database", v1, "--fixtures", fixtures]).status == 0)
        // The bare command's JSON plan directory starts at 2.0.0: the 1.0.0 fixture is of a
        // version it does not declare; a file that is no database fails on its own.
        try scratch.corrupt("fixtures/broken.db")
        let result = try BuiltCommand.migrate(["test", "--plan", Scratch.jsonPlan, "--fixtures", fixtures])
        #expect(result.status == 5, "\(result)")
        #expect(
            result.stdout.contains(
                "FAIL  1.0.0.sqlite\n  error: 1.0.0.sqlite is at version 1.0.0, which the plan 'SampleTrips' no longer declares (it declares 2.0.0, 3.0.0)"
            ), "\(result)")
        #expect(result.stdout.contains("FAIL  broken.db\n  error: broken.db cannot be read as a SQLite database"))
        #expect(result.stdout.hasSuffix("2 fixtures: 0 passed, 2 failed\n"))
    }

    @Test func everyOptionIsAttacked() throws {
        let scratch = Scratch()
        let fixtures = scratch.path("fixtures")
        let v1 = try scratch.sampleTrips("v1.sqlite")
        let before = try scratch.bytes(v1)
        func run(_ arguments: [String]) throws -> CommandResult { try BuiltCommand.sampleTrips(arguments) }

        // No fixtures yet, a directory that is a file, a version the plan does not declare.
        var result = try run(["test", "--fixtures", fixtures])
        #expect(result.status == 2 && result.stderr.contains("is not a directory of fixtures"), "\(result)")
        result = try run(["test", "--fixtures", v1])
        #expect(result.status == 2, "\(result)")
        result = try run(["test", "--fixtures", scratch.directory.path, "--to", "9.0.0"])
        #expect(
            result.status == 2 && result.stderr.contains("--to 9.0.0: the plan declares 1.0.0, 2.0.0, 3.0.0"),
            "\(result)")
        result = try run(["test"])
        #expect(result.status == 2 && result.stderr.contains("--fixtures"), "\(result)")

        // Names that are no plain file name; SQL that cannot be read; a database that is missing,
        // no database, or of no version of the plan.
        for name in ["../up", "a b", "*.sqlite", "'", ""] {
            result = try run(["capture", "--database", v1, "--fixtures", fixtures, "--name", name])
            #expect(result.status == 2, "\(name): \(result)")
        }
        result = try run(["capture", "--database", v1, "--fixtures", fixtures, "--sql", scratch.path("none.sql")])
        #expect(result.status == 2 && result.stderr.contains("none.sql' cannot be read"), "\(result)")
        result = try run(["capture", "--database", scratch.path("missing.sqlite"), "--fixtures", fixtures])
        #expect(result.status == 5, "\(result)")
        result = try run(["capture", "--database", try scratch.corrupt("junk.sqlite"), "--fixtures", fixtures])
        #expect(result.status == 5, "\(result)")
        let sql = scratch.path("schema.sql")
        try "ALTER TABLE Trip ADD COLUMN secret TEXT".write(toFile: sql, atomically: true, encoding: .utf8)
        result = try run(["capture", "--database", v1, "--fixtures", fixtures, "--sql", sql])
        #expect(result.status == 4 && result.stderr.contains("the preparing SQL changed the schema"), "\(result)")
        let written = (try? FileManager.default.contentsOfDirectory(atPath: fixtures)) ?? []
        #expect(written.isEmpty, "nothing was written: \(written)")
        #expect(try scratch.bytes(v1) == before, "capture only reads the database")

        // Captured once; the same name again is refused, and the first fixture stays.
        #expect(try run(["capture", "--database", v1, "--fixtures", fixtures]).status == 0)
        let fixture = try scratch.bytes("\(fixtures)/1.0.0.sqlite")
        result = try run(["capture", "--database", v1, "--fixtures", fixtures, "--format", "json"])
        #expect(result.status == 2, "\(result)")
        #expect(try scratch.bytes("\(fixtures)/1.0.0.sqlite") == fixture)
    }
}
