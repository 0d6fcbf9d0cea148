import Foundation
import SchemaMigrations
import Testing

/// `history` shows what a database went through; `lint` what a plan would do, without a database.
@Suite struct HistoryAndLintTests {
    @Test func historyAfterTwoAppliesListsEveryStageInEveryFormat() throws {
        let scratch = Scratch()
        let database = try scratch.sampleTrips("v1.sqlite")  // created at 1.0.0 by the library
        var result = try BuiltCommand.sampleTrips(["apply", "--database", database, "--to", "2.0.0", "--no-backup"])
        #expect(result.status == 0, "\(result)")
        result = try BuiltCommand.sampleTrips(["apply", "--database", database, "--no-backup"])
        #expect(result.status == 0, "\(result)")
        let before = try scratch.bytes(database)

        let text = try BuiltCommand.sampleTrips(["history", "--database", database])
        #expect(text.status == 0, "\(text)")
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(lines[0] == "database: \(database)")
        #expect(
            lines[1].split(separator: " ", omittingEmptySubsequences: true) == [
                "SEQ", "FROM", "TO", "KIND", "APPLIED", "AT", "(UTC)", "DURATION",
            ])
        let rows = lines.dropFirst(2).map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
        #expect(
            rows.map { Array($0.prefix(4)) } == [
                ["1", "-", "1.0.0", "create"], ["2", "1.0.0", "2.0.0", "custom"],
                ["3", "2.0.0", "3.0.0", "lightweight"],
            ])
        #expect(rows.allSatisfy { $0[4].hasSuffix("Z") && $0.last == "ms" })

        let json = try BuiltCommand.sampleTrips(["history", "--database", database, "--format", "json"])
        let history = try #require((try json.json() as? [String: Any])?["history"] as? [[String: Any]])
        #expect(history.map { $0["to"] as? String } == ["1.0.0", "2.0.0", "3.0.0"])
        #expect(history.map { $0["kind"] as? String } == ["create", "custom", "lightweight"])
        #expect(
            history.allSatisfy {
                ($0["durationMs"] as? Double ?? -1) >= 0 && ($0["appliedAt"] as? String)?.hasPrefix("20") == true
            })

        // The bare command, with no plan, reads every plan the file holds.
        let markdown = try BuiltCommand.migrate(["history", "--database", database, "--format", "markdown"])
        #expect(markdown.status == 0, "\(markdown)")
        #expect(
            markdown.stdout.hasPrefix(
                "### History of `v1.sqlite`\n\n| SEQ | FROM | TO | KIND | APPLIED AT (UTC) | DURATION |\n|---|---|---|---|---|---|\n| 1 | - | 1.0.0 | create | "
            ))
        #expect(try scratch.bytes(database) == before, "history never writes")
    }

    @Test func historyOfAFileThePlanNeverRanOn() throws {
        let scratch = Scratch()
        let database = scratch.path("empty.sqlite")
        try SQLiteConnection(path: database, mode: .readWriteCreate).execute("CREATE TABLE other (x)")
        let result = try BuiltCommand.migrate(["history", "--plan", Scratch.jsonPlan, "--database", database])
        #expect(result.status == 0)
        #expect(result.stdout == "database: \(database)\nno stage recorded (the plan never ran on this database)\n")
    }

    @Test func lintClassifiesTheBundledPlansWithoutADatabase() throws {
        let fixtures = BuiltCommand.repositoryRoot.appendingPathComponent("Fixtures")
        // The SampleTrips Swift plan, embedded.
        let embedded = try BuiltCommand.sampleTrips(["lint"])
        #expect(embedded.status == 0, "\(embedded)")
        #expect(
            embedded.stdout == """
                plan SampleTrips: 2 stages, 5 steps (0 destructive, 1 data-dependent, 0 rebuild)
                stage 1.0.0 → 2.0.0 (custom): its code runs too (willMigrate / didMigrate)
                  breaking: 1.0.0's code fails on it; its willMigrate / didMigrate code is not classified
                    - makes (name) unique on Trip: the previous version's writes fail on a value another row already has [depends on the data]
                  1. [data-dependent, scan, breaking] Create unique index Trip_name_unique on Trip(name)
                       (name) becomes unique on Trip: no value may be shared
                stage 2.0.0 → 3.0.0 (lightweight)
                  breaking: 2.0.0's code fails on it
                    - renames column Trip.start_date to startDate: the previous version reads and writes start_date
                    - renames column Trip.end_date to endDate: the previous version reads and writes end_date
                  1. [O(1), breaking] Rename column Trip.start_date to startDate
                  2. [O(1), breaking] Rename column Trip.end_date to endDate
                  3. [O(1)] Add column Trip.notes TEXT
                  4. [scan] Create index Trip_name_startDate_endDate on Trip(name, startDate, endDate)

                """)
        // Its JSON plan directory (custom stage included: its schema changes are linted) gives the same.
        let directory = try BuiltCommand.migrate([
            "lint", "--plan", fixtures.appendingPathComponent("SampleTrips").path,
        ])
        #expect(directory.status == 0 && directory.stdout == embedded.stdout, "\(directory)")

        // The benchmark's plan drops a column: destructive, and refused under --deny-destructive in every format.
        let bench = fixtures.appendingPathComponent("bench/trip-plan").path
        let text = try BuiltCommand.migrate(["lint", "--plan", bench])
        #expect(text.status == 0)
        #expect(text.stdout.contains("  1. [O(1), breaking] Rename column trip.start_date to startDate\n"))
        #expect(text.stdout.contains("  3. [destructive, rebuild, breaking] Rebuild table trip (copies every row): "))
        for format in ["text", "json", "markdown"] {
            let refused = try BuiltCommand.migrate(["lint", "--plan", bench, "--deny-destructive", "--format", format])
            #expect(refused.status == 5, "\(format): \(refused)")
            #expect(
                refused.stderr.hasPrefix(
                    "error: refused by --deny-destructive: 1 step can lose data\n  - 1.0.0 → 2.0.0: Rebuild table trip")
            )
            switch format {
            case "json":
                let object = try #require(try refused.json() as? [String: Any])
                #expect(object["exitStatus"] as? Int == 5 && object["destructive"] as? Bool == true)
                #expect((object["refusals"] as? [[String: Any]])?.first?["code"] as? String == "destructive")
                let step = try #require(
                    ((object["stages"] as? [[String: Any]])?.first?["steps"] as? [[String: Any]])?.last)
                #expect(
                    step["classes"] as? [String] == ["destructive", "rebuild"] && step["cost"] as? String == "rebuild")
            case "markdown":
                #expect(
                    refused.stdout.hasPrefix("> [!CAUTION]\n> **Refused by --deny-destructive:** 1 step can lose data.")
                )
                #expect(refused.stdout.contains("| 3 | Rebuild table trip (copies every row): "))
            default:
                #expect(refused.stdout == text.stdout)
            }
        }
        // The lightweight tail of SampleTrips is neither destructive nor data-dependent.
        let tail = try BuiltCommand.migrate([
            "lint", "--plan", Scratch.jsonPlan, "--deny-destructive", "--format", "json",
        ])
        #expect(tail.status == 0)
        #expect((try tail.json() as? [String: Any])?["refusals"] as? [Any] != nil)
    }

    @Test func applyCreateMakesAMissingFileAndTransactionStageCommitsEachStage() throws {
        let scratch = Scratch()
        let missing = scratch.path("new.sqlite")
        var result = try BuiltCommand.sampleTrips(["apply", "--database", missing])
        #expect(result.status == 5, "refused by default")
        #expect(
            result.stderr.contains(
                "fix: check the path; to create a new database with the latest schema, run apply with --create"))
        #expect(!FileManager.default.fileExists(atPath: missing))
        result = try BuiltCommand.sampleTrips(["apply", "--database", missing, "--create"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("created version 3.0.0 in an empty database"))

        let staged = try scratch.sampleTrips("v1.sqlite")
        result = try BuiltCommand.sampleTrips(["apply", "--database", staged, "--transaction", "stage", "--no-backup"])
        #expect(result.status == 0, "\(result)")
        #expect(
            try scratch.rows(staged, "SELECT version FROM _schema_migrations ORDER BY seq") == [
                ["'1.0.0'"], ["'2.0.0'"], ["'3.0.0'"],
            ])
    }
}
