import CFaultVFS
import Foundation
import Testing

@testable import SchemaMigrations

extension Reliability {
    /// A stage that rebuilds a full-text table (a column added to an FTS5 table: a new virtual
    /// table filled from the old one's content, the old one and its shadow tables dropped), with
    /// every write, sync or read failing in turn: the migration ends with a `MigrationError` and
    /// the file as it was, or fully migrated, never with a virtual table half copied.
    @Suite struct VirtualTableFaults {
        static let planName = "search"

        static let schemas: [Schema] = {
            let document = Schema.Entity(
                name: "Document", attributes: [Schema.Attribute(name: "title", valueType: .string, defaultValue: "''")])
            return [
                Schema(
                    version: Schema.Version(1, 0, 0), entities: [document],
                    sqlObjects: [.virtualTable("CREATE VIRTUAL TABLE search USING fts5(title, body)")]),
                Schema(
                    version: Schema.Version(2, 0, 0), entities: [document],
                    sqlObjects: [.virtualTable("CREATE VIRTUAL TABLE search USING fts5(title, body, tags)")]),
            ]
        }()

        static func migrator(options: MigrationOptions) throws -> Migrator {
            Migrator(
                resolvedPlan: try ResolvedPlan(
                    name: planName, schemas: schemas,
                    stages: [PlannedStage(from: schemas[0].version, to: schemas[1].version, kind: .lightweight)]),
                options: options)
        }

        /// Version 1 with 300 documents, each in the full-text table.
        static func populate(_ url: URL, wal: Bool) throws {
            var options = MigrationOptions()
            options.targetVersion = schemas[0].version
            try migrator(options: options).migrate(databaseAt: url)
            let db = try SQLiteConnection(path: url.path, mode: .readWrite)
            if wal { try db.execute("PRAGMA journal_mode = WAL") }
            try db.transaction {
                for id in 1...300 {
                    let title = "document \(id) " + String(repeating: "z", count: id % 17)
                    try db.execute(
                        "INSERT INTO Document (id, title) VALUES (?, ?)", [.integer(Int64(id)), .text(title)])
                    try db.execute(
                        "INSERT INTO search (rowid, title, body) VALUES (?, ?, ?)",
                        [
                            .integer(Int64(id)), .text(title),
                            .text((0..<(id % 40 + 5)).map { "word\(($0 * id) % 97)" }.joined(separator: " ")),
                        ])
                }
            }
        }

        @Test(.timeLimit(.minutes(30)), arguments: FaultMode.allCases)
        func aFailedCallDuringAVirtualTableRebuildLeavesTheOldFile(mode: FaultMode) throws {
            let config = ReliabilityConfig.current
            var random = SeededRandom(seed: config.seed, family: "virtual-table-faults-\(mode)", index: 0)
            let scratch = Scratch("virtual-table-faults")
            let pristine = scratch.url("pristine.sqlite")
            try Self.populate(pristine, wal: mode == .wal)
            let sweep = try FaultSweep(
                pristine: pristine, mode: mode, scratch: scratch, migrator: { try Self.migrator(options: $0) },
                planName: Self.planName)
            #expect(sweep.old != sweep.new, "the stage changes the file")
            let steps = try Self.migrator(options: MigrationOptions()).plan(databaseAt: pristine).stages.flatMap(
                \.steps)
            #expect(
                steps.contains {
                    if case .rebuildVirtualTable = $0.step.action { return $0.sql.contains { $0.hasPrefix("INSERT") } }
                    return false
                }, "the stage copies the full-text table: \(steps.map(\.sql))")
            let counts = try sweep.counts()
            var tally = FaultTally()
            for fault in FaultKind.all(persistent: Bool.random(using: &random)) {
                for n in FaultSweep.points(count: counts[Int(fault.kind)], sample: config.faultPoints, random: &random)
                {
                    let outcome = try sweep.run(fault, at: n)
                    tally.record(outcome)
                    #expect(
                        outcome.problems.isEmpty,
                        "\(fault) at call \(n) of \(counts[Int(fault.kind)]) (\(mode)): \(outcome.problems.joined(separator: "; ")); \(config.reproduction)"
                    )
                }
            }
            #expect(tally.runs > tally.succeeded, "some fault made the migration fail")
            ReliabilityConfig.summary(
                "virtual-table-faults-\(mode)",
                "calls=[writes \(counts[0]), syncs \(counts[1]), reads \(counts[2])] " + tally.summary)
        }
    }
}
