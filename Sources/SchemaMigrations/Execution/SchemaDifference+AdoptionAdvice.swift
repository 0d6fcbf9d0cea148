/// Adoption advice: the differences between a declared version and an unversioned database, in
/// the terms of the declaration API: which property to add, remove or change, and how.
///
/// ```
/// Trip.name: the column is NOT NULL: declare it non-optional (String, not String?)
/// Trip.legacy: the column is not declared: add `var legacy: String?`
/// ```
extension SchemaDifference {
    /// The advice for each of `differences` (``SchemaComparison``'s, between `declared` and
    /// `live`) that a declaration can resolve; the others have no line.
    static func adoptionAdvice(for differences: [SchemaDifference], declared: Schema, live: LiveSchema) -> [String] {
        differences.compactMap { difference in
            guard let entity = declared.entity(named: difference.table) else { return nil }
            return difference.adoptionAdvice(entity: entity, table: live.table(named: entity.name))
        }
    }

    /// The Swift type a declaration uses for a column of this affinity.
    private static func swiftType(for affinity: Schema.StorageType) -> String? {
        switch affinity {
        case .integer: return "Int"
        case .real: return "Double"
        case .text: return "String"
        case .blob: return "Data"
        case .numeric: return nil
        }
    }

    /// The advice on this difference, given the entity it concerns and its table (if the file has it).
    private func adoptionAdvice(entity: Schema.Entity, table: LiveSchema.Table?) -> String? {
        let name = entity.name
        switch self {
        case .missingTable:
            return
                "\(name): the file has no such table: remove `\(name)` from the version's models, or this file is at another version"
        case .noIntegerPrimaryKey:
            let key = table?.columns.filter { $0.primaryKeyPosition > 0 }.map(\.name) ?? []
            return
                "\(name): the table's primary key is \(key.isEmpty ? "the hidden rowid" : "(" + key.joined(separator: ", ") + ")"), "
                + "not \"id\" INTEGER PRIMARY KEY, which every declared model has; declaring another key is not possible yet "
                + "(`migrate snapshot --database` lists what cannot be declared)"
        case .undeclaredColumn(_, let column):
            return table?.column(named: column).flatMap { Self.undeclaredColumnAdvice($0, entity: entity) }
        case .missingIndex(_, let index):
            return Self.missingIndexAdvice(index, table: name)
        case .undeclaredUniqueIndex(_, let index, let columns, let sql):
            if let sql {
                return
                    "\(name): the unique index \(index), `\(sql)`, is not declared: add it to `static let namedIndexes` with `.unique`"
            }
            let list = "[" + columns.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
            return "\(name): the unique index \(index) on (\(columns.joined(separator: ", "))) is not declared: "
                + (columns.count == 1
                    ? "declare `@Attribute(.unique) var \(columns[0])`" : "add \(list) to `static let uniqueness`")
        default:
            guard let column, let attribute = entity.attribute(named: column) else { return nil }
            return attributeAdvice(attribute, entity: name, table: table)
        }
    }

    /// The advice on a declared attribute's column: missing, typed otherwise, nullable otherwise, or referencing otherwise.
    private func attributeAdvice(_ attribute: Schema.Attribute, entity name: String, table: LiveSchema.Table?)
        -> String?
    {
        let column = attribute.name
        let property = attribute.references == nil ? column : String(column.dropLast(3))
        let declaredType = attribute.swiftType ?? attribute.valueType.swiftTypeName ?? "a Codable type"
        switch self {
        case .missingColumn:
            return attribute.references == nil
                ? "\(name).\(column): the file has no such column: remove `var \(column)` (or mark it @Transient)"
                : "\(name).\(property): the file has no column \(column) for this relationship: remove the relationship `\(property)`"
        case .columnType(_, _, let live, _):
            // Declared by its Swift type, a column is told apart by the values it stores: its affinity.
            let affinity = Schema.StorageType(affinityOf: live)
            guard affinity != attribute.storageType else { return nil }
            let wanted =
                Self.swiftType(for: affinity).map { "declare it `\($0)`" }
                ?? "no declarable type is stored with NUMERIC affinity yet"
            return "\(name).\(column): the column is \(live.isEmpty ? "untyped" : live), declared \(declaredType) "
                + "(\(attribute.storageType.rawValue)): \(wanted)"
        case .nullability(_, _, liveNotNull: true):
            return
                "\(name).\(property): the column is NOT NULL: declare it non-optional (\(declaredType), not \(declaredType)?)"
        case .nullability(_, _, liveNotNull: false):
            return
                "\(name).\(property): the column is nullable: declare it optional (\(declaredType)?, not \(declaredType))"
        case .missingForeignKey(_, _, let declared):
            return "\(name).\(property): the column \(column) has no foreign key onto \(declared.table): "
                + "declare `\(column): Int?` as a plain attribute, not a relationship"
        case .undeclaredForeignKey(_, _, let live):
            let key = table?.foreignKeys.first { $0.from.count == 1 && $0.from[0].sqlFolded == column.sqlFolded }
            let onDelete = key?.onDelete ?? "NO ACTION"
            let relationship = column.hasSuffix("_id") ? String(column.dropLast(3)) : column
            return
                "\(name).\(column): the column REFERENCES \(live.table) ON DELETE \(onDelete): declare it as a relationship "
                + "`var \(relationship): \(live.table)?` (its column is named after it plus _id)"
        case .foreignKeyTarget(_, _, let live, let declared):
            let onDelete = live.onDelete ?? ""
            return "\(name).\(property): the column REFERENCES \(live.table) ON DELETE \(onDelete), "
                + "declared \(declared.table) ON DELETE \(declared.onDelete ?? ""): \(Self.deleteRuleAdvice(onDelete))"
        default:
            return nil
        }
    }

    private static func undeclaredColumnAdvice(_ column: LiveSchema.Column, entity: Schema.Entity) -> String? {
        let name = entity.name
        // Beside a declared key (a join table's aside), an "id" column gets no line: such a key cannot be declared yet.
        if !entity.isJoinTable && column.name.sqlFolded == Schema.primaryKeyColumn { return nil }
        guard let type = swiftType(for: column.affinity) else {
            return "\(name).\(column.name): the column (\(column.declaredType), NUMERIC affinity) is not declared, "
                + "and no declarable type is stored as NUMERIC yet"
        }
        let declaration: String
        if !column.notNull {
            declaration = "var \(column.name): \(type)?"
        } else if let value = column.defaultValue {
            declaration = "var \(column.name): \(type) = \(value)"
        } else {
            declaration = "@Attribute var \(column.name): \(type)"
        }
        return "\(name).\(column.name): the column is not declared: add `\(declaration)`"
    }

    private static func missingIndexAdvice(_ index: Schema.Index, table name: String) -> String {
        if index.hasExpressions {
            return "\(name): the file has no index \(index.resolvedName(table: name)) \(index.termsDescription): "
                + "remove it from `static let namedIndexes`, or create it"
        }
        let list = "[" + index.columns.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
        let columns = index.columns.joined(separator: ", ")
        guard index.isUnique else {
            return "\(name): the file has no index on (\(columns)): remove \(list) from `static let indexes`"
        }
        let declaration =
            index.columns.count == 1 ? "`.unique` from `\(index.columns[0])`" : "\(list) from `static let uniqueness`"
        return "\(name): the file has no unique index on (\(columns)): remove \(declaration)"
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
