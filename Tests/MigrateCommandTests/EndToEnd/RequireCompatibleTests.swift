import Foundation
import SchemaMigrations
import Testing

/// `--require-compatible` on `lint`, `plan` and `apply`: a stage that breaks the code of the version
/// it starts from is refused (exit 5) before anything is written, naming the stage and reasons,
/// with a `fix:` line; a compatible plan, or one with nothing pending, passes.
@Suite struct RequireCompatibleTests {
    /// Trip at 1.0.0 (name, notes?), and 2.0.0 adding an optional `rating`: compatible.
    static let tripV1 = Schema.Entity(
        name: "Trip",
        attributes: [
            Schema.Attribute(name: "name", valueType: .string, defaultValue: "''"),
            Schema.Attribute(name: "notes", valueType: .string, isOptional: true),
        ])

    /// Writes a JSON plan directory of `versions` (1.0.0, 2.0.0, …) with lightweight stages between them.
    static func plan(_ versions: [[Schema.Entity]], in scratch: Scratch, named name: String) throws -> String {
        let schemas = versions.enumerated().map {
            Schema(version: Schema.Version($0.offset + 1, 0, 0), entities: $0.element)
        }
        let stages = zip(schemas, schemas.dropFirst()).map {
            StageHeader(from: $0.version, to: $1.version, kind: .lightweight)
        }
        let directory = URL(fileURLWithPath: scratch.path(name))
        _ = try PlanDirectory(name: "trips", schemas: schemas, stages: stages).write(to: directory)
        return directory.path
    }

    static func compatibleTarget() -> [Schema.Entity] {
        var trip = tripV1
        trip.attributes.append(Schema.Attribute(name: "rating", valueType: .integer, isOptional: true))
        return [trip]
    }

    static func breakingTarget() -> [Schema.Entity] {
        var trip = tripV1
        trip.attributes[1] = Schema.Attribute(
            name: "summary", valueType: .string, isOptional: true, originalName: "notes")
        return [trip]
    }

    /// A database at 1.0.0 of `plan`, with two trips.
    static func database(_ plan: String, in scratch: Scratch) throws -> String {
        let path = scratch.path("trips.sqlite")
        let created = try BuiltCommand.migrate([
            "apply", "--plan", plan, "--database", path, "--create", "--to", "1.0.0",
        ])
        #expect(created.status == 0, "\(created)")
        try scratch.execute(path, "INSERT INTO Trip (name, notes) VALUES ('Paris', 'spring'), ('Rome', NULL)")
        return path
    }

    @Test func lintRefusesABreakingPlanInEveryFormatAndPassesACompatibleOne() throws {
        let scratch = Scratch()
        let breaking = try Self.plan([[Self.tripV1], Self.breakingTarget()], in: scratch, named: "breaking")
        for format in ["text", "json", "markdown"] {
            let result = try BuiltCommand.migrate([
                "lint", "--plan", breaking, "--require-compatible", "--format", format,
            ])
            #expect(result.status == 5, "\(format): \(result)")
            #expect(
                result.stderr.hasPrefix(
                    "error: stage 1.0.0 → 2.0.0 breaks the code of version 1.0.0, which instances not yet updated still run\n  entity: Trip, property: notes, version: 2.0.0\n  - 1.0.0 → 2.0.0: renames column Trip.notes to summary: the previous version reads and writes notes\n  fix: split the change expand/contract"
                ), "\(result.stderr)")
            switch format {
            case "json":
                let object = try #require(try result.json() as? [String: Any])
                #expect(object["exitStatus"] as? Int == 5 && object["breaking"] as? Bool == true)
                let refusal = try #require((object["refusals"] as? [[String: Any]])?.first)
                #expect(refusal["code"] as? String == "incompatibleChange")
                #expect((object["error"] as? [String: Any])?["code"] as? String == "incompatibleChange")
                let stage = try #require((object["stages"] as? [[String: Any]])?.first)
                let compatibility = try #require(stage["compatibility"] as? [String: Any])
                #expect(compatibility["class"] as? String == "breaking")
                let reason = try #require((compatibility["reasons"] as? [[String: Any]])?.first)
                #expect(reason["kind"] as? String == "columnRenamed" && reason["effect"] as? String == "statementsFail")
                #expect(reason["entity"] as? String == "Trip" && reason["property"] as? String == "notes")
                let step = try #require((stage["steps"] as? [[String: Any]])?.first)
                #expect((step["compatibility"] as? [String: Any])?["class"] as? String == "breaking")
            case "markdown":
                #expect(
                    result.stdout.hasPrefix(
                        "> [!CAUTION]\n> **Refused by --require-compatible:** stage 1.0.0 → 2.0.0 breaks"))
                #expect(result.stdout.contains("**Breaking:** 1.0.0's code fails on it."))
            default:
                #expect(
                    result.stdout.contains(
                        "  breaking: 1.0.0's code fails on it\n    - renames column Trip.notes to summary"))
                #expect(result.stdout.contains("  1. [O(1), breaking] Rename column Trip.notes to summary\n"))
            }
        }
        // Without the flag the same lint classifies, and passes.
        let plain = try BuiltCommand.migrate(["lint", "--plan", breaking])
        #expect(plain.status == 0 && plain.stderr.isEmpty, "\(plain)")

        let compatible = try Self.plan([[Self.tripV1], Self.compatibleTarget()], in: scratch, named: "compatible")
        let passed = try BuiltCommand.migrate([
            "lint", "--plan", compatible, "--require-compatible", "--deny-destructive", "--format", "json",
        ])
        #expect(passed.status == 0, "\(passed)")
        let object = try #require(try passed.json() as? [String: Any])
        #expect(object["breaking"] as? Bool == false && (object["refusals"] as? [Any])?.isEmpty == true)
        let stage = try #require((object["stages"] as? [[String: Any]])?.first)
        #expect((stage["compatibility"] as? [String: Any])?["class"] as? String == "compatible")

        // A plan with one version has no stage: nothing to refuse.
        let single = try Self.plan([[Self.tripV1]], in: scratch, named: "single")
        let none = try BuiltCommand.migrate(["lint", "--plan", single, "--require-compatible"])
        #expect(none.status == 0 && none.stdout.hasPrefix("plan trips: 0 stages"), "\(none)")
    }

    @Test func lintWithDenyDestructiveTooNamesBothRefusals() throws {
        let scratch = Scratch()
        var dropped = Self.tripV1
        dropped.attributes.removeLast()
        let plan = try Self.plan([[Self.tripV1], [dropped]], in: scratch, named: "drop")
        let result = try BuiltCommand.migrate([
            "lint", "--plan", plan, "--require-compatible", "--deny-destructive", "--format", "json",
        ])
        #expect(result.status == 5)
        #expect(result.stderr.contains("error: refused by --deny-destructive: 1 step can lose data"))
        #expect(result.stderr.contains("drops column Trip.notes: the previous version reads and writes it"))
        let object = try #require(try result.json() as? [String: Any])
        #expect(
            (object["refusals"] as? [[String: Any]])?.compactMap { $0["code"] as? String } == [
                "destructive", "incompatibleChange",
            ])
    }

    @Test func planAndApplyRefuseABreakingStageBeforeWritingAnything() throws {
        let scratch = Scratch()
        let plan = try Self.plan([[Self.tripV1], Self.breakingTarget()], in: scratch, named: "breaking")
        let database = try Self.database(plan, in: scratch)
        let before = try scratch.bytes(database)

        for format in ["text", "json", "markdown", "sql"] {
            let result = try BuiltCommand.migrate([
                "plan", "--plan", plan, "--database", database, "--require-compatible", "--format", format,
            ])
            #expect(result.status == 5, "\(format): \(result)")
            #expect(result.stderr.contains("error: stage 1.0.0 → 2.0.0 breaks the code of version 1.0.0"), "\(result)")
            #expect(result.stderr.contains("  fix: split the change expand/contract"))
            switch format {
            case "json":
                let object = try #require(try result.json() as? [String: Any])
                #expect(object["exitStatus"] as? Int == 5)
                #expect((object["error"] as? [String: Any])?["code"] as? String == "incompatibleChange")
                #expect((object["refusals"] as? [[String: Any]])?.first?["code"] as? String == "incompatibleChange")
                let stage = try #require((object["stages"] as? [[String: Any]])?.first)
                #expect((stage["compatibility"] as? [String: Any])?["class"] as? String == "breaking")
                let steps = try #require(stage["steps"] as? [[String: Any]])
                #expect(
                    steps.map { ($0["compatibility"] as? [String: Any])?["class"] as? String } == ["breaking"],
                    "the rename is the step that breaks")
            case "sql": #expect(result.stdout.isEmpty, "a refused plan prints no script")
            case "markdown": #expect(result.stdout.contains("> **Refused:** stage 1.0.0 → 2.0.0 breaks the code"))
            default: #expect(result.stdout.contains("REFUSED: stage 1.0.0 → 2.0.0 breaks the code of version 1.0.0"))
            }
        }
        for extra in [[], ["--deny-destructive"], ["--format", "json"], ["--backup", scratch.path("kept.backup")]] {
            let result = try BuiltCommand.migrate(
                ["apply", "--plan", plan, "--database", database, "--require-compatible"] + extra)
            #expect(result.status == 5, "\(extra): \(result)")
            #expect(
                result.stderr.contains("renames column Trip.notes to summary")
                    || result.stdout.contains("renames column Trip.notes to summary"), "\(result)")
            #expect(try scratch.bytes(database) == before, "refused: the file is byte for byte as it was")
            let left = try FileManager.default.contentsOfDirectory(atPath: scratch.directory.path)
            #expect(!left.contains { $0.contains("backup") }, "no backup is written: \(left)")
        }
        let status = try BuiltCommand.migrate(["status", "--plan", plan, "--database", database])
        #expect(status.status == 3, "still at 1.0.0, 2.0.0 pending: \(status)")

        // Without the flag it migrates.
        let applied = try BuiltCommand.migrate(["apply", "--plan", plan, "--database", database, "--no-backup"])
        #expect(applied.status == 0, "\(applied)")
    }

    @Test func aCompatiblePlanOrNothingPendingPasses() throws {
        let scratch = Scratch()
        let plan = try Self.plan([[Self.tripV1], Self.compatibleTarget()], in: scratch, named: "compatible")
        let database = try Self.database(plan, in: scratch)
        let planned = try BuiltCommand.migrate([
            "plan", "--plan", plan, "--database", database, "--require-compatible", "--format", "json",
        ])
        #expect(planned.status == 0, "\(planned)")
        let object = try #require(try planned.json() as? [String: Any])
        #expect(object["breaking"] as? Bool == false)
        let applied = try BuiltCommand.migrate([
            "apply", "--plan", plan, "--database", database, "--require-compatible", "--no-backup",
        ])
        #expect(applied.status == 0, "\(applied)")
        // Up to date: no stage pending, nothing to refuse.
        for subcommand in ["plan", "apply"] {
            let again = try BuiltCommand.migrate([
                subcommand, "--plan", plan, "--database", database, "--require-compatible",
            ])
            #expect(again.status == 0, "\(subcommand): \(again)")
        }
        // A breaking plan's database already at its last version: nothing pending either.
        let breaking = try Self.plan([[Self.tripV1], Self.breakingTarget()], in: scratch, named: "breaking")
        let current = scratch.path("current.sqlite")
        #expect(try BuiltCommand.migrate(["apply", "--plan", breaking, "--database", current, "--create"]).status == 0)
        let nothing = try BuiltCommand.migrate([
            "apply", "--plan", breaking, "--database", current, "--require-compatible",
        ])
        #expect(nothing.status == 0, "\(nothing)")
    }

    @Test func aCustomStageSaysItsCodeIsNotClassified() throws {
        let result = try BuiltCommand.sampleTrips(["lint", "--format", "json"])
        #expect(result.status == 0, "\(result)")
        let object = try #require(try result.json() as? [String: Any])
        let stages = try #require(object["stages"] as? [[String: Any]])
        let compatibility = stages.compactMap { $0["compatibility"] as? [String: Any] }
        #expect(compatibility.map { $0["class"] as? String } == ["breaking", "breaking"])
        #expect(compatibility.map { $0["codeClassified"] as? Bool } == [false, nil], "only the custom stage says so")
    }

    @Test func theVariableSetsTheFlagAndHelpNamesIt() throws {
        let scratch = Scratch()
        let plan = try Self.plan([[Self.tripV1], Self.breakingTarget()], in: scratch, named: "breaking")
        let result = try BuiltCommand.migrate(
            ["lint", "--plan", plan], environment: ["MIGRATE_REQUIRE_COMPATIBLE": "1"])
        #expect(result.status == 5, "\(result)")
        for subcommand in ["lint", "plan", "apply"] {
            let help = try BuiltCommand.migrate(["help", subcommand])
            #expect(help.stdout.contains("--require-compatible"), "\(subcommand)")
        }
    }
}
