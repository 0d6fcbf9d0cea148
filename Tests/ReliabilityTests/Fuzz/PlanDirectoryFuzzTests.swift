import Foundation
import Testing

@testable import SchemaMigrations

extension Reliability {
    /// Mutated JSON plan directories (what the `migrate` command reads with `--plan DIR`): one
    /// file of `plan.json` and the snapshots mutated, or deleted. Reading, planning and migrating
    /// end in a typed `MigrationError` with the database untouched, or in a correct migration.
    @Suite struct PlanDirectoryFuzz {
        @Test(.timeLimit(.minutes(60)))
        func mutatedPlanDirectoriesEndInATypedErrorOrACorrectMigration() throws {
            let config = ReliabilityConfig.current
            let scratch = Scratch("fuzz-plan")
            var tally = FuzzTally()
            for index in 0..<max(1, config.fuzzCases / 2) {
                var generator = SchemaGenerator(
                    random: SeededRandom(seed: config.seed, family: "fuzz-plan", index: index))
                let source = generator.database()
                var stage = generator.stage(from: source, to: Schema.Version(2, 0, 0))
                if stage.target.schema.versionHash == source.schema.versionHash { generator.forceChange(&stage) }
                let directory = scratch.url("plan-\(index)")
                try PlanDirectory(
                    name: "fuzz", schemas: [source.schema, stage.target.schema],
                    stages: [StageHeader(from: source.version, to: stage.target.version, kind: .lightweight)]
                ).write(to: directory)
                let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
                let file = directory.appendingPathComponent(
                    files[Int.random(in: 0..<files.count, using: &generator.random)])
                var mutation = "delete \(file.lastPathComponent)"
                if generator.random.chance(0.05) {
                    try FileManager.default.removeItem(at: file)
                } else {
                    var mutator = SnapshotMutator(random: generator.random)
                    let (data, kind) = mutator.mutate(try Data(contentsOf: file))
                    try data.write(to: file)
                    mutation =
                        "\(kind) in \(file.lastPathComponent == PlanDirectory.planFileName ? "plan.json" : "a snapshot")"
                }
                let url = scratch.url("plan-\(index).sqlite")
                try Migrator(resolvedPlan: try ResolvedPlan(name: "fuzz", schemas: [source.schema], stages: []))
                    .migrate(databaseAt: url)
                try source.insertRows(into: SQLiteConnection(path: url.path))
                let outcome = Watchdog.run("fuzz-plan \(config.reproduction) case \(index)", seconds: 30) {
                    PlanDirectoryFuzz.run(directory, source: source, url: url)
                }
                tally.record(outcome, mutation: mutation)
                #expect(outcome != nil, "hang: plan case \(index) (\(mutation)); \(config.reproduction)")
                #expect(
                    outcome?.problems.isEmpty != false,
                    "plan case \(index) (\(mutation)): \(outcome?.problems.joined(separator: "; ") ?? ""); \(config.reproduction)"
                )
                scratch.removeDatabase(url)
                try? FileManager.default.removeItem(at: directory)
            }
            ReliabilityConfig.summary("fuzz-plans", tally.summary)
        }

        static func run(_ directory: URL, source: ModelDatabase, url: URL) -> FuzzOutcome {
            let before = url.databaseBytes()
            do {
                let plan = try PlanDirectory(contentsOf: directory)
                let result = try Migrator(planDirectory: plan).migrate(databaseAt: url)
                guard let target = plan.schemas.last, result.outcome != .upToDate else {
                    return FuzzOutcome(ending: result.outcome.rawValue, problems: [])
                }
                return FuzzOutcome(
                    ending: result.outcome.rawValue,
                    problems: (try? RowPreservation.check(source: source, target: target, url: url, plan: plan.name))
                        ?? ["cannot read the migrated database"])
            } catch let error as MigrationError {
                return FuzzOutcome(
                    ending: error.code.rawValue,
                    problems: url.databaseBytes() == before
                        ? [] : ["\(error.code) error, but the file changed: \(error)"])
            } catch {
                return FuzzOutcome(
                    ending: "untyped", problems: ["threw \(type(of: error)), not a MigrationError: \(error)"])
            }
        }
    }
}
