/// The relationship changes a stage refuses, found by pairing each target relationship with the
/// one it continues (same name, or its `originalName`).
enum RelationshipChanges {
    /// - Parameters:
    ///   - sourceSchema, targetSchema: the stored layouts of both versions, to see where a link is kept.
    static func check(
        source: Schema.Entity, target: Schema.Entity, entityRenames: [String: String], version: Schema.Version,
        sourceSchema: Schema, targetSchema: Schema
    ) throws {
        let matches = try NameMatching.match(
            targets: target.relationships, sources: source.relationships, name: { $0.name },
            originalName: { $0.originalName },
            describe: { "relationship '\(target.name).\($0)'" }, version: version, entity: target.name)
        for match in matches {
            guard let old = match.source else { continue }
            let new = match.target
            let oldDestination = entityRenames[old.destination] ?? old.destination
            if oldDestination != new.destination {
                throw MigrationError(
                    .unsupportedChange,
                    "relationship '\(target.name).\(new.name)' changes its destination from '\(old.destination)' to '\(new.destination)'; the rows it links cannot follow",
                    entity: target.name, property: new.name, version: version,
                    remedy:
                        "add a new relationship to \(new.destination), link the rows in a custom stage's didMigrate, and remove '\(old.name)' in a later version"
                )
            }
            if try old.isToMany != new.isToMany
                && !keepsItsColumn(
                    new, of: target, sourceSchema: sourceSchema, targetSchema: targetSchema,
                    entityRenames: entityRenames)
            {
                throw MigrationError(
                    .unsupportedChange,
                    "relationship '\(target.name).\(new.name)' changes from \(old.isToMany ? "to-many" : "to-one") to \(new.isToMany ? "to-many" : "to-one"); the links are stored on the other table then",
                    entity: target.name, property: new.name, version: version,
                    remedy:
                        "add the new relationship beside the old one, copy the links in a custom stage's didMigrate, and remove the old one in a later version"
                )
            }
        }
    }

    /// True when a cardinality change leaves the links where they are: a one-to-many becoming a
    /// one-to-one (or back) whose to-one inverse keeps its foreign-key column. Only the column's
    /// uniqueness changes then, and the usual duplicate check names any row with more than one link.
    private static func keepsItsColumn(
        _ relationship: Schema.Relationship, of entity: Schema.Entity, sourceSchema: Schema, targetSchema: Schema,
        entityRenames: [String: String]
    ) throws -> Bool {
        guard
            let link = try StorageLayout.resolveInverses(targetSchema).first(where: {
                $0.entity.name == entity.name && $0.relationship.name == relationship.name
            }),
            let inverse = link.inverse, !inverse.isToMany
        else { return false }
        let column = inverse.name + "_id"
        guard let holder = targetSchema.entity(named: relationship.destination),
            holder.attribute(named: column)?.references?.table == entity.name
        else { return false }
        let sourceHolderName = entityRenames.first { $0.value == holder.name }?.key ?? holder.name
        let sourceEntityName = entityRenames.first { $0.value == entity.name }?.key ?? entity.name
        return sourceSchema.entity(named: sourceHolderName)?.attribute(named: column)?.references?.table
            == sourceEntityName
    }
}
