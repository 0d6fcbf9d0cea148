import Foundation
import SchemaMigrations
import Testing

/// `snapshot` through the built executables, and the committed fixtures it wrote kept current.
@Suite struct SnapshotCommandTests {
    static let fixtures = BuiltCommand.repositoryRoot.appendingPathComponent("Fixtures/SampleTrips")

    /// Every file of `expected` is in `actual` with the same bytes, and nothing else is.
    static func expectSameFiles(_ actual: URL, _ expected: URL, sourceLocation: SourceLocation = #_sourceLocation)
        throws
    {
        let files = { (url: URL) in
            try FileManager.default.contentsOfDirectory(atPath: url.path).filter { $0.hasSuffix(".json") }.sorted()
        }
        #expect(try files(actual) == files(expected), sourceLocation: sourceLocation)
        for file in try files(expected) {
            #expect(
                try Data(contentsOf: actual.appendingPathComponent(file))
                    == Data(contentsOf: expected.appendingPathComponent(file)),
                "\(file) is not what `snapshot` writes today: regenerate it (see README)",
                sourceLocation: sourceLocation)
        }
    }

    @Test func theCommittedPlanDirectoriesAreWhatSnapshotWritesToday() throws {
        let scratch = Scratch()
        let whole = scratch.directory.appendingPathComponent("whole")
        let tail = scratch.directory.appendingPathComponent("tail")
        var result = try BuiltCommand.sampleTrips(["snapshot", "--output", whole.path, "--include-custom-stages"])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.stderr
                == "note: the stage 1.0.0 → 2.0.0 is custom: `migrate --plan` refuses this directory, the command embedding the Swift plan runs it; --from 2.0.0 writes the versions from 2.0.0 on, which `migrate --plan` runs\n"
        )
        #expect(
            result.stdout
                == ["plan.json", "schema-1.0.0.json", "schema-2.0.0.json", "schema-3.0.0.json"].map {
                    "wrote \(whole.path)/\($0)\n"
                }.joined())
        // The released snapshots keep the bytes they were frozen with (the writer may have
        // learnt new keys since): what must hold is that they declare the same schemas.
        #expect(try PlanDirectory(contentsOf: whole) == PlanDirectory(contentsOf: Self.fixtures))
        #expect(
            try Data(contentsOf: whole.appendingPathComponent("plan.json"))
                == Data(contentsOf: Self.fixtures.appendingPathComponent("plan.json")))

        // json-plan/ is entirely generated: byte for byte what `snapshot --from 2.0.0` writes.
        result = try BuiltCommand.sampleTrips(["snapshot", "--output", tail.path, "--from", "2.0.0"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty)
        try Self.expectSameFiles(tail, Self.fixtures.appendingPathComponent("json-plan"))
    }

    /// A directory holding a custom stage is one `migrate --plan` refuses to load (even `status`):
    /// `snapshot` refuses to write it, exit 5, writing nothing, and says how to get one it loads.
    @Test func aPlanWithACustomStageIsRefusedWithTheRemedyAndNothingWritten() throws {
        let scratch = Scratch()
        let output = scratch.directory.appendingPathComponent("plan")
        let result = try BuiltCommand.sampleTrips(["snapshot", "--output", output.path])
        #expect(result.status == 5, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr
                == """
                sample-trips: the stage 1.0.0 → 2.0.0 is custom in the plan 'SampleTrips': its code is Swift, which a JSON plan directory cannot hold, so `migrate --plan` would refuse the directory; nothing was written
                  fix: --from 2.0.0 writes the versions from 2.0.0 on, which `migrate --plan` runs; --include-custom-stages writes the whole plan all the same, to freeze every version's snapshot (the command embedding the Swift plan runs it)

                """)
        #expect(!FileManager.default.fileExists(atPath: output.path))

        // The bare command rewriting such a directory refuses it the same way.
        let rewritten = try BuiltCommand.migrate(["snapshot", "--plan", Self.fixtures.path, "--output", output.path])
        #expect(rewritten.status == 5, "\(rewritten)")
        #expect(rewritten.stderr.hasPrefix("migrate: the stage 1.0.0 → 2.0.0 is custom in the plan 'SampleTrips'"))
        #expect(!FileManager.default.fileExists(atPath: output.path))

        // What the remedy says is a directory the bare command loads.
        let tail = scratch.directory.appendingPathComponent("tail")
        #expect(try BuiltCommand.sampleTrips(["snapshot", "--output", tail.path, "--from", "2.0.0"]).status == 0)
        let database = try scratch.sampleTrips("v2.sqlite", at: Schema.Version(2, 0, 0))
        let status = try BuiltCommand.migrate(["status", "--plan", tail.path, "--database", database])
        #expect(status.status == 3, "\(status)")
    }

    @Test func theBareCommandNormalizesAPlanDirectory() throws {
        let scratch = Scratch()
        let output = scratch.directory.appendingPathComponent("normalized")
        let result = try BuiltCommand.migrate(["snapshot", "--plan", Scratch.jsonPlan, "--output", output.path])
        #expect(result.status == 0, "\(result)")
        try Self.expectSameFiles(output, URL(fileURLWithPath: Scratch.jsonPlan))
    }

    @Test func theBareCommandRefusesACustomStageAndSaysToEmbedTheCommand() throws {
        let scratch = Scratch()
        let database = try scratch.sampleTrips("v1.sqlite")
        let result = try BuiltCommand.migrate(["apply", "--plan", Self.fixtures.path, "--database", database])
        #expect(result.status == 2, "\(result)")
        #expect(
            result.stderr.hasPrefix(
                "migrate: the plan cannot be loaded\nerror: the stage 1.0.0 → 2.0.0 of the plan 'SampleTrips' is custom: "
            ))
        #expect(
            result.stderr.contains(
                "fix: run the migration from an executable of your app that embeds the command with its Swift plan: `MigrateCommand.main(plan: YourMigrationPlan.self)`"
            ))
    }

    @Test func usageErrorsThroughTheBinaryNameTheFlagAndExit2() throws {
        var result = try BuiltCommand.migrate([
            "plan", "--plan", Scratch.jsonPlan, "--database", "x.sqlite", "--fromat", "json",
        ])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr.hasPrefix(
                "error: unknown option '--fromat' for 'plan'\n  did you mean '--format'?\n\nusage: migrate plan --database PATH... --plan DIR "
            ))
        result = try BuiltCommand.migrate(["snapshot", "--plan", Scratch.jsonPlan])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("error: missing --output DIR\n"))
        result = try BuiltCommand.migrate(["--help"])
        #expect(result.status == 0)
        #expect(
            result.stdout.hasPrefix(
                "usage: migrate <subcommand> [options]\n\nMigrates SQLite databases between the schema versions of a JSON plan directory (--plan DIR).\n"
            ))
    }
}
