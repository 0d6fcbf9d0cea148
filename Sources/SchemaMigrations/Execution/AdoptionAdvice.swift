/// The differences between a declared version and an unversioned database, per table, in the
/// terms of the declaration API: which property to add, remove or change, and how.
///
/// ```
/// Trip.name: the column is NOT NULL: declare it non-optional (String, not String?)
/// Trip.legacy: the column is not declared: add `var legacy: String?`
/// ```
enum AdoptionAdvice {
    static func lines(declared: Schema, live: LiveSchema) -> [String] {
        var result: [String] = []
        for entity in declared.entities {
            guard let table = live.table(named: entity.name) else {
                result.append("\(entity.name): the file has no such table: remove `\(entity.name)` from the version's models, or this file is at another version")
                continue
            }
            result += lines(entity: entity, table: table)
        }
        return result
    }

    /// The Swift type a declaration uses for a column of this affinity.
    static func swiftType(for affinity: Schema.StorageType) -> String? {
        switch affinity {
        case .integer: return "Int"
        case .real: return "Double"
        case .text: return "String"
        case .blob: return "Data"
        case .numeric: return nil
        }
    }

    private static func lines(entity: Schema.Entity, table: LiveSchema.Table) -> [String] {
        let name = entity.name
        var result: [String] = []
        if entity.primaryKey == nil && !table.hasIntegerPrimaryKey {
            let key = table.columns.filter { $0.primaryKeyPosition > 0 }.map(\.name)
            result.append("\(name): the table's primary key is \(key.isEmpty ? "the hidden rowid" : "(" + key.joined(separator: ", ") + ")"), not \"id\" INTEGER PRIMARY KEY, which every declared model has; declaring another key is not possible yet (`migrate snapshot --database` lists what cannot be declared)")
        }
        for attribute in entity.attributes {
            let property = attribute.references == nil ? attribute.name : String(attribute.name.dropLast(3))
            let declaredType = attribute.swiftType ?? attribute.valueType.swiftTypeName ?? "a Codable type"
            guard let column = table.column(named: attribute.name) else {
                result.append(attribute.references == nil
                              ? "\(name).\(attribute.name): the file has no such column: remove `var \(attribute.name)` (or mark it @Transient)"
                              : "\(name).\(property): the file has no column \(attribute.name) for this relationship: remove the relationship `\(property)`")
                continue
            }
            if column.affinity != attribute.storageType {
                let wanted = swiftType(for: column.affinity).map { "declare it `\($0)`" } ?? "no declarable type is stored with NUMERIC affinity yet"
                result.append("\(name).\(attribute.name): the column is \(column.declaredType.isEmpty ? "untyped" : column.declaredType), declared \(declaredType) (\(attribute.storageType.rawValue)): \(wanted)")
            }
            if column.notNull && attribute.isOptional {
                result.append("\(name).\(property): the column is NOT NULL: declare it non-optional (\(declaredType), not \(declaredType)?)")
            } else if !column.notNull && !attribute.isOptional {
                result.append("\(name).\(property): the column is nullable: declare it optional (\(declaredType)?, not \(declaredType))")
            }
            let liveKey = table.foreignKeys.first { $0.from.count == 1 && $0.from[0].sqlFolded == attribute.name.sqlFolded }
            switch (attribute.references, liveKey) {
            case (let declared?, nil):
                result.append("\(name).\(property): the column \(attribute.name) has no foreign key onto \(declared.table): declare `\(attribute.name): Int?` as a plain attribute, not a relationship")
            case (nil, let live?):
                result.append("\(name).\(attribute.name): the column REFERENCES \(live.table) ON DELETE \(live.onDelete): declare it as a relationship `var \(attribute.name.hasSuffix("_id") ? String(attribute.name.dropLast(3)) : attribute.name): \(live.table)?` (its column is named after it plus _id)")
            case (let declared?, let live?) where live.table.sqlFolded != declared.table.sqlFolded || live.onDelete.uppercased() != declared.onDelete:
                result.append("\(name).\(property): the column REFERENCES \(live.table) ON DELETE \(live.onDelete), declared \(declared.table) ON DELETE \(declared.onDelete): \(deleteRuleAdvice(live.onDelete))")
            default: break
            }
        }
        let declaredNames = Set(((entity.isJoinTable ? [] : [Schema.primaryKeyColumn]) + entity.attributes.map(\.name)).map { $0.sqlFolded })
        for column in table.columns where column.hidden == 0 && !declaredNames.contains(column.name.sqlFolded) {
            guard let type = swiftType(for: column.affinity) else {
                result.append("\(name).\(column.name): the column (\(column.declaredType), NUMERIC affinity) is not declared, and no declarable type is stored as NUMERIC yet")
                continue
            }
            let declaration: String
            if !column.notNull { declaration = "var \(column.name): \(type)?" }
            else if let value = column.defaultValue { declaration = "var \(column.name): \(type) = \(value)" }
            else { declaration = "@Attribute var \(column.name): \(type)" }
            result.append("\(name).\(column.name): the column is not declared: add `\(declaration)`")
        }
        let liveStructures = Set(table.indexes.map(\.structure) + table.indexes.map(\.fullStructure))
        for index in entity.indexes where !liveStructures.contains(index.structure) {
            if index.hasExpressions {
                result.append("\(name): the file has no index \(index.resolvedName(table: name)) \(index.termsDescription): remove it from `static let namedIndexes`, or create it")
                continue
            }
            let list = "[" + index.columns.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
            result.append(index.isUnique
                          ? "\(name): the file has no unique index on (\(index.columns.joined(separator: ", "))): remove \(index.columns.count == 1 ? "`.unique` from `\(index.columns[0])`" : "\(list) from `static let uniqueness`")"
                          : "\(name): the file has no index on (\(index.columns.joined(separator: ", "))): remove \(list) from `static let indexes`")
        }
        let declaredStructures = Set(entity.indexes.map(\.structure))
        for index in table.indexes where index.isUnique && index.origin != .primaryKey && !declaredStructures.contains(index.structure)
            && !declaredStructures.contains(index.fullStructure) {
            if index.hasExpressions {
                result.append("\(name): the unique index \(index.name), `\(index.sql ?? "")`, is not declared: add it to `static let namedIndexes` with `.unique`")
                continue
            }
            let list = "[" + index.columns.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
            result.append("\(name): the unique index \(index.name) on (\(index.columns.joined(separator: ", "))) is not declared: "
                          + (index.columns.count == 1 ? "declare `@Attribute(.unique) var \(index.columns[0])`" : "add \(list) to `static let uniqueness`"))
        }
        return result
    }

    private static func deleteRuleAdvice(_ onDelete: String) -> String {
        switch onDelete.uppercased() {
        case "CASCADE": return "give the inverse to-many `deleteRule: .cascade`"
        case "SET NULL": return "give the inverse to-many `deleteRule: .nullify`"
        case "RESTRICT": return "give the inverse to-many `deleteRule: .deny`"
        case "NO ACTION": return "give the inverse to-many `deleteRule: .noAction`"
        default: return "\(onDelete) cannot be declared yet"
        }
    }
}
