#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Schema {
    /// Names a schema may not use: SQLite's own tables and this package's bookkeeping.
    static func isReservedTableName(_ name: String) -> Bool {
        let lower = name.sqlFolded
        return lower.hasPrefix("sqlite_") || lower.hasPrefix(TableNames.metadata.sqlFolded)
            || lower.hasPrefix(TableNames.temporaryPrefix)
            || lower.hasPrefix(TableNames.onlinePrefix) || lower.hasPrefix(TableNames.releasedPrefix)
    }

    /// Checks the schema is well formed.
    ///
    /// - Throws: `MigrationError` with code `invalidSchema` naming the entity and property: an empty
    ///   or duplicate name (SQLite names are case-insensitive, so `name` and `Name` clash), a reserved
    ///   name, an entity with no attributes, an attribute named like the primary key, a default that
    ///   is not one SQL literal or a foreign key action that is not SQLite's, an index naming
    ///   an unknown property, two indexes with one name, or a retired property that is
    ///   non-optional without a default.
    public func validate() throws {
        var entityNames: [String: String] = [:]
        var indexNames: [String: String] = [:]
        for entity in entities {
            func fail(_ message: String, property: String? = nil, remedy: String) -> MigrationError {
                MigrationError(
                    .invalidSchema, message, entity: entity.name, property: property, version: version, remedy: remedy)
            }
            func fail(_ message: String, attribute: Schema.Attribute, remedy: String) -> MigrationError {
                MigrationError(
                    .invalidSchema, message, entity: entity.name, property: attribute.property,
                    column: attribute.name, version: version, remedy: remedy)
            }
            guard !entity.name.isEmpty else {
                throw fail("an entity has an empty name", remedy: "give every model a name")
            }
            if let other = entityNames[entity.name.sqlFolded] {
                throw fail(
                    "entities '\(other)' and '\(entity.name)' have the same table name (SQLite names ignore case)",
                    remedy: "rename one of them")
            }
            entityNames[entity.name.sqlFolded] = entity.name
            if Schema.isReservedTableName(entity.name) {
                throw fail(
                    "'\(entity.name)' is a reserved table name (SQLite reserves 'sqlite_…'; SchemaMigrations reserves '\(TableNames.metadata)' and '\(TableNames.temporaryPrefix)…')",
                    remedy: "rename the entity")
            }
            if ForeignMigrationHistory.isBookkeepingTable(entity.name) {
                throw fail(
                    "'\(entity.name)' is another migration tool's bookkeeping table, which SchemaMigrations leaves alone",
                    remedy: "rename the entity")
            }
            guard !entity.attributes.isEmpty else {
                throw fail(
                    "entity '\(entity.name)' has no attributes",
                    remedy: "declare at least one stored property, or remove the entity")
            }
            var attributeNames: [String: String] = [:]
            attributeNames.reserveCapacity(entity.attributes.count)
            for attribute in entity.attributes {
                guard !attribute.name.isEmpty else {
                    throw fail("an attribute of '\(entity.name)' has an empty name", remedy: "name every attribute")
                }
                let lowercased = attribute.name.sqlFolded
                if lowercased == Schema.primaryKeyColumn && entity.hasImplicitID {
                    throw fail(
                        "'\(entity.name).\(attribute.name)' clashes with the integer primary key column '\(Schema.primaryKeyColumn)' every table has",
                        attribute: attribute,
                        remedy:
                            "rename the property (for example to '\(entity.name.prefix(1).lowercased() + entity.name.dropFirst())ID'), or mark it @Transient"
                    )
                }
                if let other = attributeNames[lowercased] {
                    throw fail(
                        "'\(entity.name)' declares '\(other)' and '\(attribute.name)', which name the same column (SQLite names ignore case)",
                        attribute: attribute, remedy: "rename one of them")
                }
                attributeNames[lowercased] = attribute.name
                if attribute.isRetired && !attribute.isOptional && attribute.defaultValue == nil
                    && attribute.generated == nil
                {
                    throw fail(
                        "'\(entity.name).\(attribute.property)' is retired but non-optional without a default: this version's inserts, which no longer write it, would fail",
                        attribute: attribute, remedy: "make it optional or give it a default while it is retired")
                }
                if let defaultValue = attribute.defaultValue, !attribute.isOptional, defaultValue.utf8.count == 4,
                    defaultValue.uppercased() == "NULL"
                {
                    throw fail(
                        "non-optional '\(entity.name).\(attribute.property)' has a NULL default", attribute: attribute,
                        remedy: "give it a non-NULL default or make it optional")
                }
                if let defaultValue = attribute.defaultValue, !SQLLiteral.isLiteral(defaultValue),
                    !SQLExpressionText.isParenthesized(defaultValue)
                {
                    throw fail(
                        "the default of '\(entity.name).\(attribute.property)' is not one SQL literal: \(defaultValue)",
                        attribute: attribute,
                        remedy:
                            "write a number, a 'quoted string', X'hex', NULL, TRUE, FALSE, CURRENT_TIMESTAMP, or one expression in parentheses"
                    )
                }
                if let resolution = attribute.notNullOnConflict, attribute.isOptional {
                    throw fail(
                        "optional '\(entity.name).\(attribute.property)' has the NOT NULL conflict clause ON CONFLICT \(resolution.rawValue), but no NOT NULL",
                        attribute: attribute, remedy: "make the property non-optional, or leave notNullOnConflict out")
                }
                if let key = attribute.references, !SQLLiteral.foreignKeyActions.contains(key.onDelete) {
                    throw fail(
                        "the ON DELETE action of '\(entity.name).\(attribute.property)' is not one of SQLite's: \(key.onDelete)",
                        attribute: attribute,
                        remedy: "use " + SQLLiteral.foreignKeyActions.sorted().joined(separator: ", "))
                }
            }
            if let resolution = entity.primaryKeyOnConflict, entity.primaryKey == [] {
                throw fail(
                    "'\(entity.name)' declares no primary key (primaryKey = []) but the key conflict clause ON CONFLICT \(resolution.rawValue)",
                    remedy: "declare a primary key, or leave primaryKeyOnConflict out")
            }
            try validateRetiredUniqueness(of: entity)
            try validateStorage(of: entity)
            try validateExpressions(of: entity)
            try validateConstraints(of: entity)
            var declaredIndexes: [Schema.Index] = []
            for index in entity.indexes {
                guard !index.columns.isEmpty || index.elements?.isEmpty == false else {
                    throw fail(
                        "an index of '\(entity.name)' lists no properties",
                        remedy: "list at least one property, or remove the index")
                }
                for column in index.columns
                where attributeNames[column.sqlFolded] == nil && column.sqlFolded != Schema.primaryKeyColumn {
                    throw fail(
                        "an index of '\(entity.name)' names '\(column)', which is not an attribute of '\(entity.name)'",
                        property: column, remedy: "use one of: \(entity.attributes.map(\.name).joined(separator: ", "))"
                    )
                }
                // SQLite reports an index's columns as the table spells them: so must the declaration.
                for column in index.columns {
                    let spelled =
                        column.sqlFolded == Schema.primaryKeyColumn
                        ? Schema.primaryKeyColumn : attributeNames[column.sqlFolded]!
                    if spelled != column {
                        throw fail(
                            "an index of '\(entity.name)' names '\(column)', which '\(entity.name)' spells '\(spelled)'",
                            property: column, remedy: "write '\(spelled)' in the index")
                    }
                }
                if index.elements == nil, Set(index.columns.map { $0.sqlFolded }).count != index.columns.count {
                    throw fail(
                        "an index of '\(entity.name)' lists a property twice: (\(index.columns.joined(separator: ", ")))",
                        remedy: "list each property once")
                }
                if declaredIndexes.contains(where: { $0.isSameDeclaration(as: index) }) {
                    throw fail(
                        "'\(entity.name)' declares the \(index.isUnique ? "uniqueness constraint" : "index") \(index.structure) twice",
                        remedy: "remove the duplicate declaration, or name each (a NamedIndex) to keep two")
                }
                declaredIndexes.append(index)
                let name = index.resolvedName(table: entity.name)
                if let other = indexNames[name.sqlFolded] {
                    throw fail(
                        "two indexes are named '\(name)' (in '\(other)' and '\(entity.name)'); SQLite index names are shared by the whole database",
                        remedy: "give one of them another name")
                }
                indexNames[name.sqlFolded] = entity.name
            }
        }
        try validateSQLObjects(indexNames: indexNames)
        try validateHeader()
    }
}

extension Schema {
    /// Refuses a unique index or UNIQUE constraint whose every column is retired with a default
    /// other than NULL: this version's inserts no longer write those columns, so each new row
    /// takes the same values, and the second insert fails.
    func validateRetiredUniqueness(of entity: Entity) throws {
        let constant = Set(
            entity.attributes.filter { attribute in
                attribute.isRetired && attribute.generated == nil
                    && attribute.defaultValue.map { $0.uppercased() != "NULL" } ?? false
            }.map(\.name.sqlFolded))
        guard !constant.isEmpty else { return }
        let uniques =
            entity.indexes.filter { $0.isUnique && $0.elements == nil && $0.predicate == nil }.map(\.columns)
            + entity.constraints.compactMap { if case .unique(let columns) = $0.kind { columns } else { nil } }
        let folded = Dictionary(
            entity.attributes.flatMap { [($0.name.sqlFolded, $0.name), ($0.property.sqlFolded, $0.name)] },
            uniquingKeysWith: { first, _ in first })
        for columns in uniques {
            let names = columns.map { folded[$0.sqlFolded] ?? $0 }
            guard !names.isEmpty, names.allSatisfy({ constant.contains($0.sqlFolded) }) else { continue }
            throw MigrationError(
                .invalidSchema,
                "'\(entity.name)' keeps (\(names.joined(separator: ", "))) unique, but they are retired with a default: this version's inserts, which no longer write them, would all take the default, and the second would fail",
                entity: entity.name, property: names[0], version: version,
                remedy:
                    "make the retired properties optional without a default (NULLs never collide), or drop the uniqueness in this version"
            )
        }
    }
}
