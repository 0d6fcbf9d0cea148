/// Diffs two consecutive versions into the steps of one stage.
///
/// A pure function of (source schema, target schema, stage kind): it never sees Swift types nor
/// the database. Every change to one table coalesces into at most one rebuild; where SQLite's
/// `ALTER TABLE` and index statements reach the same result, they are used instead. Anything a
/// stage cannot do safely is refused here, before any write, naming the entity and property.
struct Planner {
    var capabilities = SQLiteCapabilities.current

    /// Plans the stage from `source` to `target`.
    /// - Throws: `MigrationError` with code `unsupportedChange`.
    func plan(from source: Schema, to target: Schema, kind: StageKind) throws -> PlannedStage {
        var stage = PlannedStage(source: source, target: target, kind: kind)
        let matches = try NameMatching.match(
            targets: target.entities, sources: source.entities, name: { $0.name }, originalName: { $0.originalName },
            describe: { "entity '\($0)'" }, version: target.version, entity: nil)

        var dropIndexes: [StepAction] = []
        var columnRenames: [StepAction] = []
        var tableChanges: [StepAction] = []
        var creates: [StepAction] = []
        var createIndexes: [StepAction] = []

        var entityRenames: [String: String] = [:]
        for match in matches { if let source = match.source, source.name != match.target.name { entityRenames[source.name] = match.target.name } }
        let matchedSources = Set(matches.compactMap { $0.source?.name })
        // Renames are a permutation (swaps, case-only renames, a dropped table's name taken): see RenameOrder.
        let tableOrder = RenameOrder(entityRenames.map { ($0.key, $0.value) }.sorted { $0.0 < $1.0 },
                                     dropped: source.entities.filter { !matchedSources.contains($0.name) }.map(\.name))
        let renames = tableOrder.renames.map { StepAction.renameTable(from: $0.from, to: $0.to) }
        let drops = source.entities.filter { !matchedSources.contains($0.name) }.map { StepAction.dropTable(tableOrder.droppedMoved[$0.name] ?? $0.name) }

        for match in matches {
            guard let sourceEntity = match.source else {
                creates.append(.createTable(match.target))
                continue
            }
            try RelationshipChanges.check(source: sourceEntity, target: match.target, entityRenames: entityRenames, version: target.version,
                                          sourceSchema: source, targetSchema: target)
            let table = try TablePlan(source: sourceEntity, target: match.target, kind: kind, version: target.version,
                                      capabilities: capabilities, entityRenames: entityRenames)
            stage.checks += table.checks
            stage.finalizingChecks += table.finalizingChecks
            dropIndexes += table.dropIndexes
            columnRenames += table.renames
            tableChanges += table.changes
            createIndexes += table.createIndexes
            if let finalizing = table.finalizingRebuild { stage.finalizingSteps.append(MigrationStep(action: .rebuild(finalizing))) }
        }
        // Every rename runs before anything is rebuilt or dropped, with the whole schema in place, so
        // SQLite's RENAME rewrites every reference (foreign keys, CHECKs, indexes, views, triggers).
        stage.steps = (dropIndexes + renames + columnRenames + drops + tableChanges + creates + createIndexes).map { MigrationStep(action: $0) }
        return stage
    }
}

/// Pairs each target item with the source item it continues: its `originalName` first (when the
/// previous version has it), then the same name, then the same name in another case (SQLite
/// names ignore case).
enum NameMatching {
    struct Match<Item> {
        var target: Item
        var source: Item?
    }

    static func match<Item>(targets: [Item], sources: [Item], name: (Item) -> String, originalName: (Item) -> String?,
                            describe: (String) -> String, version: Schema.Version, entity: String?) throws -> [Match<Item>] {
        // Names and positions, not items: an item is a large struct, copying it into a dictionary costs.
        let sourceNames = sources.map(name)
        var byName: [String: Int] = [:]
        byName.reserveCapacity(sources.count)
        for (position, sourceName) in sourceNames.enumerated() where byName[sourceName] == nil { byName[sourceName] = position }
        // Built only if some target needs it: lowercasing every name is not free.
        var byLowercasedName: [String: Int]?
        var claimedBy: [String: String] = [:]
        claimedBy.reserveCapacity(targets.count)
        var matches: [Match<Item>] = []
        matches.reserveCapacity(targets.count)
        for target in targets {
            let targetName = name(target)
            var source: Int?
            if let original = originalName(target), let found = byName[original] {
                // originalName wins over a same-named item of the previous version: that one is
                // renamed too, or dropped (a swap, `email` taking `legacyEmail`'s values).
                source = found
            } else if let found = byName[targetName] {
                source = found
            } else if let original = originalName(target) {
                throw MigrationError(.unsupportedChange,
                                     "\(describe(targetName)) says it was renamed from '\(original)', but version \(version) is preceded by no \(describe(original))",
                                     entity: entity ?? targetName, property: entity == nil ? nil : targetName, version: version,
                                     remedy: "correct originalName to the name in the previous version, or remove it to add \(describe(targetName)) as new")
            } else {
                if byLowercasedName == nil {
                    var lowercased: [String: Int] = [:]
                    for (position, sourceName) in sourceNames.enumerated().reversed() { lowercased[sourceName.sqlFolded] = position }
                    byLowercasedName = lowercased
                }
                source = byLowercasedName![targetName.sqlFolded]
            }
            if let source {
                let sourceName = sourceNames[source]
                if let other = claimedBy[sourceName] {
                    throw MigrationError(.unsupportedChange,
                                         "\(describe(other)) and \(describe(targetName)) both continue \(describe(sourceName)) of the previous version",
                                         entity: entity ?? targetName, property: entity == nil ? nil : targetName, version: version,
                                         remedy: "only one of them can carry '\(sourceName)'s data: remove originalName from the other, or copy the values in a custom stage")
                }
                claimedBy[sourceName] = targetName
            }
            matches.append(Match(target: target, source: source.map { sources[$0] }))
        }
        return matches
    }
}
