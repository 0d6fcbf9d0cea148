extension TablePlan {
    /// The source column each target attribute continues by its Swift property, where the column
    /// name alone would not find it: `@Attribute(column: "created_at") var createdAt` continues the
    /// previous version's `createdAt` column (a column rename), and an `originalName` names the
    /// previous version's property, whatever its column was called.
    static func continuedColumns(source: Schema.Entity, target: Schema.Entity) -> [String: String] {
        var byProperty: [String: String] = [:]
        for attribute in source.attributes where byProperty[attribute.property] == nil { byProperty[attribute.property] = attribute.name }
        let sourceColumns = Set(source.attributes.map(\.name))
        var continued: [String: String] = [:]
        for attribute in target.attributes {
            if let original = attribute.originalName {
                if !sourceColumns.contains(original), let column = byProperty[original] { continued[attribute.name] = column }
            } else if !sourceColumns.contains(attribute.name), let column = byProperty[attribute.property] {
                continued[attribute.name] = column
            }
        }
        return continued
    }

    /// Refuses a change of the primary key, `AUTOINCREMENT` or `WITHOUT ROWID`: a table's key is
    /// what other tables and the app hold on to, and moving it is not a change a plan infers.
    /// - Parameter renamedTo: source column → target column, for the key's renamed columns.
    /// - Throws: `MigrationError` (`unsupportedChange`) naming the entity and what to do instead.
    static func checkKey(source: Schema.Entity, target: Schema.Entity, renamedTo: [String: String], version: Schema.Version) throws {
        guard !target.isJoinTable else { return }  // its key follows its relationship, checked there
        let sourceKey = source.primaryKey.map { $0.map { renamedTo[$0] ?? $0 } }
        var changes: [String] = []
        if sourceKey != target.primaryKey {
            changes.append("primary key from \(describe(key: sourceKey)) to \(describe(key: target.primaryKey))")
        }
        if source.isAutoincrement != target.isAutoincrement {
            changes.append(target.isAutoincrement ? "AUTOINCREMENT on" : "AUTOINCREMENT off")
        }
        if source.isWithoutRowID != target.isWithoutRowID {
            changes.append(target.isWithoutRowID ? "WITHOUT ROWID on" : "WITHOUT ROWID off")
        }
        guard !changes.isEmpty else { return }
        throw MigrationError(.unsupportedChange, "version \(version) changes \(target.name)'s " + changes.joined(separator: ", ") + ", which a plan does not infer",
                             entity: target.name, version: version,
                             remedy: "keep the key as it was; to move it, create a new entity with the new key and copy the rows in a custom stage's didMigrate")
    }

    private static func describe(key: [String]?) -> String {
        key.map { "(" + $0.joined(separator: ", ") + ")" } ?? "\"\(Schema.primaryKeyColumn)\""
    }

    /// Refuses a change of how a `Date` is stored, or of the type of a date stored as text or
    /// Julian days: no conversion is inferred for them.
    /// - Throws: `MigrationError` (`unsupportedChange`) naming the entity and property.
    static func checkDateStorage(from old: Schema.Attribute, to new: Schema.Attribute, entity: String, version: Schema.Version) throws {
        guard old.dateStorage != new.dateStorage && (old.valueType == .date || new.valueType == .date) else { return }
        func describe(_ attribute: Schema.Attribute) -> String {
            attribute.valueType == .date ? "a date stored as \((attribute.dateStorage ?? .secondsSince1970).rawValue)" : "\(attribute.valueType.rawValue) values"
        }
        throw MigrationError(.unsupportedChange, "a lightweight stage cannot change '\(entity).\(new.property)' from \(describe(old)) to \(describe(new))",
                             entity: entity, property: new.property, version: version,
                             remedy: "add a new attribute with the new storage, fill it from the old one in a custom stage's didMigrate (the data API reads and writes each storage), then remove the old one")
    }
}
