/// The way back over one declared stage, as the planner's own diff sees it: the newer version's
/// stored schema as the source and the older one's as the target, with every rename the stage
/// made turned around.
///
/// The stage's forward pairing (entities, properties and relationships matched through
/// `originalName`, same names, then names that differ in case only) is computed once, as the
/// planner computes it, and written into the older schema as `originalName`s naming the newer
/// names; the newer schema loses its own. ``Planner/plan(from:to:kind:)`` then diffs newer →
/// older like any stage: renames go back, what the newer version added is dropped, what it
/// dropped comes back with its declared default, and type and optionality changes go back where
/// the conversion is exact (and are refused, as forward, where it is not).
struct StageReversal: Sendable {
    /// The newer version's stored schema, with no `originalName`: the way back's source.
    var source: Schema
    /// The older version's stored schema, each `originalName` naming what it became in the newer
    /// one: the way back's target.
    var target: Schema
    /// Newer table name → older table name, for every table the stage kept.
    var tables: [String: String] = [:]
    /// Newer table name → (newer column → older column), for every column the stage kept.
    var columns: [String: [String: String]] = [:]
    /// The tables the newer version added (by their newer names): the way back drops them.
    var droppedTables: [String] = []
    /// Newer table name → the columns the newer version added to it: the way back drops them.
    var droppedColumns: [String: [String]] = [:]

    /// Turns the stage from `older` to `newer` (stored layouts) around.
    /// - Throws: `MigrationError` when the stage's pairing itself is refused (an `originalName`
    ///   naming nothing, claimed twice): the stage could not have run forward either.
    init(older: Schema, newer: Schema) throws {
        let entityMatches = try NameMatching.match(
            targets: newer.entities, sources: older.entities, name: { $0.name }, originalName: { $0.originalName },
            describe: { "entity '\($0)'" }, version: newer.version, entity: nil)
        var newerNameOf: [String: String] = [:]  // older entity name → newer entity name
        var attributePairs: [String: [String: Schema.Attribute]] = [:]  // older entity → older attribute → newer
        var relationshipPairs: [String: [String: String]] = [:]  // older entity → older relationship → newer name
        for match in entityMatches {
            guard let old = match.source else {
                droppedTables.append(match.target.name)
                continue
            }
            let new = match.target
            newerNameOf[old.name] = new.name
            tables[new.name] = old.name
            var kept: [String: String] = [:]
            var added: [String] = []
            for attribute in try TablePlan.attributeMatches(source: old, target: new, version: newer.version) {
                if let previous = attribute.source {
                    kept[attribute.target.name] = previous.name
                    attributePairs[old.name, default: [:]][previous.name] = attribute.target
                } else {
                    added.append(attribute.target.name)
                }
            }
            columns[new.name] = kept
            if !added.isEmpty { droppedColumns[new.name] = added }
            let relationships = try NameMatching.match(
                targets: new.relationships, sources: old.relationships, name: { $0.name },
                originalName: { $0.originalName }, describe: { "relationship '\(new.name).\($0)'" },
                version: newer.version, entity: new.name)
            for relationship in relationships {
                guard let previous = relationship.source else { continue }
                relationshipPairs[old.name, default: [:]][previous.name] = relationship.target.name
            }
        }

        var source = newer
        for index in source.entities.indices {
            source.entities[index].originalName = nil
            for position in source.entities[index].attributes.indices {
                source.entities[index].attributes[position].originalName = nil
            }
            for position in source.entities[index].relationships.indices {
                source.entities[index].relationships[position].originalName = nil
            }
        }
        var target = older
        for index in target.entities.indices {
            let name = target.entities[index].name
            let newerName = newerNameOf[name]
            target.entities[index].originalName = newerName.flatMap { $0 == name ? nil : $0 }
            for position in target.entities[index].attributes.indices {
                let attribute = target.entities[index].attributes[position]
                let continued = attributePairs[name]?[attribute.name]
                target.entities[index].attributes[position].originalName = continued.flatMap {
                    $0.property == attribute.property ? nil : $0.property
                }
            }
            for position in target.entities[index].relationships.indices {
                let relationship = target.entities[index].relationships[position]
                let continued = relationshipPairs[name]?[relationship.name]
                target.entities[index].relationships[position].originalName = continued.flatMap {
                    $0 == relationship.name ? nil : $0
                }
            }
        }
        self.source = source
        self.target = target
    }
}

extension ResolvedPlan {
    /// The way back from `current` down to `target`: each declared stage between them taken back,
    /// newest first. A custom stage that declares no way back refuses the whole range here,
    /// before anything is written.
    /// - Throws: `MigrationError` (`unsupportedChange`) naming the first stage that cannot be taken
    ///   back, or the change the way back cannot make.
    func reversedStages(from current: Schema.Version, to target: Schema.Version, planner: Planner) throws
        -> [PlannedStage]
    {
        let range = stages.filter { $0.from >= target && $0.to <= current }.reversed()
        if let fixed = range.first(where: { !$0.isReversible }) {
            throw MigrationError(
                .unsupportedChange,
                "cannot take the database back from \(current) to \(target): the custom stage \(fixed.from) → \(fixed.to) declares no way back",
                version: fixed.to,
                remedy:
                    "declare it with .custom(fromVersion:toVersion:willMigrate:didMigrate:reverseWillMigrate:reverseDidMigrate:) (nil code when the inferred steps suffice), stop at \(fixed.to), or restore a backup taken at \(target)"
            )
        }
        return try range.map { declared in
            do {
                let reversal = try StageReversal(older: declared.source, newer: declared.target)
                var stage = try planner.plan(from: reversal.source, to: reversal.target, kind: declared.kind)
                stage.isReversal = true
                stage.reversal = reversal
                stage.willMigrate = declared.reverseWillMigrate
                stage.didMigrate = declared.reverseDidMigrate
                return stage
            } catch var error as MigrationError {
                error.message = "taking back the stage \(declared.from) → \(declared.to): " + error.message
                throw error
            }
        }
    }
}
