import Foundation
import SchemaMigrations
import Testing

/// A fleet of 1,000 files, named by a list file, by standard input or by a glob the command
/// expands itself, migrated two at a time: every good file migrated, the three bad ones refused
/// and left byte for byte as they were, the summary and the JSON right.
@Suite(.serialized) struct LargeFleetTests {
    /// 1,000 files in `fleet/`: copies of one V2 SampleTrips database, and at 100, 500 and 900 a
    /// text file, a file of zeros and a database at a version newer than the plan.
    static func fleet(in scratch: Scratch, count: Int = 1000) throws -> (paths: [String], bad: [Int]) {
        let directory = scratch.directory.appendingPathComponent("fleet")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let template = try scratch.sampleTrips("template.sqlite", at: Schema.Version(2, 0, 0), trips: 4)
        let newer = try scratch.sampleTrips("newer.sqlite", at: Schema.Version(2, 0, 0), trips: 4)
        try scratch.execute(
            newer,
            "UPDATE _schema_migrations SET version = '9.0.0' WHERE seq = (SELECT max(seq) FROM _schema_migrations)")
        let bad = [99, 499, 899]
        let paths = try (0..<count).map { index -> String in
            let path = directory.appendingPathComponent(String(format: "tenant-%04d.sqlite", index)).path
            switch index {
            case bad[0]: try Data("not a database at all, only some text".utf8).write(to: URL(fileURLWithPath: path))
            case bad[1]: try Data(count: 4096).write(to: URL(fileURLWithPath: path))
            case bad[2]: try FileManager.default.copyItem(atPath: newer, toPath: path)
            default: try FileManager.default.copyItem(atPath: template, toPath: path)
            }
            return path
        }
        return (paths, bad)
    }

    @Test func aListFileOf1000DatabasesWithTwoJobsGivesValidJSON() throws {
        let scratch = Scratch()
        let (paths, bad) = try Self.fleet(in: scratch)
        let badBytes = try bad.map { try scratch.bytes(paths[$0]) }
        let list = scratch.path("databases.txt")
        try ("# tenants\n" + paths.joined(separator: "\n") + "\n\n").write(
            toFile: list, atomically: true, encoding: .utf8)

        let result = try BuiltCommand.migrate([
            "apply", "--plan", Scratch.jsonPlan, "--databases-from", list, "--jobs", "2", "--no-backup", "--format",
            "json",
        ])
        #expect(result.status == 5, "\(result.stderr.prefix(2000))")
        let outcomes = try #require(try result.json() as? [[String: Any]])
        #expect(
            outcomes.map { $0["database"] as? String } == paths,
            "in the order of the list, whatever order they finished in")
        for (index, outcome) in outcomes.enumerated() {
            if bad.contains(index) {
                #expect(outcome["exitStatus"] as? Int == 5, "\(paths[index])")
                #expect((outcome["error"] as? [String: Any])?["remedy"] is String)
            } else {
                #expect(
                    outcome["exitStatus"] as? Int == 0 && outcome["currentVersion"] as? String == "3.0.0",
                    "\(paths[index]): \(outcome)")
            }
        }
        #expect(try bad.map { try scratch.bytes(paths[$0]) } == badBytes, "the bad files are untouched")
        for index in [0, 500, 999] {
            #expect(
                try scratch.rows(paths[index], "SELECT version FROM _schema_migrations ORDER BY seq DESC LIMIT 1") == [
                    ["'3.0.0'"]
                ])
            #expect(try scratch.rows(paths[index], "PRAGMA integrity_check") == [["'ok'"]])
        }
    }

    @Test func aGlobOf1000DatabasesWithTwoJobsGivesTheSummaryWithBackups() throws {
        let scratch = Scratch()
        let (paths, bad) = try Self.fleet(in: scratch)
        let badBytes = try bad.map { try scratch.bytes(paths[$0]) }
        let backups = scratch.path("backups")
        let pattern = scratch.directory.appendingPathComponent("fleet/tenant-*.sqlite").path

        let result = try BuiltCommand.migrate([
            "apply", "--plan", Scratch.jsonPlan, "--database", pattern, "--jobs", "2", "--backup", backups,
            "--progress",
        ])
        #expect(result.status == 5, "\(result.stderr.prefix(2000))")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 1002)
        #expect(
            lines[0].hasPrefix("DATABASE ") && lines[0].contains(" STATUS  TIME ") && lines[0].contains(" RESULT ")
                && lines[0].hasSuffix(" BACKUP"))
        #expect(lines[1001] == "1000 databases: 997 ok (0), 3 refused (5); exit status 5")
        for (index, path) in paths.enumerated() {
            let line = lines[index + 1]
            #expect(line.hasPrefix(path + " "), "the glob's matches in order, with full paths")
            if bad.contains(index) {
                #expect(line.contains(" 5 ") && line.hasSuffix(" -"), "\(line)")
            } else {
                #expect(
                    line.contains("migrated 2.0.0 → 3.0.0 in ")
                        && line.hasSuffix(
                            " \(backups)/tenant-\(String(format: "%04d", index)).sqlite.backup-" + line.suffix(16)),
                    "\(line)")
            }
        }
        // The [k/N] counter on standard error, one line per database without a terminal, with full paths.
        let counter = result.stderr.split(separator: "\n").filter { $0.hasPrefix("[") }
        #expect(counter.count == 1000)
        #expect(counter.last?.hasPrefix("[1000/1000] \(scratch.directory.path)/fleet/tenant-") == true)
        #expect(try bad.map { try scratch.bytes(paths[$0]) } == badBytes)
        #expect(try FileManager.default.contentsOfDirectory(atPath: backups).count == 997)
    }

    @Test func standardInputNamesTheDatabasesAndAGlobMatchingNothingIsAUsageError() throws {
        let scratch = Scratch()
        let (paths, _) = try Self.fleet(in: scratch, count: 3)
        let result = try BuiltCommand.migrate(
            ["status", "--plan", Scratch.jsonPlan, "--databases-from", "-", "--format", "json"],
            input: paths.joined(separator: "\n"))
        #expect(result.status == 3, "\(result)")
        #expect((try result.json() as? [[String: Any]])?.count == 3)

        let none = try BuiltCommand.migrate([
            "status", "--plan", Scratch.jsonPlan, "--database", scratch.path("nothing-*.sqlite"), "--format", "json",
        ])
        #expect(none.status == 2)
        #expect(
            ((try none.json() as? [String: Any])?["error"] as? [String: Any])?["message"] as? String
                == "--database '\(scratch.path("nothing-*.sqlite"))' matches no file")
    }

    @Test func aFleetsSQLIsOneScriptPerDatabaseOrRefused() throws {
        let scratch = Scratch()
        let (paths, _) = try Self.fleet(in: scratch, count: 2)
        let refused = try BuiltCommand.migrate([
            "plan", "--plan", Scratch.jsonPlan, "--database", paths[0], "--database", paths[1], "--format", "sql",
        ])
        #expect(refused.status == 2)
        #expect(
            refused.stderr.hasPrefix(
                "error: --format sql with 2 databases needs --output DIR: one script per database\n  add --output DIR"))
        #expect(refused.stdout.isEmpty)

        let output = scratch.path("scripts")
        let written = try BuiltCommand.migrate([
            "plan", "--plan", Scratch.jsonPlan, "--database", paths[0], "--database", paths[1], "--format", "sql",
            "--output", output,
        ])
        #expect(written.status == 0, "\(written)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: output).sorted() == [
                "tenant-0000.sqlite.sql", "tenant-0001.sqlite.sql",
            ])
        #expect(written.stdout.contains("wrote \(output)/tenant-0000.sqlite.sql\n"))
        let script = try String(contentsOfFile: output + "/tenant-0000.sqlite.sql", encoding: .utf8)
        #expect(script.contains("ALTER TABLE \"Trip\" RENAME COLUMN \"start_date\" TO \"startDate\";"))
    }
}

/// Two tenants' files of the same name, backed up into one directory by parallel workers, get
/// two backups: one never replaces the other.
@Suite struct SameNameBackupTests {
    @Test func sameNamedDatabasesGetDistinctBackups() throws {
        let scratch = Scratch()
        let template = try scratch.sampleTrips("template.sqlite", at: Schema.Version(2, 0, 0), trips: 4)
        let tenants = try (0..<8).map { index -> String in
            let directory = scratch.directory.appendingPathComponent("tenant-\(index)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let path = directory.appendingPathComponent("app.sqlite").path
            try FileManager.default.copyItem(atPath: template, toPath: path)
            return path
        }
        let backups = scratch.path("backups")
        let result = try BuiltCommand.migrate([
            "apply", "--plan", Scratch.jsonPlan, "--database", scratch.path("tenant-*/app.sqlite"),
            "--jobs", "4", "--backup", backups, "--format", "json",
        ])
        #expect(result.status == 0, "\(result)")
        let outcomes = try #require(try result.json() as? [[String: Any]])
        let paths = outcomes.compactMap { $0["backup"] as? String }
        #expect(outcomes.map { $0["database"] as? String } == tenants)
        #expect(Set(paths).count == 8)
        #expect(try FileManager.default.contentsOfDirectory(atPath: backups).count == 8)
        for path in paths {
            #expect(
                try scratch.rows(path, "SELECT version FROM _schema_migrations ORDER BY seq DESC LIMIT 1") == [
                    ["'2.0.0'"]
                ])
        }
    }
}
