import Foundation
import Testing

@testable import SchemaMigrations

extension Reliability {
    /// Random `column:` mappings moved between versions: columns swapped and permuted between
    /// properties, properties renamed with or without their column, a new property taking a
    /// renamed one's old name (and column), case-only column renames, stored columns made
    /// generated and generated ones made stored. Each case ends with every property's values in
    /// the column its declaration names (computed values where it is generated), each index on its
    /// property's column, or with a refusal that left the file byte-for-byte as it was.
    @Suite struct ColumnMappingProperty {
        @Test(.timeLimit(.minutes(60)))
        func everyPropertyKeepsItsValuesWhateverColumnHoldsIt() throws {
            let config = ReliabilityConfig.current
            let scratch = Scratch("column-mapping")
            let cases =
                ProcessInfo.processInfo.environment["RELIABILITY_COLUMN_MAPPING_CASES"].flatMap { Int($0) }
                ?? (config.long ? 2000 : 60)
            var tally: [String: Int] = [:]
            var migrated = 0
            var refused: [String: Int] = [:]
            for index in 0..<cases {
                var random = SeededRandom(seed: config.seed, family: "column-mapping", index: index)
                let testCase = ColumnMappingCase.generate(using: &random)
                for kind in testCase.kinds { tally[kind, default: 0] += 1 }
                let url = scratch.url("case-\(index).sqlite")
                let outcome = try testCase.run(at: url)
                switch outcome {
                case .migrated(let problems):
                    migrated += 1
                    #expect(
                        problems.isEmpty,
                        "column-mapping case \(index) (\(config.reproduction)):\n\(problems.joined(separator: "\n"))\n\(testCase)"
                    )
                case .refused(let error, let unchanged):
                    refused[error.code.rawValue, default: 0] += 1
                    #expect(
                        unchanged,
                        "column-mapping case \(index) (\(config.reproduction)): refused and the file changed\n\(testCase)"
                    )
                    // Every change this family makes is one the planner accepts: a refusal is a bug too.
                    Issue.record(
                        "column-mapping case \(index) (\(config.reproduction)) was refused: \(error)\n\(testCase)")
                }
                scratch.removeDatabase(url)
            }
            ReliabilityConfig.summary(
                "column-mapping",
                "cases=\(cases) migrated=\(migrated) refused=\(refused.values.reduce(0, +)) "
                    + "changes=[\(tally.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", "))]"
            )
        }
    }
}

/// One table at two versions, by property: where each property is stored, whether SQLite computes
/// it, and the values the reference model predicts.
struct ColumnMappingCase: CustomStringConvertible {
    /// One property at one version.
    struct Property: Equatable {
        var name: String
        var column: String
        var type: Schema.ValueType
        /// `Σ coefficient × coalesce(term, 0) + constant` over integer properties, when generated.
        var generated: Generated?
        var originalName: String?
        /// New in the target version (it may carry a name the previous version used for another property).
        var isNew = false

        struct Generated: Equatable {
            var terms: [(property: String, coefficient: Int64)]
            var constant: Int64
            var stored: Bool

            static func == (lhs: Generated, rhs: Generated) -> Bool {
                lhs.terms.map(\.property) == rhs.terms.map(\.property)
                    && lhs.terms.map(\.coefficient) == rhs.terms.map(\.coefficient)
                    && lhs.constant == rhs.constant && lhs.stored == rhs.stored
            }
        }
    }

    var source: [Property]
    var target: [Property]
    /// The property each version indexes.
    var sourceIndex: String?
    var targetIndex: String?
    /// Each row's stored values, by source property.
    var rows: [[String: SQLiteValue]]
    var kinds: [String]

    var description: String {
        func render(_ properties: [Property], index: String?) -> String {
            properties.map { property in
                "\(property.name)@\(property.column):\(property.type.rawValue)"
                    + (property.originalName.map { " (was \($0))" } ?? "")
                    + (property.generated.map {
                        " = \(ColumnMappingCase.expression($0, columns: Dictionary(uniqueKeysWithValues: properties.map { ($0.name, $0.column) })))\($0.stored ? " STORED" : "")"
                    } ?? "")
            }.joined(separator: ", ") + (index.map { " index(\($0))" } ?? "")
        }
        return
            "V1: \(render(source, index: sourceIndex))\nV2: \(render(target, index: targetIndex))\nchanges: \(kinds.joined(separator: ", "))\nrows: \(rows.count)"
    }

    // MARK: The model

    /// A generated expression in SQL over a version's columns.
    static func expression(_ generated: Property.Generated, columns: [String: String]) -> String {
        (generated.terms.map { "\($0.coefficient) * coalesce(\(SQL.quoteIdentifier(columns[$0.property]!)), 0)" } + [
            "\(generated.constant)"
        ]).joined(separator: " + ")
    }

    static func evaluate(_ generated: Property.Generated, row: [String: SQLiteValue]) -> SQLiteValue {
        .integer(
            generated.terms.reduce(generated.constant) { sum, term in
                sum + term.coefficient * (row[term.property]?.int64Value ?? 0)
            })
    }

    /// Every property's value in each row at the source version, generated ones computed.
    var sourceValues: [[String: SQLiteValue]] {
        rows.map { stored in
            var row = stored
            for property in source {
                if let generated = property.generated { row[property.name] = Self.evaluate(generated, row: stored) }
            }
            return row
        }
    }

    /// What each target property must hold, row by row.
    var expectedValues: [[String: SQLiteValue]] {
        sourceValues.map { old in
            var row: [String: SQLiteValue] = [:]
            for property in target where property.generated == nil && !property.isNew {
                row[property.name] = old[property.originalName ?? property.name] ?? .null
            }
            for property in target {
                if let generated = property.generated { row[property.name] = Self.evaluate(generated, row: row) }
            }
            return row
        }
    }

    func schema(_ properties: [Property], index: String?, version: Int) -> Schema {
        let columns = Dictionary(uniqueKeysWithValues: properties.map { ($0.name, $0.column) })
        let attributes = properties.map { property in
            var attribute = Schema.Attribute(
                name: property.column, valueType: property.type, isOptional: true, originalName: property.originalName)
            if property.column != property.name { attribute.propertyName = property.name }
            attribute.generated = property.generated.map {
                Schema.GeneratedColumn(
                    expression: Self.expression($0, columns: columns), storage: $0.stored ? .stored : .virtual)
            }
            return attribute
        }
        let indexes = index.map { [Schema.Index([columns[$0]!])] } ?? []
        return Schema(
            version: Schema.Version(version, 0, 0),
            entities: [Schema.Entity(name: "T", attributes: attributes, indexes: indexes)])
    }

    // MARK: Running

    enum Outcome {
        case migrated([String])
        case refused(MigrationError, unchanged: Bool)
    }

    func run(at url: URL) throws -> Outcome {
        let schemas = [schema(source, index: sourceIndex, version: 1), schema(target, index: targetIndex, version: 2)]
        let stages = [PlannedStage(from: schemas[0].version, to: schemas[1].version, kind: .lightweight)]
        let plan = try ResolvedPlan(name: "mapping", schemas: schemas, stages: stages)
        try Migrator(resolvedPlan: try ResolvedPlan(name: "mapping", schemas: [schemas[0]], stages: [])).migrate(
            databaseAt: url)
        do {
            let db = try SQLiteConnection(path: url.path)
            let plain = source.filter { $0.generated == nil }
            let insert = try db.prepare(
                "INSERT INTO \"T\" (\"id\", \(plain.map { SQL.quoteIdentifier($0.column) }.joined(separator: ", "))) VALUES (?\(String(repeating: ", ?", count: plain.count)))"
            )
            for (id, row) in rows.enumerated() {
                insert.reset()
                try insert.bind([.integer(Int64(id + 1))] + plain.map { row[$0.name] ?? .null })
                try insert.step()
            }
        }
        let before = url.databaseBytes()
        let migrator = Migrator(resolvedPlan: plan)
        do {
            _ = try migrator.plan(databaseAt: url)
            try migrator.migrate(databaseAt: url)
        } catch let error as MigrationError {
            return .refused(error, unchanged: url.databaseBytes() == before)
        }
        let db = try SQLiteConnection(path: url.path)
        var problems: [String] = []
        let read = try db.rows(
            "SELECT \(target.map { SQL.quoteIdentifier($0.column) }.joined(separator: ", ")) FROM \"T\" ORDER BY \"id\""
        )
        for (number, (got, want)) in zip(read, expectedValues).enumerated() {
            for (position, property) in target.enumerated() where got[position] != want[property.name] ?? .null {
                problems.append(
                    "row \(number + 1): \(property.name) (column \(property.column)) holds \(got[position].sqlLiteral), expected \(want[property.name]?.sqlLiteral ?? "NULL")"
                )
            }
            if problems.count > 6 { break }
        }
        if read.count != rows.count { problems.append("\(read.count) rows, expected \(rows.count)") }
        let indexed = try db.rows(
            "SELECT ii.name FROM pragma_index_list('T') AS il, pragma_index_info(il.name) AS ii WHERE il.origin = 'c'"
        ).compactMap { $0[0].stringValue }
        let expectedIndexed =
            targetIndex.flatMap { name in target.first { $0.name == name }?.column }.map { [$0] } ?? []
        if indexed != expectedIndexed { problems.append("indexed columns \(indexed), expected \(expectedIndexed)") }
        if try MetadataStore(db: db, plan: "mapping").current()?.version != Schema.Version(2, 0, 0) {
            problems.append("not recorded at 2.0.0")
        }
        if !(try migrator.verify(databaseAt: url).isUpToDate) { problems.append("verify does not find it up to date") }
        return .migrated(problems)
    }

    // MARK: Generating

    static func generate(using random: inout SeededRandom) -> ColumnMappingCase {
        var counter = 0
        func fresh(_ prefix: String) -> String {
            counter += 1
            return "\(prefix)\(counter)"
        }
        func type() -> Schema.ValueType { random.chance(0.7) ? .integer : .string }

        // V1: plain properties, some in a column of another name, then a few generated over the integer ones.
        var source: [Property] = (0..<Int.random(in: 2...6, using: &random)).map { _ in
            let name = fresh("p")
            return Property(name: name, column: random.chance(0.5) ? fresh("c") : name, type: type())
        }
        func generated(over properties: [Property], excluding: String? = nil) -> Property.Generated? {
            let integers = properties.filter { $0.type == .integer && $0.generated == nil && $0.name != excluding }
            guard !integers.isEmpty else { return nil }
            let terms = integers.shuffled(using: &random).prefix(
                Int.random(in: 1...min(2, integers.count), using: &random))
            return Property.Generated(
                terms: terms.map { ($0.name, Int64.random(in: -3...5, using: &random)) },
                constant: Int64.random(in: -9...9, using: &random),
                stored: random.chance(0.5))
        }
        for _ in 0..<(random.chance(0.4) ? Int.random(in: 1...2, using: &random) : 0) {
            guard let expression = generated(over: source) else { break }
            let name = fresh("g")
            source.append(
                Property(
                    name: name, column: random.chance(0.5) ? fresh("c") : name, type: .integer, generated: expression))
        }
        let rows: [[String: SQLiteValue]] = (0..<Int.random(in: 0...8, using: &random)).map { _ in
            var row: [String: SQLiteValue] = [:]
            for property in source where property.generated == nil && !random.chance(0.2) {
                row[property.name] =
                    property.type == .integer
                    ? .integer(Int64.random(in: -500...500, using: &random))
                    : .text("v\(Int.random(in: 0...999, using: &random))")
            }
            return row
        }
        let sourceIndex =
            random.chance(0.6) ? source.filter { $0.generated == nil }.randomElement(using: &random)?.name : nil

        var target = source.map { property -> Property in
            var kept = property
            kept.originalName = nil
            return kept
        }
        var kinds: [String] = []
        /// Properties a generated target property reads: never removed, renamed or made generated.
        func referenced() -> Set<String> { Set(target.compactMap(\.generated).flatMap { $0.terms.map(\.property) }) }
        func isFree(_ column: String) -> Bool { !target.contains { $0.column.sqlFolded == column.sqlFolded } }

        // Columns permuted between properties (a swap or a cycle), properties kept.
        let plain = target.indices.filter { target[$0].generated == nil }
        if plain.count >= 2 && random.chance(0.6) {
            let moved = Array(
                plain.shuffled(using: &random).prefix(Int.random(in: 2...min(3, plain.count), using: &random)))
            let columns = moved.map { target[$0].column }
            for (offset, position) in moved.enumerated() {
                target[position].column = columns[(offset + 1) % columns.count]
            }
            kinds.append(moved.count == 2 ? "swap columns" : "cycle of \(moved.count) columns")
        }
        for position in target.indices.shuffled(using: &random) {
            let roll = Double.random(in: 0..<1, using: &random)
            let name = target[position].name
            switch roll {
            case ..<0.12 where !referenced().contains(name) && target[position].generated == nil:
                // Property renamed: keeping its column, moving to a new one, or to the new name.
                target[position].originalName = name
                target[position].name = fresh("r")
                switch Int.random(in: 0..<3, using: &random) {
                case 0: kinds.append("rename property, column kept")
                case 1:
                    target[position].column = fresh("c")
                    kinds.append("rename property and column")
                default:
                    target[position].column = target[position].name
                    kinds.append("rename property, column follows")
                }
                for other in target.indices where target[other].generated != nil {
                    target[other].generated!.terms = target[other].generated!.terms.map {
                        ($0.property == name ? target[position].name : $0.property, $0.coefficient)
                    }
                }
            case ..<0.22:
                let column = fresh("c")
                target[position].column = column
                kinds.append("column only")
            case ..<0.28:
                let flipped = String(
                    target[position].column.map {
                        $0.isUppercase ? Character($0.lowercased()) : Character($0.uppercased())
                    })
                target[position].column = flipped
                kinds.append("case-only column rename")
            case ..<0.36
            where target[position].type == .integer && target[position].generated == nil && !referenced().contains(name):
                if let expression = generated(over: target, excluding: name) {
                    target[position].generated = expression
                    kinds.append("stored → generated")
                }
            case ..<0.44 where target[position].generated != nil:
                target[position].generated = nil
                kinds.append("generated → stored")
            default:
                break
            }
        }
        // A property removed (nothing generated reads it).
        if random.chance(0.3),
            let removed = target.indices.filter({ !referenced().contains(target[$0].name) }).randomElement(
                using: &random)
        {
            target.remove(at: removed)
            kinds.append("remove property")
        }
        // A new property, sometimes taking a renamed property's old name, and its column when free.
        if random.chance(0.5) {
            let renamed = target.filter { $0.originalName != nil }.compactMap(\.originalName).filter { old in
                !target.contains { $0.name == old }
            }
            if let old = renamed.randomElement(using: &random) {
                let oldColumn = source.first { $0.name == old }!.column
                target.append(
                    Property(name: old, column: isFree(oldColumn) ? oldColumn : fresh("c"), type: type(), isNew: true))
                kinds.append("new property takes a renamed one's name")
            } else {
                let name = fresh("n")
                target.append(
                    Property(name: name, column: random.chance(0.5) ? fresh("c") : name, type: type(), isNew: true))
                kinds.append("add property")
            }
        }
        // A column name a removed or renamed property freed may clash with nothing; make sure no two columns clash.
        var seen = Set<String>()
        for position in target.indices where !seen.insert(target[position].column.sqlFolded).inserted {
            target[position].column = fresh("c")
        }
        // The index follows its property (renamed or not); it goes with a removed one.
        let targetIndex = sourceIndex.flatMap { old in
            (target.first { $0.originalName == old } ?? target.first { !$0.isNew && $0.name == old })?.name
        }
        var result = ColumnMappingCase(
            source: source, target: target, sourceIndex: sourceIndex, targetIndex: targetIndex, rows: rows, kinds: kinds
        )
        // Renaming only properties stores nothing new (the hash is the same): then add one, so the versions differ.
        if result.schema(result.source, index: sourceIndex, version: 1).versionHash
            == result.schema(result.target, index: targetIndex, version: 1).versionHash
        {
            let name = fresh("n")
            result.target.append(Property(name: name, column: name, type: .integer, isNew: true))
            result.kinds.append("add property")
        }
        return result
    }
}
