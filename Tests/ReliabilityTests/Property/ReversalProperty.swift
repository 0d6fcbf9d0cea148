import Foundation
import Testing

@testable import SchemaMigrations

extension Reliability {
    /// The property family's random plans taken back: V1 migrated to the last version, then
    /// back to V1. Where the way back is refused (a change it cannot make exactly, data a newer
    /// version added, unless allowed), nothing is written; otherwise the declared shape equals a
    /// new install at V1, and every row keeps the values of each V1 column that lives through
    /// every version unconverted.
    @Suite struct ReversalProperty {
        @Test(.timeLimit(.minutes(60)))
        func migratingForwardThenBackEqualsTheFirstVersion() throws {
            let config = ReliabilityConfig.current
            let scratch = Scratch("reversal")
            var counts: [String: Int] = [:]
            for index in 0..<config.reversalCases {
                let testCase = PropertyMigrations.generate(seed: config.seed, index: index)
                guard testCase.expectedRefusal == nil else {
                    counts["forward refused", default: 0] += 1
                    continue
                }
                let url = scratch.url("case-\(index).sqlite")
                let problems: [String]
                do {
                    let outcome: String
                    (problems, outcome) = try Self.run(testCase, url: url)
                    counts[outcome, default: 0] += 1
                } catch {
                    problems = ["unexpected error: \(error)"]
                }
                #expect(
                    problems.isEmpty,
                    "reversal case \(index) (\(config.reproduction)):\n\(problems.joined(separator: "\n"))\n\(testCase.description)"
                )
                scratch.removeDatabase(url)
            }
            ReliabilityConfig.summary(
                "reversal",
                "cases=\(config.reversalCases) "
                    + counts.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "))
        }

        /// Forward to the last version, then back to V1; returns the problems and what happened.
        static func run(_ testCase: PropertyMigrations.Case, url: URL) throws -> (problems: [String], outcome: String) {
            try testCase.features.createV1(testCase.versions[0], at: url, plan: "property")
            let schemas = testCase.versions.map(\.schema)
            let stages = zip(schemas, schemas.dropFirst()).map {
                PlannedStage(from: $0.version, to: $1.version, kind: .lightweight)
            }
            let plan = try ResolvedPlan(name: "property", schemas: schemas, stages: stages)
            let environment = SQLEnvironment(functions: [SQLObjectGenerator.function])
            let first = schemas[0].version
            func migrator(to version: Schema.Version?, allowDataLoss: Bool = false) -> Migrator {
                Migrator(
                    resolvedPlan: plan,
                    options: MigrationOptions(
                        targetVersion: version, sqlEnvironment: environment, allowDataLoss: allowDataLoss))
            }
            let kept = Self.keptColumns(plan.schemas)
            let before = try Self.rows(of: kept, at: url, environment: environment)
            try migrator(to: nil).migrate(databaseAt: url)

            var problems: [String] = []
            let atLast = url.databaseBytes()
            let report: MigrationReport
            do {
                report = try migrator(to: first).plan(databaseAt: url)
            } catch let error as MigrationError {
                // Refused by the planner: the migration refuses alike, and writes nothing.
                do {
                    try migrator(to: first, allowDataLoss: true).migrate(databaseAt: url)
                    problems.append("the dry run refused the way back, the migration ran it:\n\(error)")
                } catch let refusal as MigrationError {
                    if refusal.message != error.message {
                        problems.append("the dry run and the migration refuse differently:\n\(error)\n\(refusal)")
                    }
                }
                if url.databaseBytes() != atLast { problems.append("refused, but the file changed") }
                return (problems, "way back refused by the planner")
            }
            var outcome = "went back"
            // The dry run shows the statements the way back runs, in order: those its rehearsal
            // records (the version's record and the pragmas aside), wherever the rehearsal succeeds.
            let allowed = migrator(to: first, allowDataLoss: true)
            if let script = try? allowed.script(databaseAt: url) {
                let shown = try allowed.plan(databaseAt: url).stages.flatMap { $0.steps.flatMap(\.sql) }
                let ran = script.statements.filter {
                    !$0.contains(SQL.quoteIdentifier(TableNames.metadata)) && !$0.hasPrefix("PRAGMA ")
                }
                if shown != ran {
                    let same = zip(shown, ran).prefix { $0 == $1 }.count
                    problems.append(
                        "the dry run of the way back shows other statements than it runs, from statement \(same + 1):\nshown: \(shown.dropFirst(same).prefix(3))\nran:   \(ran.dropFirst(same).prefix(3))"
                    )
                }
            }
            if !report.dataLoss.isEmpty {
                outcome = "went back dropping data"
                do {
                    try migrator(to: first).migrate(databaseAt: url)
                    problems.append("the way back drops \(report.dataLoss), yet ran without allowDataLoss")
                } catch let error as MigrationError {
                    if !error.message.contains("would drop data") { problems.append("refused otherwise: \(error)") }
                }
                if url.databaseBytes() != atLast { problems.append("refused for data loss, but the file changed") }
            }
            do {
                try migrator(to: first, allowDataLoss: true).migrate(databaseAt: url)
            } catch let error as MigrationError {
                // A data check (NULLs, duplicates, rows where a column comes back without a
                // default): refused, nothing written. The dry run measures the first stage of the
                // way back on the live data, and predicts the later stages' checks where today's
                // data tells (as going forward): a one-stage way back it must foresee.
                let foreseen = !report.refusals.filter({ !$0.message.contains("would drop data") }).isEmpty
                if !foreseen && report.stages.count == 1 {
                    problems.append("the dry run foresaw no refusal, the way back refused:\n\(error)")
                }
                if url.databaseBytes() != atLast { problems.append("refused, but the file changed") }
                return (
                    problems, foreseen ? "way back refused by the data" : "way back refused by a later stage's data"
                )
            }
            let db = try SQLiteConnection(path: url.path, environment: environment)
            if try MetadataStore(db: db, plan: "property").current()?.version != first {
                problems.append("the recorded version is not \(first)")
            }
            if let integrity = try db.scalar("PRAGMA integrity_check")?.stringValue, integrity != "ok" {
                problems.append("integrity_check: \(integrity)")
            }
            let created = url.deletingPathExtension().appendingPathExtension("created.sqlite")
            defer { try? FileManager.default.removeItem(at: created) }
            try migrator(to: first).migrate(databaseAt: created)
            let fresh = try SQLObjectGenerator.declaredShape(of: schemas[0], in: SQLiteConnection(path: created.path))
            let back = try SQLObjectGenerator.declaredShape(of: schemas[0], in: db)
            if fresh != back {
                problems.append(
                    "taken back differs from a new install at V1: created only \(fresh.filter { !back.contains($0) }), taken back only \(back.filter { !fresh.contains($0) })"
                )
            }
            // A V1 the package created: taken back, it means what a new install at V1 means
            // (indexes, keys, CHECKs, views, triggers included), the app's own objects set aside.
            if let difference = try testCase.features.meaningDifference(created: created, reached: db) {
                problems.append("taken back means something else than a new install at V1: \(difference)")
            }
            let after = try Self.rows(of: kept, at: url, environment: environment)
            for (table, rows) in before where after[table] != rows {
                problems.append(
                    "the rows of \(table) (\(kept[table] ?? [])) changed: before \(rows.prefix(3)), after \(after[table]?.prefix(3) ?? [])"
                )
            }
            return (problems, outcome)
        }

        /// The V1 columns (by table) that every version keeps, under whatever names, without a
        /// change that may rewrite their values (a type conversion, NULLs taking a default, a
        /// generated column): what forward then back must give back row for row.
        static func keptColumns(_ stored: [Schema]) -> [String: [String]] {
            // V1 table.column → its name in the version the walk is at.
            var alive: [String: (table: String, column: String)] = [:]
            for entity in stored[0].entities {
                for attribute in entity.attributes where attribute.generated == nil {
                    alive["\(entity.name)\u{0}\(attribute.name)"] = (entity.name, attribute.name)
                }
            }
            for (older, newer) in zip(stored, stored.dropFirst()) {
                guard let reversal = try? StageReversal(older: older, newer: newer) else { return [:] }
                var olderToNewer: [String: String] = [:]
                for (newerTable, olderTable) in reversal.tables { olderToNewer[olderTable] = newerTable }
                for (key, place) in alive {
                    guard let newerTable = olderToNewer[place.table],
                        let newerColumn = reversal.columns[newerTable]?.first(where: { $0.value == place.column })?.key,
                        let was = older.entity(named: place.table)?.attribute(named: place.column),
                        let now = newer.entity(named: newerTable)?.attribute(named: newerColumn),
                        was.valueType == now.valueType, was.storageType == now.storageType,
                        now.generated == nil, !(was.isOptional && !now.isOptional)
                    else {
                        alive[key] = nil
                        continue
                    }
                    alive[key] = (newerTable, newerColumn)
                }
            }
            var kept: [String: [String]] = [:]
            for key in alive.keys {
                let parts = key.split(separator: "\u{0}", maxSplits: 1).map(String.init)
                kept[parts[0], default: []].append(parts[1])
            }
            return kept.mapValues { $0.sorted() }
        }

        /// The values of `columns` in each table, as sorted lists of rows (SQL literals).
        static func rows(of columns: [String: [String]], at url: URL, environment: SQLEnvironment) throws
            -> [String: [[String]]]
        {
            let db = try SQLiteConnection(path: url.path, environment: environment)
            var rows: [String: [[String]]] = [:]
            for (table, names) in columns where !names.isEmpty {
                let list = names.map(SQL.quoteIdentifier).joined(separator: ", ")
                rows[table] = try db.rows("SELECT \(list) FROM \(SQL.quoteIdentifier(table))").map {
                    $0.map(\.sqlLiteral)
                }.sorted { $0.lexicographicallyPrecedes($1) }
            }
            return rows
        }
    }
}
