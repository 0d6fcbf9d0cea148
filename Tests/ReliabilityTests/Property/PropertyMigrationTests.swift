import CSQLite
import Foundation
import Testing

@testable import SchemaMigrations

extension Reliability {
    /// Random source schemas with random data, random changes a lightweight stage accepts (one or
    /// two stages): the migrated database equals, row by row, what the reference model predicts;
    /// where the model predicts a refusal, the migrator refuses and the file is untouched.
    @Suite struct PropertyMigrations {
        /// One generated case: its versions, and what the model predicts.
        struct Case {
            var versions: [ModelDatabase]
            var stages: [GeneratedStage]
            /// SQLite features on the V1 tables that the declarations do not speak of.
            var features: SQLiteFeatures
            /// `PRAGMA secure_delete` on the migrator's connections (`ON`, `OFF` or `FAST`): `ON`
            /// drops a rebuilt table's old indexes before its copy.
            var secureDelete = "OFF"

            /// The codes a refusal may have: those of the first stage the model refuses, if any.
            var expectedRefusal: (codes: Set<MigrationError.Code>, reasons: [String])? {
                guard let stage = stages.first(where: { !$0.refusals.isEmpty }) else { return nil }
                return (stage.refusals.reduce(into: Set()) { $0.formUnion($1.codes) }, stage.refusals.map(\.reason))
            }

            var description: String {
                versions.enumerated().map { "V\($0.offset + 1): \($0.element)" }.joined(separator: "\n")
                    + "\nchanges: " + stages.map { $0.kinds.joined(separator: ", ") }.joined(separator: " | ")
                    + "\nfeatures: \(features.kinds.joined(separator: ", ")) \(features)"
                    + "\nsecure_delete: \(secureDelete)"
            }
        }

        static func generate(seed: UInt64, index: Int) -> Case {
            var generator = SchemaGenerator(random: SeededRandom(seed: seed, family: "property", index: index))
            var versions = [generator.database()]
            var stages: [GeneratedStage] = []
            for number in 2...(generator.random.chance(0.3) ? 3 : 2) {
                var stage = generator.stage(from: versions.last!, to: Schema.Version(number, 0, 0))
                while versions.contains(where: { $0.schema.versionHash == stage.target.schema.versionHash }) {
                    generator.forceChange(&stage)
                }
                versions.append(stage.target)
                stages.append(stage)
            }
            var objectRandom = SeededRandom(seed: seed, family: "property-objects", index: index)
            SQLObjectGenerator.assign(to: &versions, random: &objectRandom)
            var featureRandom = SeededRandom(seed: seed, family: "property-features", index: index)
            var settingRandom = SeededRandom(seed: seed, family: "property-secure-delete", index: index)
            return Case(
                versions: versions, stages: stages,
                features: SQLiteFeatures.generate(for: versions, random: &featureRandom),
                secureDelete: ["ON", "OFF", "FAST"].randomElement(using: &settingRandom)!)
        }

        @Test(.timeLimit(.minutes(60)))
        func migratedRowsEqualTheReferenceModel() throws {
            let config = ReliabilityConfig.current
            let scratch = Scratch("property")
            var tally = PropertyTally()
            for index in 0..<config.propertyCases {
                let testCase = Self.generate(seed: config.seed, index: index)
                let problems: [String]
                let code: MigrationError.Code?
                do {
                    (problems, code) = try Self.run(testCase, url: scratch.url("case-\(index).sqlite"))
                } catch {
                    // An error where the case expects none (making V1, a new install): the case fails
                    // with what it was, not the run.
                    (problems, code) = (["unexpected error: \(error)"], nil)
                }
                tally.record(testCase, passed: problems.isEmpty, refusedWith: code)
                tally.features["secure_delete \(testCase.secureDelete)", default: 0] += 1
                #expect(
                    problems.isEmpty,
                    "property case \(index) (\(config.reproduction)):\n\(problems.joined(separator: "\n"))\n\(testCase.description)"
                )
                scratch.removeDatabase(scratch.url("case-\(index).sqlite"))
            }
            ReliabilityConfig.summary("property", tally.summary)
        }

        /// Creates the case's V1 database with its rows, migrates it to the last version, and
        /// compares with the model. Returns the problems found (empty when all is as predicted) and
        /// the refusal's code.
        static func run(_ testCase: Case, url: URL) throws -> (problems: [String], refusal: MigrationError.Code?) {
            try testCase.features.createV1(testCase.versions[0], at: url, plan: "property")
            let before = url.databaseBytes()
            let stages = zip(testCase.versions, testCase.versions.dropFirst()).map {
                PlannedStage(from: $0.version, to: $1.version, kind: .lightweight)
            }
            if let keep = ProcessInfo.processInfo.environment["RELIABILITY_KEEP_CASE"].map(URL.init(fileURLWithPath:)) {
                // To reproduce a case with the command: its V1 file and its plan directory.
                try? FileManager.default.createDirectory(at: keep, withIntermediateDirectories: true)
                let stem = keep.appendingPathComponent(url.deletingPathExtension().lastPathComponent)
                _ = try PlanDirectory(
                    name: "property", schemas: testCase.versions.map(\.schema),
                    stages: stages.map { StageHeader(from: $0.from, to: $0.to, kind: .lightweight) }
                ).write(to: stem.appendingPathExtension("plan"))
                try? FileManager.default.removeItem(at: stem.appendingPathExtension("sqlite"))
                try FileManager.default.copyItem(at: url, to: stem.appendingPathExtension("sqlite"))
            }
            let secureDelete = testCase.secureDelete
            let environment = SQLEnvironment(
                functions: [SQLObjectGenerator.function],
                prepareConnection: { handle in
                    guard sqlite3_exec(handle, "PRAGMA secure_delete = \(secureDelete)", nil, nil, nil) == SQLITE_OK
                    else {
                        throw SQLiteError(
                            extendedCode: sqlite3_extended_errcode(handle), message: "PRAGMA secure_delete")
                    }
                })
            let migrator = Migrator(
                resolvedPlan: try ResolvedPlan(
                    name: "property", schemas: testCase.versions.map(\.schema), stages: stages),
                options: MigrationOptions(sqlEnvironment: environment))
            // The dry run shows the statements the migration runs, in order: those its rehearsal
            // records (the version's record and the journal-mode read aside).
            // The same stages as custom ones are compared too, wherever their rehearsal succeeds:
            // a custom stage's steps after didMigrate included. Their code writes every table's
            // first column back (firing the application's triggers); what it runs is its own, so
            // the comparison leaves it out (`Self.applicationCode` marks it).
            var dryRunProblems: [String] = []
            let customStages = stages.map {
                PlannedStage(
                    from: $0.from, to: $0.to, kind: .custom, willMigrate: Self.rewriteFirstColumns,
                    didMigrate: Self.rewriteFirstColumns)
            }
            let custom = Migrator(
                resolvedPlan: try ResolvedPlan(
                    name: "property", schemas: testCase.versions.map(\.schema), stages: customStages),
                options: MigrationOptions(sqlEnvironment: environment))
            for (kind, candidate) in [("lightweight", migrator), ("custom", custom)] {
                guard kind == "custom" || testCase.expectedRefusal == nil,
                    let script = kind == "custom"
                        ? try? candidate.script(databaseAt: url) : try candidate.script(databaseAt: url)
                else { continue }
                let report = try candidate.plan(databaseAt: url)
                let shown = report.stages.flatMap { $0.steps.flatMap(\.sql) }
                // Every format a reviewer reads shows those statements, in that order.
                dryRunProblems += try Self.formatProblems(of: report, showing: shown, kind: kind)
                let ran = script.statements.filter {
                    !$0.contains(SQL.quoteIdentifier(TableNames.metadata)) && !$0.hasPrefix("PRAGMA ")
                        && !$0.hasPrefix(Self.applicationCode)
                }
                // Where the code ran (a file adopted at a later version runs no stage), it wrote.
                let codeRan = script.notes.values.joined().contains { $0.hasSuffix("as it ran on this data") }
                if codeRan && !script.statements.contains(where: { $0.hasPrefix(Self.applicationCode) }) {
                    dryRunProblems.append("the script of the custom stages leaves out what their code ran")
                }
                if shown != ran {
                    let first = zip(shown, ran).prefix { $0 == $1 }.count
                    dryRunProblems.append(
                        "the dry run of the \(kind) stages shows other statements than the migration runs, from statement \(first + 1):\nshown: \(shown.dropFirst(first).prefix(3))\nran:   \(ran.dropFirst(first).prefix(3))"
                    )
                }
            }
            do {
                try migrator.migrate(databaseAt: url)
            } catch let error as MigrationError {
                guard let refusal = testCase.expectedRefusal else {
                    return (["the model predicts success, the migrator refused:\n\(error)"], error.code)
                }
                var problems: [String] = []
                if !refusal.codes.contains(error.code) {
                    problems.append(
                        "refused with \(error.code), the model expects \(refusal.codes.map(\.rawValue).sorted()) because \(refusal.reasons):\n\(error)"
                    )
                }
                if url.databaseBytes() != before { problems.append("refused, but the file changed") }
                return (problems, error.code)
            }
            if let refusal = testCase.expectedRefusal {
                return (["the model expects a refusal (\(refusal.reasons)), the migration succeeded"], nil)
            }
            // The application's connection: its function registered, as its triggers call it.
            let db = try SQLiteConnection(path: url.path, environment: environment)
            var problems = try dryRunProblems + testCase.versions.last!.differences(from: db)
            let version = try MetadataStore(db: db, plan: "property").current()?.version
            if version != testCase.versions.last!.version {
                problems.append("recorded version \(version?.description ?? "none")")
            }
            if let integrity = try db.scalar("PRAGMA integrity_check")?.stringValue, integrity != "ok" {
                problems.append("integrity_check: \(integrity)")
            }
            problems += try testCase.features.problems(after: testCase.versions, in: db)
            // Create equals migrate: a new install at the last version has the declared tables
            // and objects the migrated file has.
            let created = url.deletingPathExtension().appendingPathExtension("created.sqlite")
            defer { try? FileManager.default.removeItem(at: created) }
            try migrator.migrate(databaseAt: created)
            let last = testCase.versions.last!.schema
            let fresh = try SQLObjectGenerator.declaredShape(of: last, in: SQLiteConnection(path: created.path))
            let migrated = try SQLObjectGenerator.declaredShape(of: last, in: db)
            if fresh != migrated {
                problems.append(
                    "a new install differs from the migrated file: created only \(fresh.filter { !migrated.contains($0) }), migrated only \(migrated.filter { !fresh.contains($0) })"
                )
            }
            // A V1 this package created, then altered by the app: everything a new install has,
            // the migrated file has, with the same meaning (as the testing library validates),
            // once the app's own objects are set aside.
            if let difference = try testCase.features.meaningDifference(created: created, reached: db) {
                problems.append("a new install means something else than the migrated file: \(difference)")
            }
            return (problems, nil)
        }

        /// Where the text, Markdown or JSON form of a dry run does not show `statements` in order.
        static func formatProblems(of report: MigrationReport, showing statements: [String], kind: String) throws
            -> [String]
        {
            var problems: [String] = []
            for (format, rendered) in [("text", report.description), ("markdown", report.markdown)] {
                var from = rendered.startIndex
                for (position, statement) in statements.enumerated() {
                    guard let found = rendered.range(of: statement + ";", range: from..<rendered.endIndex) else {
                        problems.append(
                            "the \(format) dry run of the \(kind) stages does not show statement \(position + 1) after the ones before it: \(statement)"
                        )
                        break
                    }
                    from = found.upperBound
                }
            }
            let object = try JSONSerialization.jsonObject(with: Data(try report.json().utf8)) as? [String: Any]
            let stages = object?["stages"] as? [[String: Any]] ?? []
            let json = stages.flatMap {
                ($0["steps"] as? [[String: Any]] ?? []).flatMap { $0["sql"] as? [String] ?? [] }
            }
            if json != statements {
                problems.append("the JSON dry run of the \(kind) stages lists other statements: \(json.prefix(3))")
            }
            return problems
        }

        /// What marks a statement a custom stage's code ran in the property's plans.
        static let applicationCode = "/* application */ "

        /// A custom stage's code: writes each table's first column (a key column when every other
        /// is generated) back to itself, so the rehearsal records a write and the tables'
        /// triggers fire, without changing a value.
        static let rewriteFirstColumns: @Sendable (MigrationContext) throws -> Void = { context in
            for entity in context.schema.entities {
                guard
                    let column = entity.attributes.first(where: { $0.generated == nil })?.name
                        ?? entity.keyColumns.first
                else { continue }
                let quoted = SQL.quoteIdentifier(column)
                try context.execute(
                    "\(applicationCode)UPDATE \(SQL.quoteIdentifier(entity.name)) SET \(quoted) = \(quoted)")
            }
        }
    }
}

/// What the property cases covered, for the summary line.
struct PropertyTally {
    var cases = 0, migrated = 0, refused = 0, failed = 0, rows = 0, stages = 0
    var kinds: [String: Int] = [:]
    var refusals: [String: Int] = [:]
    var features: [String: Int] = [:]

    mutating func record(
        _ testCase: Reliability.PropertyMigrations.Case, passed: Bool, refusedWith code: MigrationError.Code?
    ) {
        if let code { refusals[code.rawValue, default: 0] += 1 }
        cases += 1
        stages += testCase.stages.count
        rows += testCase.versions[0].tables.reduce(0) { $0 + $1.rows.count }
        if !passed { failed += 1 } else if testCase.expectedRefusal == nil { migrated += 1 } else { refused += 1 }
        for stage in testCase.stages {
            for kind in stage.kinds { kinds[kind.hasPrefix("type change") ? "type change" : kind, default: 0] += 1 }
        }
        for feature in testCase.features.kinds { features[feature, default: 0] += 1 }
        let objects = testCase.versions.flatMap(\.sqlObjects)
        for kind in Schema.SQLObject.Kind.allCases where objects.contains(where: { $0.kind == kind }) {
            features["declared \(kind.words)", default: 0] += 1
        }
        if testCase.versions.contains(where: { $0.tables.contains { !$0.entity.constraints.isEmpty } }) {
            features["declared table CHECK", default: 0] += 1
        }
        if testCase.versions.contains(where: {
            $0.tables.contains { table in
                table.entity.primaryKeyOnConflict != nil || table.entity.constraints.contains { $0.onConflict != nil }
                    || table.entity.attributes.contains { $0.notNullOnConflict != nil }
            }
        }) {
            features["declared conflict clause", default: 0] += 1
        }
        if testCase.versions.contains(where: {
            $0.tables.contains { $0.entity.indexes.contains { $0.name?.hasPrefix("pd2_") == true } }
        }) {
            features["two indexes over one column", default: 0] += 1
        }
    }

    var summary: String {
        "cases=\(cases) migrated-as-predicted=\(migrated) refused-as-predicted=\(refused) failed=\(failed) stages=\(stages) source-rows=\(rows) "
            + "refusals=["
            + refusals.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "] "
            + "changes=[" + kinds.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
            + "] "
            + "features=["
            + features.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "]"
    }
}
