extension TablePlan {
    /// The previous version's property each renamed target attribute continues, keyed by the
    /// target's column: `originalName` names the previous version's property, whatever its column
    /// was called; a name that is no property there but is a column is taken as that column's
    /// property (plans written when `originalName` named the column keep meaning what they did).
    static func originalProperties(source: Schema.Entity, target: Schema.Entity) -> [String: String] {
        var properties = Set<String>()
        var propertyByColumn: [String: String] = [:]
        for attribute in source.attributes {
            properties.insert(attribute.property)
            if propertyByColumn[attribute.name] == nil { propertyByColumn[attribute.name] = attribute.property }
        }
        var originals: [String: String] = [:]
        for attribute in target.attributes {
            guard let original = attribute.originalName else { continue }
            originals[attribute.name] =
                properties.contains(original) ? original : propertyByColumn[original] ?? original
        }
        return originals
    }

    /// Refuses a change of the primary key (its columns or their order), `AUTOINCREMENT` or
    /// `WITHOUT ROWID`: a table's key is
    /// what other tables and the app hold on to, and moving it is not a change a plan infers.
    /// - Parameter renamedTo: source column → target column, for the key's renamed columns.
    /// - Throws: `MigrationError` (`unsupportedChange`) naming the entity and what to do instead.
    static func checkKey(
        source: Schema.Entity, target: Schema.Entity, renamedTo: [String: String], version: Schema.Version
    ) throws {
        guard !target.isJoinTable else { return }  // its key follows its relationship, checked there
        let sourceKey = source.primaryKey.map { $0.map { renamedTo[$0] ?? $0 } }
        var changes: [String] = []
        if sourceKey != target.primaryKey {
            changes.append("primary key from \(describe(key: sourceKey)) to \(describe(key: target.primaryKey))")
        }
        let sourceDescending = source.attributes.filter(\.isDescending).map { renamedTo[$0.name] ?? $0.name }
        let targetDescending = target.attributes.filter(\.isDescending).map(\.name)
        if sourceKey == target.primaryKey, Set(sourceDescending) != Set(targetDescending), let key = target.primaryKey {
            func ordered(_ descending: [String]) -> String {
                "(" + key.map { descending.contains($0) ? "\($0) DESC" : $0 }.joined(separator: ", ") + ")"
            }
            changes.append("primary key order from \(ordered(sourceDescending)) to \(ordered(targetDescending))")
        }
        if source.isAutoincrement != target.isAutoincrement {
            changes.append(target.isAutoincrement ? "AUTOINCREMENT on" : "AUTOINCREMENT off")
        }
        if source.isWithoutRowID != target.isWithoutRowID {
            changes.append(target.isWithoutRowID ? "WITHOUT ROWID on" : "WITHOUT ROWID off")
        }
        guard !changes.isEmpty else { return }
        throw MigrationError(
            .unsupportedChange,
            "version \(version) changes \(target.name)'s " + changes.joined(separator: ", ")
                + ", which a plan does not infer",
            entity: target.name, version: version,
            remedy:
                "keep the key as it was; to move it, create a new entity with the new key and copy the rows in a custom stage's didMigrate"
        )
    }

    private static func describe(key: [String]?) -> String {
        key.map { "(" + $0.joined(separator: ", ") + ")" } ?? "\"\(Schema.primaryKeyColumn)\""
    }

    /// Refuses a change of how a `Date` is stored, or of the type of a date stored as text or
    /// Julian days: no conversion is inferred for them.
    /// - Throws: `MigrationError` (`unsupportedChange`) naming the entity and property.
    static func checkDateStorage(
        from old: Schema.Attribute, to new: Schema.Attribute, entity: String, version: Schema.Version
    ) throws {
        guard old.dateStorage != new.dateStorage && (old.valueType == .date || new.valueType == .date) else { return }
        func describe(_ attribute: Schema.Attribute) -> String {
            attribute.valueType == .date
                ? "a date stored as \((attribute.dateStorage ?? .secondsSince1970).rawValue)"
                : "\(attribute.valueType.rawValue) values"
        }
        throw MigrationError(
            .unsupportedChange,
            "a lightweight stage cannot change '\(entity).\(new.property)' from \(describe(old)) to \(describe(new))",
            entity: entity, property: new.property, version: version,
            remedy:
                "add a new attribute with the new storage, fill it from the old one in a custom stage's didMigrate (the data API reads and writes each storage), then remove the old one"
        )
    }
}
