import Foundation
import Testing

@testable import SchemaMigrations

extension Reliability {
    /// Mutated schema snapshots, used as the next version of a populated database: decoding,
    /// planning and migrating end in a typed `MigrationError` (the file untouched) or in a
    /// migration that keeps every row and value the new schema keeps.
    @Suite struct SnapshotFuzz {
        @Test(.timeLimit(.minutes(60)))
        func mutatedSnapshotsEndInATypedErrorOrACorrectMigration() throws {
            let config = ReliabilityConfig.current
            let scratch = Scratch("fuzz-snapshot")
            var tally = FuzzTally()
            for index in 0..<config.fuzzCases {
                var generator = SchemaGenerator(
                    random: SeededRandom(seed: config.seed, family: "fuzz-snapshot", index: index))
                let source = generator.database()
                var stage = generator.stage(from: source, to: Schema.Version(2, 0, 0))
                if stage.target.schema.versionHash == source.schema.versionHash { generator.forceChange(&stage) }
                var mutator = SnapshotMutator(random: generator.random)
                let (json, mutation) = mutator.mutate(Data(try stage.target.schema.snapshotJSON().utf8))
                let url = scratch.url("snapshot-\(index).sqlite")
                try Migrator(resolvedPlan: try ResolvedPlan(name: "fuzz", schemas: [source.schema], stages: []))
                    .migrate(databaseAt: url)
                try source.insertRows(into: SQLiteConnection(path: url.path))
                let outcome = Watchdog.run("fuzz-snapshot \(config.reproduction) case \(index)", seconds: 30) {
                    SnapshotFuzz.run(json, source: source, url: url)
                }
                tally.record(outcome, mutation: mutation)
                let context =
                    "snapshot case \(index) (\(mutation)); \(config.reproduction)\n\(String(decoding: json.prefix(3000), as: UTF8.self))"
                #expect(outcome != nil, "hang: \(context)")
                #expect(
                    outcome?.problems.isEmpty != false, "\(outcome?.problems.joined(separator: "; ") ?? ""): \(context)"
                )
                scratch.removeDatabase(url)
            }
            ReliabilityConfig.summary("fuzz-snapshots", tally.summary)
        }

        /// Decodes the snapshot, plans V1 → it, and migrates the database at `url`.
        static func run(_ json: Data, source: ModelDatabase, url: URL) -> FuzzOutcome {
            let before = url.databaseBytes()
            do {
                let target = try Schema(snapshotJSON: json)
                let plan = try ResolvedPlan(name: "fuzz", schemas: [source.schema, target], stages: [])
                let result = try Migrator(resolvedPlan: plan).migrate(databaseAt: url)
                return FuzzOutcome(
                    ending: result.outcome.rawValue,
                    problems: (try? RowPreservation.check(source: source, target: target, url: url)) ?? [
                        "cannot read the migrated database"
                    ])
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

/// After a successful migration to a schema nobody predicted: the database is sound, at the new
/// version, and every row of a table the new version continues keeps its id and the values of
/// the attributes it continues with the same type (a NULL may take the new default).
enum RowPreservation {
    static func check(source: ModelDatabase, target: Schema, url: URL, plan: String = "fuzz") throws -> [String] {
        let db = try SQLiteConnection(path: url.path)
        var problems: [String] = []
        if let integrity = try db.scalar("PRAGMA integrity_check")?.stringValue, integrity != "ok" {
            problems.append("integrity_check: \(integrity)")
        }
        let version = try MetadataStore(db: db, plan: plan).current()?.version
        if version != target.version {
            problems.append("recorded version \(version?.description ?? "none"), expected \(target.version)")
        }
        let stored = try StorageLayout.expand(target)
        // As MIGRATIONS.md matches names: an originalName naming an item of the previous version
        // claims it (a swap, a new item taking a renamed one's name); else the unclaimed same name.
        let claimedTables = Set(stored.entities.compactMap(\.originalName).filter { source.table($0) != nil })
        for entity in stored.entities {
            let old =
                entity.originalName.flatMap { source.table($0) }
                ?? (claimedTables.contains(entity.name) ? nil : source.table(entity.name))
            guard let old, !entity.isJoinTable else { continue }
            var pairs: [(Schema.Attribute, Schema.Attribute)] = []
            let claimed = Set(
                entity.attributes.compactMap(\.originalName).filter { old.entity.attribute(named: $0) != nil })
            for attribute in entity.attributes {
                let match =
                    attribute.originalName.flatMap { old.entity.attribute(named: $0) }
                    ?? (claimed.contains(attribute.name) ? nil : old.entity.attribute(named: attribute.name))
                if let match, match.valueType == attribute.valueType { pairs.append((match, attribute)) }
            }
            let columns = ["id"] + pairs.map { SQL.quoteIdentifier($0.1.name) }
            let rows = try db.rows(
                "SELECT \(columns.joined(separator: ", ")) FROM \(SQL.quoteIdentifier(entity.name)) ORDER BY id")
            if rows.map({ $0[0] }) != old.rows.map({ .integer($0.id) }) {
                problems.append(
                    "\(entity.name) has ids \(rows.prefix(20).map { $0[0].description }), expected \(old.rows.prefix(20).map(\.id))"
                )
                continue
            }
            for (row, oldRow) in zip(rows, old.rows) {
                for (offset, pair) in pairs.enumerated() {
                    let was = oldRow.values[pair.0.name] ?? .null
                    let now = row[offset + 1]
                    if was != now && !(was == .null && !pair.1.isOptional) {
                        problems.append(
                            "\(entity.name) row \(oldRow.id).\(pair.1.name) was \(was.sqlLiteral), is \(now.sqlLiteral)"
                        )
                    }
                }
            }
        }
        return Array(problems.prefix(10))
    }
}
