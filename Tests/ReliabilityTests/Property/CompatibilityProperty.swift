import Foundation
import Testing

@testable import SchemaMigrations

extension Reliability {
    /// On the property family's random plans (``PropertyMigrations``), stage by stage: the previous
    /// version's code is run against the database before and after the stage (each statement in a
    /// transaction rolled back): a SELECT of every column it declares, by its names, from each of
    /// its tables; an INSERT of a row giving its columns as its code would (NULL for an optional,
    /// a value of the type otherwise); a read of each view and virtual table it declares.
    ///
    /// - A stage the lint classifies compatible: every statement that ran before the stage runs
    ///   after it (one that failed before, a UNIQUE the random row repeats, says nothing).
    /// - A stage classified breaking with a reason whose effect is `statementsFail`: at least one
    ///   statement that ran before fails after, with SQLite's message naming a table or column
    ///   that a reason names. Reasons that depend on the data (`writesMayFail`) or only change
    ///   the values read (`valuesDiffer`) need no failure here; `CompatibilityTests` and
    ///   `CompatibilityDataTests` show them one by one.
    ///
    /// Quick by default (12 cases); `RELIABILITY_PROPERTY_CASES` or `RELIABILITY_LONG=1` runs more,
    /// from `RELIABILITY_SEED`.
    @Suite struct CompatibilityProperty {
        /// One statement of the previous version's code: the table, view or virtual table it
        /// names (as that version names it), and whether it is a read.
        struct Statement {
            var sql: String
            var isRead: Bool
            var entity: String
        }

        /// Whether `reason` explains that `statement` fails with `message`: a reason about the
        /// table the statement names as a whole (dropped, renamed), or one about a column or
        /// constraint of it that SQLite's message names.
        static func explains(_ reason: StageCompatibility.Reason, _ statement: Statement, _ message: String) -> Bool {
            guard reason.entity.sqlFolded == statement.entity.sqlFolded else { return false }
            switch reason.kind {
            case .tableDropped, .tableRenamed, .viewDropped, .virtualTableDropped: return true
            case .uniqueAdded where message.contains("UNIQUE"): return true
            case .checkAdded where message.contains("CHECK"): return true
            case .foreignKeyAdded where message.contains("FOREIGN KEY"): return true
            default:
                let words = Set(
                    message.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "_" })
                        .map(String.init))
                return [reason.property, reason.column].contains { $0.map { words.contains($0.sqlFolded) } ?? false }
            }
        }

        static var caseCount: Int {
            let config = ReliabilityConfig.current
            let explicit = ProcessInfo.processInfo.environment["RELIABILITY_PROPERTY_CASES"] != nil
            return config.long || explicit ? config.propertyCases : 12
        }

        /// The reads and inserts the code of `version` makes.
        static func statements(of version: ModelDatabase, random: inout SeededRandom) -> [Statement] {
            var result: [Statement] = []
            for table in version.tables {
                let name = SQL.quoteIdentifier(table.entity.name)
                // A retired property is one the version's code no longer reads or writes.
                let used = table.entity.attributes.filter { !$0.isRetired }
                let columns = [Schema.primaryKeyColumn] + used.map(\.name)
                // Brackets, not double quotes: SQLite reads a double-quoted name that is no column
                // as a string literal, so `SELECT "gone"` would still run.
                result.append(
                    Statement(
                        sql: "SELECT \(columns.map { "[\($0)]" }.joined(separator: ", ")) FROM \(name)",
                        isRead: true, entity: table.entity.name))
                // Column by column too: SQLite names only the first column a statement misses.
                result += columns.map {
                    Statement(sql: "SELECT [\($0)] FROM \(name)", isRead: true, entity: table.entity.name)
                }
                let written = used.filter { $0.generated == nil }
                let values = written.map { attribute in
                    attribute.isOptional
                        ? "NULL" : PropertyValues.random(attribute.valueType, using: &random).sqlLiteral
                }
                result.append(
                    Statement(
                        sql:
                            "INSERT INTO \(name) (\(written.map(\.name).map(SQL.quoteIdentifier).joined(separator: ", "))) VALUES (\(values.joined(separator: ", ")))",
                        isRead: false, entity: table.entity.name))
            }
            for object in version.sqlObjects where object.kind != .trigger {
                result.append(
                    Statement(
                        sql: "SELECT * FROM \(SQL.quoteIdentifier(object.name))", isRead: true, entity: object.name))
            }
            return result
        }

        /// Runs each statement in a transaction rolled back: nil where it ran, SQLite's message where it failed.
        static func run(_ statements: [Statement], at url: URL) throws -> [String?] {
            let db = try SQLiteConnection(
                path: url.path, environment: SQLEnvironment(functions: [SQLObjectGenerator.function]))
            try db.execute("PRAGMA foreign_keys = ON")
            return try statements.map { statement in
                try db.execute("BEGIN")
                defer { _ = try? db.execute("ROLLBACK") }  // the statement's write, if any, never stays
                do {
                    if statement.isRead { _ = try db.rows(statement.sql) } else { try db.execute(statement.sql) }
                    return nil
                } catch let error as SQLiteError {
                    return error.message
                }
            }
        }

        @Test(.timeLimit(.minutes(30)))
        func thePreviousVersionsCodeRunsAfterACompatibleStageAndFailsOnABreakingOne() throws {
            let config = ReliabilityConfig.current
            let scratch = Scratch("compatibility")
            var tally: [String: Int] = [:]
            for index in 0..<Self.caseCount {
                let testCase = PropertyMigrations.generate(seed: config.seed, index: index)
                var random = SeededRandom(seed: config.seed, family: "compatibility-rows", index: index)
                let url = scratch.url("case-\(index).sqlite")
                let problems = try Self.check(
                    testCase.versions, refusals: testCase.stages.map { !$0.refusals.isEmpty }, url: url,
                    random: &random, tally: &tally)
                #expect(
                    problems.isEmpty,
                    "compatibility case \(index) (\(config.reproduction)):\n\(problems.joined(separator: "\n"))\n\(testCase.description)"
                )
                scratch.removeDatabase(url)
                // The same first version, then only additive changes: classified compatible, and
                // the previous version's code runs after them.
                let additive = [testCase.versions[0], Self.additive(after: testCase.versions[0], random: &random)]
                let additiveURL = scratch.url("additive-\(index).sqlite")
                let additiveProblems = try Self.check(
                    additive, refusals: [false], url: additiveURL, random: &random, tally: &tally,
                    mustBeCompatible: true)
                #expect(
                    additiveProblems.isEmpty,
                    "additive case \(index) (\(config.reproduction)):\n\(additiveProblems.joined(separator: "\n"))\nV1: \(additive[0])\nV2: \(additive[1])"
                )
                scratch.removeDatabase(additiveURL)
                // Expand and contract: a version retires some properties, the next drops or
                // renames them; both stages are compatible, and each previous version's code runs.
                guard let retiring = Self.retiring(after: testCase.versions[0], random: &random) else { continue }
                let contractURL = scratch.url("contract-\(index).sqlite")
                let contractProblems = try Self.check(
                    retiring, refusals: [false, false], url: contractURL, random: &random, tally: &tally,
                    mustBeCompatible: true)
                #expect(
                    contractProblems.isEmpty,
                    "contract case \(index) (\(config.reproduction)):\n\(contractProblems.joined(separator: "\n"))\n\(retiring.map(\.description).joined(separator: "\n"))"
                )
                scratch.removeDatabase(contractURL)
                tally["retired", default: 0] += retiring[1].tables.reduce(0) {
                    $0 + $1.entity.attributes.filter(\.isRetired).count
                }
            }
            ReliabilityConfig.summary(
                "compatibility",
                tally.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "))
        }

        /// A version after `version` with additive changes only, each table keeping its name,
        /// columns, indexes, constraints and objects: optional columns added (some with a default),
        /// non-optional ones with a default, a non-optional column made optional, a default
        /// changed, a plain index added, a new table.
        static func additive(after version: ModelDatabase, random: inout SeededRandom) -> ModelDatabase {
            var generator = SchemaGenerator(random: random)
            var next = ModelDatabase(version: Schema.Version(2, 0, 0), tables: version.tables)
            next.sqlObjects = version.sqlObjects
            var count = 0
            func fresh(_ attribute: Schema.Attribute) -> Schema.Attribute {
                count += 1
                var renamed = attribute
                renamed.name = "x\(count)"
                return renamed
            }
            for index in next.tables.indices {
                var entity = next.tables[index].entity
                entity.originalName = nil
                for attribute in entity.attributes.indices where generator.random.chance(0.3) {
                    if !entity.attributes[attribute].isOptional && entity.attributes[attribute].generated == nil {
                        entity.attributes[attribute].isOptional = true
                        entity.attributes[attribute].notNullOnConflict = nil
                        entity.attributes[attribute].notNullOnConflict = nil
                    } else if entity.attributes[attribute].defaultValue != nil {
                        entity.attributes[attribute].defaultValue =
                            PropertyValues.randomDefault(
                                entity.attributes[attribute].valueType, using: &generator.random
                            )
                            .sqlLiteral
                    }
                }
                if generator.random.chance(0.3), let column = entity.attributes.randomElement(using: &generator.random),
                    !entity.indexes.contains(where: { $0.columns == [column.name] })
                {
                    entity.indexes.append(Schema.Index([column.name]))
                }
                if generator.random.chance(0.4) {
                    entity.attributes.append(fresh(generator.attribute(requireDefault: true)))
                }
                entity.attributes.append(fresh(generator.attribute(optional: true)))
                next.tables[index].entity = entity
            }
            if generator.random.chance(0.3) {
                next.tables.append(
                    ModelDatabase.Table(
                        entity: Schema.Entity(name: "added", attributes: [fresh(generator.attribute())]), rows: []))
            }
            random = generator.random
            return next
        }

        /// Two versions after `version`: the first retires some properties its code could leave
        /// out of its inserts (optional, or with a default), the second drops or renames each.
        /// Nil when no property can be retired.
        static func retiring(after version: ModelDatabase, random: inout SeededRandom) -> [ModelDatabase]? {
            var retired = ModelDatabase(version: Schema.Version(2, 0, 0), tables: version.tables)
            retired.sqlObjects = version.sqlObjects
            var contracted = ModelDatabase(version: Schema.Version(3, 0, 0), tables: [])
            contracted.sqlObjects = version.sqlObjects
            let objectNames = version.sqlObjects.map { SQLTokenizer($0.sql).identifierSet() }
            for index in retired.tables.indices {
                var entity = retired.tables[index].entity
                entity.originalName = nil
                let candidates = entity.attributes.indices.filter {
                    let attribute = entity.attributes[$0]
                    return (attribute.isOptional || attribute.defaultValue != nil) && attribute.generated == nil
                        && !entity.indexes.contains { $0.columns.contains(attribute.name) }
                        && !entity.constraints.contains { $0.sql.contains(attribute.name) }
                        && !(entity.primaryKey ?? []).contains(attribute.name)
                        && !objectNames.contains { $0.contains(attribute.name.sqlFolded) }
                }
                var next = entity
                var dropped: [String] = []
                for position in candidates where random.chance(0.5) {
                    entity.attributes[position].options.append("retired")
                    let name = entity.attributes[position].name
                    // A table keeps one attribute: its last retired one is renamed, not dropped (a
                    // contraction that put it back would declare the first version again).
                    if random.chance(0.5) && next.attributes.count - dropped.count > 1 {
                        dropped.append(name)
                    } else if let renamed = next.attributes.firstIndex(where: { $0.name == name }) {
                        next.attributes[renamed].originalName = name
                        next.attributes[renamed].name = "r\(index)_\(position)"
                        next.attributes[renamed].options = []
                    }
                }
                next.attributes.removeAll { dropped.contains($0.name) }
                retired.tables[index].entity = entity
                next.attributes = next.attributes.map { attribute in
                    var kept = attribute
                    kept.options.removeAll { $0 == "retired" }
                    return kept
                }
                contracted.tables.append(ModelDatabase.Table(entity: next, rows: []))
            }
            let count = retired.tables.reduce(0) { $0 + $1.entity.attributes.filter(\.isRetired).count }
            return count == 0 ? nil : [version, retired, contracted]
        }

        static func check(
            _ versions: [ModelDatabase], refusals: [Bool], url: URL, random: inout SeededRandom,
            tally: inout [String: Int], mustBeCompatible: Bool = false
        ) throws -> [String] {
            let environment = SQLEnvironment(functions: [SQLObjectGenerator.function])
            let stages = zip(versions, versions.dropFirst()).map {
                PlannedStage(from: $0.version, to: $1.version, kind: .lightweight)
            }
            let plan = try ResolvedPlan(name: "property", schemas: versions.map(\.schema), stages: stages)
            func migrator(to version: Schema.Version) -> Migrator {
                Migrator(
                    resolvedPlan: plan,
                    options: MigrationOptions(targetVersion: version, sqlEnvironment: environment))
            }
            let lint = try migrator(to: versions.last!.version).lint()
            try migrator(to: versions[0].version).migrate(databaseAt: url)
            try versions[0].insertRows(into: SQLiteConnection(path: url.path, environment: environment))
            var problems: [String] = []
            for (position, stage) in lint.stages.enumerated() {
                let previous = versions[position]
                let statements = statements(of: previous, random: &random)
                let before = try run(statements, at: url)
                do {
                    try migrator(to: versions[position + 1].version).migrate(databaseAt: url)
                } catch let error as MigrationError {
                    if !refusals[position] {
                        problems.append("stage \(stage.header) refused where the model predicts none: \(error)")
                    }
                    tally["refused", default: 0] += 1
                    break
                }
                let after = try run(statements, at: url)
                // Statements that ran before the stage and fail after it.
                let broken = zip(statements, zip(before, after)).compactMap { statement, outcome in
                    outcome.0 == nil ? outcome.1.map { (statement, $0) } : nil
                }
                let compatibility = stage.compatibility
                if mustBeCompatible && !compatibility.isCompatible {
                    problems.append(
                        "additive stage \(stage.header) is classified breaking: \(compatibility.reasons.map(\.message))"
                    )
                }
                tally[
                    compatibility.isCompatible
                        ? "compatible"
                        : compatibility.reasons.contains { $0.effect == .statementsFail }
                            ? "breaking, statements fail" : "breaking, data or values only", default: 0] += 1
                // Every failure is one a reason of the stage names (none for a compatible stage).
                for (statement, message) in broken
                where !compatibility.reasons.contains(where: { Self.explains($0, statement, message) }) {
                    problems.append(
                        "stage \(stage.header) (\(compatibility.classification.rawValue): \(compatibility.reasons.map(\.message))): the previous version's `\(statement.sql)` fails after it, for no reason the stage names: \(message)"
                    )
                }
                // Every reason said to fail the previous version's statements makes one fail,
                // unless every statement on what it names failed before the stage already.
                for reason in compatibility.reasons where reason.effect == .statementsFail {
                    let observable = zip(statements, before).contains { statement, outcome in
                        outcome == nil && statement.entity.sqlFolded == reason.entity.sqlFolded
                    }
                    let tableGone = compatibility.reasons.contains {
                        [.tableDropped, .tableRenamed].contains($0.kind) && $0.entity == reason.entity
                    }
                    // The insert names every column: SQLite stops at the first it misses, so a
                    // reason about what inserts write shows only when no other one masks it.
                    let aboutInserts = [.requiredColumnAdded, .becomesNotNull, .becomesGenerated, .stopsBeingGenerated]
                        .contains(reason.kind)
                    let shown = broken.contains { statement, message in
                        Self.explains(reason, statement, message)
                            || ((tableGone || (aboutInserts && !statement.isRead))
                                && statement.entity.sqlFolded == reason.entity.sqlFolded)
                    }
                    if observable && !shown {
                        problems.append(
                            "stage \(stage.header): the reason \"\(reason.message)\" fails no statement of the previous version; failures: \(broken.map(\.1))"
                        )
                    }
                }
            }
            return problems
        }
    }
}
