import Foundation

@testable import SchemaMigrations

/// Generates random source schemas with random data the schema accepts: entities of every
/// attribute type, optional or not, with or without defaults, indexes, and uniqueness
/// constraints only where the data has no duplicates.
struct SchemaGenerator {
    var random: SeededRandom
    /// Names are never reused (`e1`, `c2`, …), so a removed name never comes back as a new one.
    private var counter = 0

    init(random: SeededRandom) { self.random = random }

    mutating func entityName() -> String {
        counter += 1
        return "e\(counter)"
    }
    mutating func attributeName() -> String {
        counter += 1
        return "c\(counter)"
    }

    mutating func valueType() -> Schema.ValueType {
        Schema.ValueType.allCases[Int.random(in: 0..<Schema.ValueType.allCases.count, using: &random)]
    }

    /// A new attribute: optional (sometimes with a default), or non-optional (usually with one).
    mutating func attribute(_ type: Schema.ValueType? = nil, optional: Bool? = nil, requireDefault: Bool = false)
        -> Schema.Attribute
    {
        let type = type ?? valueType()
        let optional = optional ?? random.chance(0.4)
        let hasDefault = requireDefault || random.chance(optional ? 0.2 : 0.7)
        return Schema.Attribute(
            name: attributeName(), valueType: type, isOptional: optional,
            defaultValue: hasDefault ? PropertyValues.randomDefault(type, using: &random).sqlLiteral : nil)
    }

    /// A value for a row: NULL a quarter of the time when the attribute is optional.
    mutating func value(for attribute: Schema.Attribute) -> SQLiteValue {
        attribute.isOptional && random.chance(0.25) ? .null : PropertyValues.random(attribute.valueType, using: &random)
    }

    /// A source database: one to three entities, up to twelve rows each (sometimes none).
    /// - Parameters:
    ///   - rows: how many rows a table that is not left empty gets.
    ///   - emptyChance: the chance that a table gets no row.
    mutating func database(rows rowCount: ClosedRange<Int> = 1...12, emptyChance: Double = 0.15) -> ModelDatabase {
        var tables: [ModelDatabase.Table] = []
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            var entity = Schema.Entity(
                name: entityName(), attributes: (0..<Int.random(in: 1...5, using: &random)).map { _ in attribute() })
            var rows: [ModelDatabase.Row] = []
            var id: Int64 = 0
            for _ in 0..<(random.chance(emptyChance) ? 0 : Int.random(in: rowCount, using: &random)) {
                id += Int64.random(in: 1...3, using: &random)
                rows.append(
                    ModelDatabase.Row(
                        id: id,
                        values: Dictionary(uniqueKeysWithValues: entity.attributes.map { ($0.name, value(for: $0)) })))
            }
            var table = ModelDatabase.Table(entity: entity, rows: rows)
            entity.indexes = indexes(for: table, count: Int.random(in: 0...2, using: &random))
            table.entity = entity
            tables.append(table)
        }
        return ModelDatabase(version: Schema.Version(1, 0, 0), tables: tables)
    }

    /// Random indexes over the table's attributes: unique only when its rows allow it.
    mutating func indexes(for table: ModelDatabase.Table, count: Int, existing: [Schema.Index] = []) -> [Schema.Index] {
        var result = existing
        let names = table.entity.attributes.map(\.name)
        for _ in 0..<count where !names.isEmpty {
            let columns = Array(
                names.shuffled(using: &random).prefix(Int.random(in: 1...min(2, names.count), using: &random)))
            let unique = random.chance(0.4) && table.isUnique(columns)
            var index = Schema.Index(columns, isUnique: unique)
            if !unique && random.chance(0.35) {
                // Terms with a collation and an order, which an online rebuild builds in key order.
                let elements = columns.map { name -> Schema.IndexElement in
                    let text = table.entity.attributes.first { $0.name == name }?.valueType == .string
                    return .column(
                        name, collation: text && random.chance(0.5) ? "NOCASE" : nil, descending: random.chance(0.5))
                }
                // Such an index needs a name; this one's is the table's and columns' at creation.
                var name = ([table.entity.name, "o"] + columns).joined(separator: "_")
                while result.contains(where: { $0.name == name }) { name += "_" }
                index = Schema.Index(elements: elements, name: name)
            }
            if !result.contains(where: { $0.structure == index.structure }) { result.append(index) }
        }
        return result
    }
}
