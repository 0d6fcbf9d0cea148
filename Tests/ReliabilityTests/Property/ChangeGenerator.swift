import Foundation

@testable import SchemaMigrations

/// A random lightweight stage and what the reference model predicts of it: the rows after, or
/// the refusal (the codes a correct migrator may answer with) when the data does not allow it.
struct GeneratedStage {
    var target: ModelDatabase
    /// Empty when the migration must succeed.
    var refusals: [(codes: Set<MigrationError.Code>, reason: String)] = []
    /// The change kinds, for the summary and for failure messages.
    var kinds: [String] = []
}

/// Where a target column's values come from.
enum ColumnSource {
    /// A source column, converted from its type; NULLs take `nullDefault` when given.
    case column(String, from: Schema.ValueType, nullDefault: SQLiteValue?)
    /// A new column: its default, or NULL.
    case fresh(SQLiteValue)
}

extension SchemaGenerator {
    /// Random changes a lightweight stage accepts, to every entity of `source`.
    mutating func stage(from source: ModelDatabase, to version: Schema.Version) -> GeneratedStage {
        var stage = GeneratedStage(target: ModelDatabase(version: version, tables: []))
        for table in source.tables {
            if random.chance(0.08) {
                stage.kinds.append("remove entity")
                continue
            }
            stage.target.tables.append(change(table, stage: &stage, sourceNames: Set(source.tables.map(\.entity.name))))
        }
        swapEntityNames(in: &stage)
        if stage.target.tables.isEmpty || random.chance(0.15) {
            var entity = Schema.Entity(
                name: entityName(), attributes: (0..<Int.random(in: 1...3, using: &random)).map { _ in attribute() })
            entity.indexes = indexes(
                for: ModelDatabase.Table(entity: entity, rows: []), count: Int.random(in: 0...1, using: &random))
            stage.target.tables.append(ModelDatabase.Table(entity: entity, rows: []))
            stage.kinds.append("add entity")
        }
        return stage
    }

    /// Adds an optional attribute to one table: the stage then changes the schema for certain.
    mutating func forceChange(_ stage: inout GeneratedStage) {
        let index = Int.random(in: 0..<stage.target.tables.count, using: &random)
        let added = attribute(optional: true)
        stage.target.tables[index].entity.attributes.append(added)
        for row in stage.target.tables[index].rows.indices {
            stage.target.tables[index].rows[row].values[added.name] =
                added.defaultValue.map { _ in defaultValue(of: added) } ?? .null
        }
        stage.kinds.append("add optional attribute")
    }

    private mutating func change(_ table: ModelDatabase.Table, stage: inout GeneratedStage, sourceNames: Set<String>)
        -> ModelDatabase.Table
    {
        var entity = table.entity
        // A stale originalName is harmless, unless it names an entity of the previous version (as
        // after a swap), which it would then claim.
        if let original = entity.originalName, sourceNames.contains(original) || random.chance(0.5) {
            entity.originalName = nil
        }
        if random.chance(0.15) {
            entity.originalName = entity.name
            entity.name = entityName()
            stage.kinds.append("rename entity")
        }
        if random.chance(0.08) {
            entity.hashModifier = "h\(attributeName())"
            stage.kinds.append("entity hashModifier")
        }
        var attributes: [Schema.Attribute] = []
        var sources: [String: ColumnSource] = [:]
        var renamed: [String: String] = [:]
        for old in table.entity.attributes {
            var new = old
            if let original = old.originalName,
                table.entity.attributes.contains(where: { $0.name == original }) || random.chance(0.5)
            {
                new.originalName = nil
            }
            var nullDefault: SQLiteValue?
            let roll = Double.random(in: 0..<1, using: &random)
            let targets = PropertyValues.losslessTargets(of: old.valueType)
            switch roll {
            case ..<0.10:
                stage.kinds.append("remove attribute")
                continue
            case ..<0.22:
                new.originalName = old.name
                new.name = attributeName()
                stage.kinds.append("rename attribute")
            case ..<0.34 where !targets.isEmpty:
                new.valueType = targets[Int.random(in: 0..<targets.count, using: &random)]
                if old.defaultValue != nil || !old.isOptional {
                    new.defaultValue = PropertyValues.randomDefault(new.valueType, using: &random).sqlLiteral
                }
                if random.chance(0.3) {
                    new.originalName = old.name
                    new.name = attributeName()
                }
                stage.kinds.append("type change \(old.valueType.rawValue)→\(new.valueType.rawValue)")
            case ..<0.44 where old.isOptional:
                new.isOptional = false
                if random.chance(0.7) {
                    new.defaultValue = PropertyValues.randomDefault(new.valueType, using: &random).sqlLiteral
                    nullDefault = defaultValue(of: new)
                    stage.kinds.append("optional→non-optional with default")
                } else {
                    new.defaultValue = nil
                    stage.kinds.append("optional→non-optional without default")
                }
            case ..<0.52 where !old.isOptional:
                new.isOptional = true
                new.notNullOnConflict = nil
                stage.kinds.append("non-optional→optional")
            case ..<0.58:
                new.defaultValue =
                    random.chance(0.3) ? nil : PropertyValues.randomDefault(new.valueType, using: &random).sqlLiteral
                stage.kinds.append("default change")
            case ..<0.63:
                new.hashModifier = "h\(attributeName())"
                stage.kinds.append("attribute hashModifier")
            case ..<0.80 where old.valueType == .string:
                // Values a unique index holds apart may become equal ('a' and 'A' under NOCASE).
                new.collation = old.collation == nil ? "NOCASE" : nil
                stage.kinds.append("collation change")
            default:
                break
            }
            renamed[old.name] = new.name
            sources[new.name] = .column(old.name, from: old.valueType, nullDefault: nullDefault)
            attributes.append(new)
        }
        swapAttributeNames(&attributes, renamed: &renamed, sources: &sources, stage: &stage)
        // Now and then the table takes the name one of its columns leaves: tables and columns are
        // separate namespaces, and a name in one is no temporary of the other.
        if entity.originalName == nil || entity.originalName == table.entity.name,
            let left = renamed.keys.sorted().first(where: { renamed[$0] != $0 && !sourceNames.contains($0) }),
            random.chance(0.2)
        {
            entity.originalName = table.entity.name
            entity.name = left
            stage.kinds.append("rename entity to a column's old name")
        }
        for _ in 0..<(random.chance(0.4) ? Int.random(in: 1...2, using: &random) : 0) {
            let withoutDefault = random.chance(0.05)
            var added = attribute(optional: withoutDefault ? false : nil)
            if withoutDefault {
                added.defaultValue = nil
            } else if !added.isOptional && added.defaultValue == nil {
                added.defaultValue = PropertyValues.randomDefault(added.valueType, using: &random).sqlLiteral
            }
            sources[added.name] = .fresh(added.defaultValue == nil ? .null : defaultValue(of: added))
            attributes.append(added)
            stage.kinds.append(
                added.isOptional
                    ? "add optional attribute"
                    : added.defaultValue == nil ? "add non-optional without default" : "add non-optional with default")
        }
        if attributes.isEmpty {
            let added = attribute(optional: true)
            sources[added.name] = .fresh(added.defaultValue == nil ? .null : defaultValue(of: added))
            attributes.append(added)
        }
        entity.attributes = attributes
        let rows = table.rows.map { row in
            ModelDatabase.Row(
                id: row.id,
                values: Dictionary(
                    uniqueKeysWithValues: attributes.map { ($0.name, value(of: $0, from: sources[$0.name]!, row: row)) }
                ))
        }
        var result = ModelDatabase.Table(entity: entity, rows: rows)
        let kept = table.entity.indexes.compactMap { index -> Schema.Index? in
            let columns = index.columns.compactMap { renamed[$0] }
            guard columns.count == index.columns.count, !random.chance(0.15) else {
                stage.kinds.append("remove index")
                return nil
            }
            guard let elements = index.elements else { return Schema.Index(columns, isUnique: index.isUnique) }
            return Schema.Index(
                elements: elements.map { element in
                    var renamedElement = element
                    renamedElement.column = element.column.flatMap { renamed[$0] }
                    return renamedElement
                }, isUnique: index.isUnique, name: index.name)
        }
        let added = random.chance(0.3) ? indexes(for: result, count: 1, existing: kept) : kept
        if added.count > kept.count { stage.kinds.append(added.last!.isUnique ? "add uniqueness" : "add index") }
        result.entity.indexes = added
        predictRefusals(result, sources: sources, keptIndexes: Set(kept.map(\.structure)), stage: &stage)
        for attribute in attributes {
            // An integer a double cannot hold exactly is refused, not rounded.
            guard case .column(let name, .integer, _) = sources[attribute.name]!, attribute.valueType == .double,
                table.rows.contains(where: {
                    if case .integer(let number) = $0.values[name] {
                        return !PropertyValues.isExactDouble(number)
                    } else {
                        return false
                    }
                })
            else { continue }
            stage.refusals.append(
                ([.dataViolation], "\(entity.name).\(attribute.name): an integer a double cannot hold exactly"))
        }
        return result
    }

    /// Sometimes two tables that keep their names trade them (`A ↔ B`, each declaring the other's
    /// old name as its `originalName`), with their rows: a permutation no rename order can make
    /// without a temporary name.
    private mutating func swapEntityNames(in stage: inout GeneratedStage) {
        let unchanged = stage.target.tables.indices.filter { stage.target.tables[$0].entity.originalName == nil }
        guard unchanged.count >= 2, random.chance(0.15) else { return }
        let pair = Array(unchanged.shuffled(using: &random).prefix(2))
        let (first, second) = (stage.target.tables[pair[0]].entity.name, stage.target.tables[pair[1]].entity.name)
        stage.target.tables[pair[0]].entity.name = second
        stage.target.tables[pair[0]].entity.originalName = first
        stage.target.tables[pair[1]].entity.name = first
        stage.target.tables[pair[1]].entity.originalName = second
        stage.kinds.append("swap entities")
    }

    /// Sometimes two attributes that keep their names trade them (`a ↔ b`), each keeping its values.
    private mutating func swapAttributeNames(
        _ attributes: inout [Schema.Attribute], renamed: inout [String: String], sources: inout [String: ColumnSource],
        stage: inout GeneratedStage
    ) {
        let unchanged = attributes.indices.filter { renamed[attributes[$0].name] == attributes[$0].name }
        guard unchanged.count >= 2, random.chance(0.15) else { return }
        let pair = Array(unchanged.shuffled(using: &random).prefix(2))
        let (first, second) = (attributes[pair[0]].name, attributes[pair[1]].name)
        attributes[pair[0]].name = second
        attributes[pair[0]].originalName = first
        attributes[pair[1]].name = first
        attributes[pair[1]].originalName = second
        renamed[first] = second
        renamed[second] = first
        (sources[first], sources[second]) = (sources[second], sources[first])
        stage.kinds.append("swap attributes")
    }

    private func value(of attribute: Schema.Attribute, from source: ColumnSource, row: ModelDatabase.Row) -> SQLiteValue
    {
        switch source {
        case .fresh(let value): return value
        case .column(let name, let type, let nullDefault):
            let converted = PropertyValues.convert(row.values[name] ?? .null, from: type, to: attribute.valueType)
            return converted == .null ? (nullDefault ?? .null) : converted
        }
    }

    /// The value a default literal gives, in the model (the literal was made from that value).
    func defaultValue(of attribute: Schema.Attribute) -> SQLiteValue {
        guard let literal = attribute.defaultValue else { return .null }
        return PropertyValues.value(ofLiteral: literal, type: attribute.valueType)
    }

    private func predictRefusals(
        _ table: ModelDatabase.Table, sources: [String: ColumnSource], keptIndexes: Set<IndexStructure>,
        stage: inout GeneratedStage
    ) {
        for attribute in table.entity.attributes
        where !attribute.isOptional && table.rows.contains(where: { $0.values[attribute.name] == .null }) {
            if case .fresh = sources[attribute.name]! {
                stage.refusals.append(
                    (
                        [.unsupportedChange],
                        "non-optional \(table.entity.name).\(attribute.name) without a default added to a table with rows"
                    ))
            } else {
                stage.refusals.append(
                    ([.dataViolation], "\(table.entity.name).\(attribute.name) becomes non-optional over NULLs"))
            }
        }
        for index in table.entity.indexes where index.isUnique && !table.isUnique(index.columns) {
            let codes: Set<MigrationError.Code> =
                keptIndexes.contains(index.structure) ? [.dataViolation, .sqlite] : [.dataViolation]
            stage.refusals.append(
                (codes, "unique (\(index.columns.joined(separator: ", "))) on \(table.entity.name) over duplicates"))
        }
    }
}
