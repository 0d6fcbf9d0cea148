import Foundation
import SchemaMigrations
import Testing

/// A fleet: `--database` repeated, each file migrated on its own, all or nothing, a summary, and
/// the worst status.
@Suite struct FleetTests {
    /// 20 files: 7 at 1.0.0, 6 at 2.0.0, 6 at 3.0.0, and one corrupt (the 11th).
    static func fleet(in scratch: Scratch) throws -> [String] {
        try (1...20).map { index in
            let name = String(format: "shop-%02d.sqlite", index)
            if index == 11 { return try scratch.corrupt(name) }
            return try scratch.sampleTrips(name, at: Schema.Version(index % 3 + 1, 0, 0), trips: 8)
        }
    }

    @Test func twentyFilesOneCorruptMigrateTheGoodOnesAndReportTheBadOneWithStatus5() throws {
        let scratch = Scratch()
        let databases = try Self.fleet(in: scratch)
        let corruptBytes = try scratch.bytes(databases[10])
        let result = try BuiltCommand.sampleTrips(
            ["apply", "--no-backup", "--format", "json"] + databases.flatMap { ["--database", $0] })
        #expect(result.status == 5, "\(result)")
        let outcomes = try #require(try result.json() as? [[String: Any]])
        #expect(outcomes.map { $0["database"] as? String } == databases)
        for (index, outcome) in outcomes.enumerated() where index != 10 {
            #expect(outcome["exitStatus"] as? Int == 0, "\(databases[index])")
            #expect(outcome["currentVersion"] as? String == "3.0.0")
            #expect(outcome["outcome"] as? String == ((index + 1) % 3 + 1 == 3 ? "upToDate" : "migrated"))
            #expect(
                try scratch.rows(databases[index], "SELECT version FROM _schema_migrations ORDER BY seq DESC LIMIT 1")
                    == [["'3.0.0'"]])
        }
        #expect(outcomes[10]["exitStatus"] as? Int == 5)
        #expect((outcomes[10]["error"] as? [String: Any])?["code"] as? String == "notADatabase")
        #expect(
            result.stderr == "\(databases[10]): error: '\(databases[10])' is not a SQLite database, or is corrupt\n"
                + "  SQLite error 26 (SQLITE_NOTADB): file is not a database - while executing `PRAGMA schema_version`\n"
                + "  fix: check the path; restore the file from a backup if it is corrupt\n")
        #expect(try scratch.bytes(databases[10]) == corruptBytes)
    }

    @Test func theTextSummaryHasALinePerDatabaseAndTheTotal() throws {
        let scratch = Scratch()
        let databases = try Array(Self.fleet(in: scratch).prefix(3)) + [scratch.corrupt("bad.sqlite")]
        let result = try BuiltCommand.sampleTrips(["status"] + databases.flatMap { ["--database", $0] })
        #expect(result.status == 5, "\(result)")
        let width = databases.map(\.count).max()! + 2
        let lines = result.stdout.split(separator: "\n").map(String.init)
        // The TIME column (each file's duration) varies: check it has one, then the rest exactly.
        let time = try Regex(#"^\d+\.\d ms +"#)
        func withoutTime(_ line: String) -> String {
            guard line.count > width + 8 else { return line }
            let start = line.index(line.startIndex, offsetBy: width + 8)
            let rest = String(line[start...])
            guard let match = rest.firstMatch(of: time) else { return line + " (no TIME)" }
            return String(line[..<start]) + rest[match.range.upperBound...]
        }
        func row(_ database: String, _ status: Int, _ summary: String) -> String {
            database.padding(toLength: width, withPad: " ", startingAt: 0)
                + "\(status)".padding(toLength: 8, withPad: " ", startingAt: 0) + summary
        }
        #expect(
            lines[0].hasPrefix("DATABASE".padding(toLength: width, withPad: " ", startingAt: 0) + "STATUS  TIME ")
                && lines[0].hasSuffix(" RESULT"))
        #expect(
            lines.dropFirst().map(withoutTime) == [
                row(databases[0], 3, "pending: 2.0.0 → 3.0.0 (1 stage)"),
                row(databases[1], 0, "up to date at 3.0.0"),
                row(databases[2], 3, "pending: 1.0.0 → 3.0.0 (2 stages)"),
                row(databases[3], 5, "refused (5): '\(databases[3])' is not a SQLite database, or is corrupt"),
                "4 databases: 1 ok (0), 2 pending (3), 1 refused (5); exit status 5",
            ])
    }
}
