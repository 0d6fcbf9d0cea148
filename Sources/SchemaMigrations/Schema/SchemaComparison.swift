import Foundation

/// Compares a declared schema with what a live database really holds, by SQLite's own
/// introspection (`table_xinfo`, `index_list`), never by comparing SQL text.
struct SchemaComparison {
    /// Whether a column's default must match too: it must where this package wrote the column; a
    /// database created by hand may lack defaults without storing anything differently.
    var checksDefault: (_ table: String, _ column: String) -> Bool

    init(checksDefaults: Bool) {
        checksDefault = { _, _ in checksDefaults }
    }

    init(checksDefault: @escaping (_ table: String, _ column: String) -> Bool) {
        self.checksDefault = checksDefault
    }

    /// The differences between the declared entities and the live tables, in words; empty when they match.
    ///
    /// A live table may have extra non-unique indexes, triggers and views: they do not change what
    /// is stored. Extra columns, extra unique indexes and anything missing are differences.
    func differences(declared: Schema, live: LiveSchema) -> [String] {
        var result: [String] = []
        for entity in declared.entities {
            guard let table = live.table(named: entity.name) else {
                result.append("table \(entity.name) is missing")
                continue
            }
            result += differences(entity: entity, table: table)
        }
        return result
    }

    func differences(entity: Schema.Entity, table: LiveSchema.Table) -> [String] {
        var result: [String] = []
        let name = entity.name
        if let key = entity.primaryKey {
            let live = table.columns.filter { $0.primaryKeyPosition > 0 }.sorted { $0.primaryKeyPosition < $1.primaryKeyPosition }.map { $0.name.lowercased() }
            if live != key.map({ $0.lowercased() }) {
                result.append("\(name)'s primary key is (\(live.joined(separator: ", "))), declared (\(key.joined(separator: ", ")))")
            }
        } else if !table.hasIntegerPrimaryKey {
            result.append("\(name) has no \"\(Schema.primaryKeyColumn)\" INTEGER PRIMARY KEY column")
        }
        for attribute in entity.attributes {
            guard let column = table.column(named: attribute.name) else {
                result.append("column \(name).\(attribute.name) is missing")
                continue
            }
            if column.affinity != attribute.storageType {
                result.append("column \(name).\(attribute.name) is \(column.declaredType.isEmpty ? "untyped" : column.declaredType), declared \(attribute.storageType.rawValue)")
            }
            if column.notNull == attribute.isOptional {
                result.append("column \(name).\(attribute.name) is \(column.notNull ? "NOT NULL" : "nullable"), declared \(attribute.isOptional ? "optional" : "non-optional")")
            }
            let liveKey = table.foreignKeys.first { $0.from.count == 1 && $0.from[0].caseInsensitiveCompare(attribute.name) == .orderedSame }
            switch (attribute.references, liveKey) {
            case (nil, nil): break
            case (let declared?, nil):
                result.append("column \(name).\(attribute.name) has no foreign key, declared REFERENCES \(declared.table) ON DELETE \(declared.onDelete)")
            case (nil, let live?):
                result.append("column \(name).\(attribute.name) REFERENCES \(live.table), which is not declared")
            case (let declared?, let live?):
                if live.table.caseInsensitiveCompare(declared.table) != .orderedSame || live.onDelete.uppercased() != declared.onDelete {
                    result.append("column \(name).\(attribute.name) REFERENCES \(live.table) ON DELETE \(live.onDelete), declared \(declared.table) ON DELETE \(declared.onDelete)")
                }
            }
            if checksDefault(name, attribute.name) && column.defaultValue != attribute.defaultValue {
                result.append("column \(name).\(attribute.name) has default \(column.defaultValue ?? "none"), declared \(attribute.defaultValue ?? "none")")
            }
        }
        let declaredNames = Set(((entity.isJoinTable ? [] : [Schema.primaryKeyColumn]) + entity.attributes.map(\.name)).map { $0.lowercased() })
        for column in table.columns where column.hidden == 0 && !declaredNames.contains(column.name.lowercased()) {
            result.append("column \(name).\(column.name) is not declared")
        }
        let liveStructures = Set(table.indexes.map(\.structure))
        for index in entity.indexes where !liveStructures.contains(index.structure) {
            result.append("\(index.isUnique ? "unique index" : "index") \(name)\(index.structure.description.replacingOccurrences(of: "UNIQUE ", with: "")) is missing")
        }
        let declaredStructures = Set(entity.indexes.map(\.structure))
        for index in table.indexes where index.isUnique && index.origin != "pk" && !declaredStructures.contains(index.structure) {
            result.append("unique index \(index.name) on \(name)(\(index.columns.joined(separator: ", "))) is not declared")
        }
        return result
    }
}
