/// Turns a declared schema into the schema as stored: each relationship becomes a foreign-key
/// column or a join table, and inverses are resolved (inferred when unambiguous, checked when given).
///
/// The result has every entity's relationships still listed (for the planner's checks), plus
/// `references` on the foreign-key columns and one extra entity per many-to-many join table.
///
/// Which side of a pair holds the storage (the one-to-one key, the join table's name) is decided
/// when the pair first appears and then kept: a later version inherits the previous version's
/// choice through `originalName`, so renaming an entity or a relationship renames the storage and
/// never moves it (which would start an empty join table or key column and lose every link).
enum StorageLayout {
    /// Which relationship of each pair holds its storage, as `"Entity.relationship"` names of one version.
    struct Decisions: Sendable, Equatable {
        var owners: Set<String> = []
    }
    /// A relationship and its resolved inverse.
    struct Link {
        var entity: Schema.Entity
        var relationship: Schema.Relationship
        var inverse: Schema.Relationship?
    }

    static func expand(_ schema: Schema) throws -> Schema {
        try expand(schema, after: nil).schema
    }

    /// Expands `schema`, keeping the storage decisions the previous version made.
    /// - Parameter previous: the decisions of the version before, or nil for the first one.
    /// - Returns: the stored layout and this version's decisions, for the version after.
    static func expand(_ schema: Schema, after previous: Decisions?) throws -> (schema: Schema, decisions: Decisions) {
        let links = try resolveInverses(schema)
        var decisions = Decisions()
        func owns(_ link: Link, _ inverse: Schema.Relationship, orEqual: Bool) -> Bool {
            let owner = ownsStorage(link, inverse, in: schema, previous: previous, orEqual: orEqual)
            if owner { decisions.owners.insert("\(link.entity.name).\(link.relationship.name)") }
            return owner
        }
        var expanded = schema
        var joinTables: [Schema.Entity] = []
        for link in links {
            let entity = link.entity
            let relationship = link.relationship
            switch (relationship.isToMany, link.inverse) {
            case (false, let inverse?) where !inverse.isToMany:
                // One-to-one: one side holds the key. The side the other cascades to is the dependent one.
                let holdsKey: Bool
                if inverse.deleteRule == .cascade && relationship.deleteRule != .cascade {
                    holdsKey = true
                } else if relationship.deleteRule == .cascade && inverse.deleteRule != .cascade {
                    holdsKey = false
                } else {
                    holdsKey = owns(link, inverse, orEqual: false)
                }
                if holdsKey {
                    decisions.owners.insert("\(entity.name).\(relationship.name)")
                    try addForeignKey(
                        named: relationship.name, originalName: relationship.originalName, on: entity.name,
                        to: relationship.destination,
                        onDelete: inverse.deleteRule, optional: relationship.isOptional, unique: true,
                        hashModifier: relationship.hashModifier, relationship: relationship.name, in: &expanded)
                }
            case (false, let inverse):
                // To-one, with a to-many inverse or none: the key is here; deleting the parent does what its side says.
                let rule = inverse?.deleteRule ?? (relationship.isOptional ? .nullify : .noAction)
                try addForeignKey(
                    named: relationship.name, originalName: relationship.originalName, on: entity.name,
                    to: relationship.destination,
                    onDelete: rule, optional: relationship.isOptional, unique: false,
                    hashModifier: relationship.hashModifier, relationship: relationship.name, in: &expanded)
            case (true, nil):
                // A to-many with no inverse: the key is a hidden column on the destination.
                let column = "\(entity.name)_\(relationship.name)"
                let original = "\(entity.originalName ?? entity.name)_\(relationship.originalName ?? relationship.name)"
                try addForeignKey(
                    named: column, originalName: original == column ? nil : original, on: relationship.destination,
                    to: entity.name,
                    onDelete: relationship.deleteRule, optional: true, unique: false,
                    hashModifier: relationship.hashModifier, relationship: "\(entity.name).\(relationship.name)",
                    in: &expanded)
            case (true, let inverse?) where inverse.isToMany:
                if owns(link, inverse, orEqual: true) {
                    joinTables.append(
                        joinTable(entity: entity, relationship: relationship, inverse: inverse, schema: schema))
                }
            case (true, _):
                break  // the inverse to-one holds the key
            }
        }
        expanded.entities += joinTables
        try expanded.validate()
        return (expanded, decisions)
    }

    /// Expands every version of a plan, oldest first, each keeping the storage decisions of the one before.
    static func expand(versions: [Schema]) throws -> [Schema] {
        var previous: Decisions?
        return try versions.map { schema in
            let (expanded, decisions) = try expand(schema, after: previous)
            previous = decisions
            return expanded
        }
    }

    /// Whether `link`'s relationship, rather than its inverse, holds the pair's storage: what the
    /// previous version decided when it had the pair (found through `originalName`), else the side
    /// whose `Entity.relationship` sorts first under the names the pair had in the previous version.
    private static func ownsStorage(
        _ link: Link, _ inverse: Schema.Relationship, in schema: Schema, previous: Decisions?, orEqual: Bool
    ) -> Bool {
        let entity = link.entity
        let relationship = link.relationship
        let destination = schema.entity(named: relationship.destination)
        func names(_ entityName: String, _ entityOriginal: String?, _ name: String, _ original: String?) -> [String] {
            [entityOriginal ?? entityName, entityName].flatMap { e in [original ?? name, name].map { "\(e).\($0)" } }
        }
        if let previous {
            // The names through originalName first, on both sides (in a swap, a current name is
            // the other entity's previous one); then the current names, for an originalName left
            // in place from an older version.
            let here = names(entity.name, entity.originalName, relationship.name, relationship.originalName)
            let there = names(relationship.destination, destination?.originalName, inverse.name, inverse.originalName)
            for (mine, theirs) in zip(here, there) {
                if previous.owners.contains(mine) { return true }
                if previous.owners.contains(theirs) { return false }
            }
        }
        let here = (entity.originalName ?? entity.name, relationship.originalName ?? relationship.name)
        let there = (destination?.originalName ?? relationship.destination, inverse.originalName ?? inverse.name)
        return here < there || (orEqual && here == there)
    }

    /// `"trip_id" INTEGER REFERENCES "Trip"("id") ON DELETE CASCADE`, plus its index.
    private static func addForeignKey(
        named name: String, originalName: String?, on table: String, to destination: String,
        onDelete rule: Schema.Relationship.DeleteRule, optional: Bool, unique: Bool,
        hashModifier: String?, relationship: String, in schema: inout Schema
    ) throws {
        guard let index = schema.entities.firstIndex(where: { $0.name == table }) else { return }
        if rule == .nullify && !optional {
            throw MigrationError(
                .invalidSchema,
                "deleting a '\(destination)' would set '\(table).\(relationship)' to nil, but it is not optional",
                entity: table, property: relationship, version: schema.version,
                remedy: "make '\(relationship)' optional, or give the inverse the delete rule .cascade or .deny")
        }
        let column = name + "_id"
        schema.entities[index].attributes.append(
            Schema.Attribute(
                name: column, valueType: .integer, isOptional: optional, defaultValue: nil,
                originalName: originalName.map { $0 + "_id" }, hashModifier: hashModifier, swiftType: destination,
                references: Schema.ForeignKey(table: destination, onDelete: rule.onDeleteSQL)))
        schema.entities[index].indexes.append(Schema.Index([column], isUnique: unique))
    }

    /// `"Snippet_tags" ("Snippet_id", "tags_id")`, both cascading, primary key over both, reverse index.
    private static func joinTable(
        entity: Schema.Entity, relationship: Schema.Relationship, inverse: Schema.Relationship, schema: Schema
    ) -> Schema.Entity {
        let name = "\(entity.name)_\(relationship.name)"
        let original = "\(entity.originalName ?? entity.name)_\(relationship.originalName ?? relationship.name)"
        let owner = "\(entity.name)_id"
        let other = "\(relationship.name)_id"
        let attributes = [
            Schema.Attribute(
                name: owner, valueType: .integer, originalName: entity.originalName.map { $0 + "_id" },
                swiftType: entity.name,
                references: Schema.ForeignKey(table: entity.name, onDelete: "CASCADE")),
            Schema.Attribute(
                name: other, valueType: .integer, originalName: relationship.originalName.map { $0 + "_id" },
                swiftType: relationship.destination,
                references: Schema.ForeignKey(table: relationship.destination, onDelete: "CASCADE")),
        ]
        return Schema.Entity(
            name: name, originalName: original == name ? nil : original,
            hashModifier: [relationship.hashModifier, inverse.hashModifier].compactMap { $0 }.joined(separator: "|")
                .nilIfEmpty,
            attributes: attributes, indexes: [Schema.Index([other, owner], name: name + "_reverse")],
            primaryKey: [owner, other], isJoinTable: true)
    }

    /// Pairs every relationship with its inverse, checking declared inverses and inferring missing ones.
    static func resolveInverses(_ schema: Schema) throws -> [Link] {
        func fail(_ entity: String, _ property: String, _ message: String, _ remedy: String) -> MigrationError {
            MigrationError(
                .invalidSchema, message, entity: entity, property: property, version: schema.version, remedy: remedy)
        }
        // Explicit inverses, both directions.
        var inverseOf: [String: String] = [:]  // "Entity.relationship" -> "Destination.inverse"
        for entity in schema.entities {
            for relationship in entity.relationships {
                let here = "\(entity.name).\(relationship.name)"
                guard let destination = schema.entity(named: relationship.destination) else {
                    throw fail(
                        entity.name, relationship.name,
                        "relationship '\(here)' points at entity '\(relationship.destination)', which version \(schema.version) does not declare",
                        "add \(relationship.destination) to the version's models, or remove the relationship")
                }
                guard let inverseName = relationship.inverse else { continue }
                guard let inverse = destination.relationship(named: inverseName) else {
                    throw fail(
                        entity.name, relationship.name,
                        "the inverse of '\(here)' is '\(destination.name).\(inverseName)', which is not a relationship of '\(destination.name)'",
                        "name a relationship of \(destination.name) that points back at \(entity.name)")
                }
                guard inverse.destination == entity.name else {
                    throw fail(
                        entity.name, relationship.name,
                        "the inverse of '\(here)' is '\(destination.name).\(inverseName)', which points at '\(inverse.destination)', not '\(entity.name)'",
                        "name a relationship of \(destination.name) that points back at \(entity.name)")
                }
                let there = "\(destination.name).\(inverseName)"
                if let other = inverseOf.first(where: { $0.value == there && $0.key != here && $0.key != there })?.key {
                    throw fail(
                        entity.name, relationship.name,
                        "'\(other)' and '\(here)' both claim '\(there)' as their inverse",
                        "a relationship has one inverse: remove inverse: from one of them")
                }
                if let existing = inverseOf[there], existing != here {
                    throw fail(
                        entity.name, relationship.name,
                        "'\(here)' names '\(there)' as its inverse, but '\(there)' names '\(existing)'",
                        "make the two declarations agree")
                }
                inverseOf[here] = there
                inverseOf[there] = here
            }
        }
        // Inferred inverses: exactly one unclaimed relationship of the destination points back.
        var links: [Link] = []
        for entity in schema.entities {
            for relationship in entity.relationships {
                let here = "\(entity.name).\(relationship.name)"
                let destination = schema.entity(named: relationship.destination)!
                var inverse: Schema.Relationship?
                if let there = inverseOf[here] {
                    inverse = destination.relationship(named: String(there.dropFirst(destination.name.count + 1)))
                } else {
                    let candidates = destination.relationships.filter { candidate in
                        let key = "\(destination.name).\(candidate.name)"
                        return candidate.destination == entity.name && key != here && inverseOf[key] == nil
                    }
                    if candidates.count > 1 {
                        throw fail(
                            entity.name, relationship.name,
                            "the inverse of '\(here)' is ambiguous: "
                                + candidates.map { "'\(destination.name).\($0.name)'" }.joined(separator: " and ")
                                + " both point back",
                            "declare it: @Relationship(inverse: \"\(candidates[0].name)\")")
                    }
                    inverse = candidates.first
                    if let inverse {
                        inverseOf[here] = "\(destination.name).\(inverse.name)"
                        inverseOf["\(destination.name).\(inverse.name)"] = here
                    }
                }
                links.append(Link(entity: entity, relationship: relationship, inverse: inverse))
            }
        }
        return links
    }
}

extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
