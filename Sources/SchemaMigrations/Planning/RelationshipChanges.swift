/// The relationship changes a stage refuses, found by pairing each target relationship with the
/// one it continues (same name, or its `originalName`).
enum RelationshipChanges {
    static func check(source: Schema.Entity, target: Schema.Entity, entityRenames: [String: String], version: Schema.Version) throws {
        let matches = try NameMatching.match(
            targets: target.relationships, sources: source.relationships, name: \.name, originalName: \.originalName,
            describe: { "relationship '\(target.name).\($0)'" }, version: version, entity: target.name)
        for match in matches {
            guard let old = match.source else { continue }
            let new = match.target
            let oldDestination = entityRenames[old.destination] ?? old.destination
            if oldDestination != new.destination {
                throw MigrationError(.unsupportedChange,
                                     "relationship '\(target.name).\(new.name)' changes its destination from '\(old.destination)' to '\(new.destination)'; the rows it links cannot follow",
                                     entity: target.name, property: new.name, version: version,
                                     remedy: "add a new relationship to \(new.destination), link the rows in a custom stage's didMigrate, and remove '\(old.name)' in a later version")
            }
            if old.isToMany != new.isToMany {
                throw MigrationError(.unsupportedChange,
                                     "relationship '\(target.name).\(new.name)' changes from \(old.isToMany ? "to-many" : "to-one") to \(new.isToMany ? "to-many" : "to-one"); the links are stored on the other table then",
                                     entity: target.name, property: new.name, version: version,
                                     remedy: "add the new relationship beside the old one, copy the links in a custom stage's didMigrate, and remove the old one in a later version")
            }
        }
    }
}
