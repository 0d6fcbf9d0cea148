/// What the declaration API cannot say yet about an entity, so that Swift written for it would
/// not read back as the same schema. Such an entity is left out of the generated file, with its
/// reasons, never approximated; so is an entity that refers to one left out.
enum ScaffoldLimits {
    /// The entities that can be declared, and, for each one left out, why.
    static func partition(_ schema: Schema) -> (declarable: [Schema.Entity], leftOut: [SchemaIntrospection.TableNotes])
    {
        var leftOut: [SchemaIntrospection.TableNotes] = []
        var excluded = Set<String>()
        for entity in schema.entities {
            let found = reasons(entity)
            if !found.isEmpty {
                leftOut.append(.init(table: entity.name, notes: found))
                excluded.insert(entity.name)
            }
        }
        // An entity referring to one left out would not compile or would not validate: leave it out too.
        var changed = true
        while changed {
            changed = false
            for entity in schema.entities where !excluded.contains(entity.name) {
                let targets =
                    entity.attributes.compactMap(\.references?.table) + entity.relationships.map(\.destination)
                    + entity.constraints.compactMap {
                        if case .foreignKey(let key) = $0.kind { key.table } else { nil }
                    }
                if let target = targets.first(where: excluded.contains) {
                    leftOut.append(.init(table: entity.name, notes: ["it refers to \(target), which is left out"]))
                    excluded.insert(entity.name)
                    changed = true
                }
            }
        }
        return (schema.entities.filter { !excluded.contains($0.name) }, leftOut)
    }

    /// Why `entity` cannot be declared as it is, one sentence each; empty when it can.
    static func reasons(_ entity: Schema.Entity) -> [String] {
        unknownOptions(entity) + entity.attributes.flatMap(reasons) + entity.relationships.flatMap(reasons)
            + indexReasons(entity) + keyReasons(entity)
    }

    /// Options the model gained after this renderer was written (a partial index's condition, a
    /// generated column…): each part is rebuilt from the fields the renderer writes, and one that
    /// is not equal to its rebuild has something the generated Swift would silently drop.
    private static func unknownOptions(_ entity: Schema.Entity) -> [String] {
        var found: [String] = []
        for attribute in entity.attributes {
            let key = attribute.references.map {
                Schema.ForeignKey(
                    table: $0.table, onDelete: $0.onDelete, column: $0.column, onUpdate: $0.onUpdate,
                    isDeferred: $0.isDeferred)
            }
            let known = Schema.Attribute(
                name: attribute.name, valueType: attribute.valueType, isOptional: attribute.isOptional,
                defaultValue: attribute.defaultValue,
                originalName: attribute.originalName, hashModifier: attribute.hashModifier, options: attribute.options,
                swiftType: attribute.swiftType, references: key, propertyName: attribute.propertyName,
                sqlType: attribute.sqlType,
                dateStorage: attribute.dateStorage, check: attribute.check, collation: attribute.collation,
                generated: attribute.generated, notNullOnConflict: attribute.notNullOnConflict)
            if known != attribute {
                found.append("column \(attribute.name) has an option the scaffold cannot write yet")
            }
        }
        for index in entity.indexes
        where index.hasExpressions
            ? Schema.Index(
                elements: index.elements ?? index.columns.map { .column($0) }, isUnique: index.isUnique,
                name: index.name, predicate: index.predicate) != index
            : Schema.Index(index.columns, isUnique: index.isUnique, name: index.name) != index
        {
            found.append(
                "index \(index.name ?? index.structure.description) has an option the scaffold cannot write yet")
        }
        for relationship in entity.relationships {
            let known = Schema.Relationship(
                name: relationship.name, destination: relationship.destination, isToMany: relationship.isToMany,
                isOptional: relationship.isOptional, deleteRule: relationship.deleteRule, inverse: relationship.inverse,
                originalName: relationship.originalName, hashModifier: relationship.hashModifier)
            if known != relationship {
                found.append("relationship \(relationship.name) has an option the scaffold cannot write yet")
            }
        }
        let known = Schema.Entity(
            name: entity.name, originalName: entity.originalName, hashModifier: entity.hashModifier,
            attributes: entity.attributes,
            indexes: entity.indexes, relationships: entity.relationships, primaryKey: entity.primaryKey,
            isAutoincrement: entity.isAutoincrement, isWithoutRowID: entity.isWithoutRowID, isJoinTable: false,
            isStrict: entity.isStrict,
            constraints: entity.constraints.map {
                Schema.TableConstraint($0.kind, name: $0.name, onConflict: $0.onConflict)
            }, primaryKeyOnConflict: entity.primaryKeyOnConflict)
        if entity.isJoinTable {
            found.append(
                "a join table the storage layout makes for a many-to-many relationship: declare the relationship instead"
            )
        } else if known != entity {
            found.append("the table has an option the scaffold cannot write yet")
        }
        return found
    }

    private static func reasons(_ attribute: Schema.Attribute) -> [String] {
        var found: [String] = []
        if attribute.valueType.swiftTypeName == nil {
            found.append("column \(attribute.name) holds JSON: its Codable type is not in the schema")
        }
        for option in attribute.options
        where Attribute<Int>.Option(rawValue: option) == nil || KeyDeclaration.storageOptions.contains(option) {
            found.append("column \(attribute.name) has the option '\(option)', which @Attribute does not take")
        }
        if attribute.dateStorage == .secondsSince1970 {
            found.append("column \(attribute.name) names the default date storage, which a declaration records as none")
        }
        if let key = attribute.references {
            for action in [key.onDelete] + (key.onUpdate.map { [$0] } ?? [])
            where ForeignKeyReference.Action(rawValue: action) == nil {
                found.append(
                    "column \(attribute.name)'s foreign key has the action \(action), which ForeignKeyReference.Action does not name"
                )
            }
            if key.isDeferred == false {
                found.append(
                    "column \(attribute.name)'s foreign key records 'not deferred', which a declaration records as nothing"
                )
            }
        }
        return found
    }

    private static func reasons(_ relationship: Schema.Relationship) -> [String] {
        var found: [String] = []
        if !SwiftIdentifier.isUsable(relationship.name) {
            found.append("relationship '\(relationship.name)' is not a Swift property name")
        }
        if !relationship.isToMany && !relationship.isOptional {
            found.append(
                "relationship \(relationship.name) is a required to-one, which a generated model cannot initialize")
        }
        return found
    }

    /// Reflection declares each index structure once: a repeated structure would read back
    /// otherwise (a named index sharing its columns with another is a `NamedIndex`, which names
    /// it). Every index column must be a property.
    private static func indexReasons(_ entity: Schema.Entity) -> [String] {
        var found: [String] = []
        var columns = Set(entity.attributes.map(\.name))
        if entity.hasImplicitID { columns.insert(Schema.primaryKeyColumn) }
        var structures = Set<IndexStructure>()
        for index in entity.indexes {
            if !structures.insert(index.structure).inserted {
                found.append("index \(index.structure) is there twice")
            }
            if let missing = index.columns.first(where: { !columns.contains($0) }) {
                found.append("index \(index.structure) is on \(missing), which is not a column of \(entity.name)")
            }
            if index.hasExpressions && index.name == nil {
                found.append(
                    "index \(index.structure) has expressions, a collation, DESC or a WHERE but no name: a NamedIndex needs one"
                )
            }
        }
        return found
    }

    private static func keyReasons(_ entity: Schema.Entity) -> [String] {
        var found: [String] = []
        if let key = entity.primaryKey, let missing = key.first(where: { entity.attribute(named: $0) == nil }) {
            found.append("the primary key names \(missing), which is not a column of \(entity.name)")
        }
        if entity.isAutoincrement, entity.primaryKey?.count != 1 {
            found.append("AUTOINCREMENT without a single-column primary key")
        }
        if entity.isWithoutRowID, entity.primaryKey == nil {
            found.append("WITHOUT ROWID without a declared primary key")
        }
        return found
    }
}
