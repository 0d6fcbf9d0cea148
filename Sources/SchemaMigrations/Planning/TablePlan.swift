/// The changes to one table between two versions: cheap `ALTER` steps, or one rebuild.
struct TablePlan {
    var checks: [DataCheck] = []
    var finalizingChecks: [DataCheck] = []
    var dropIndexes: [StepAction] = []
    /// Column renames, ordered so SQLite accepts each (temporary names for swaps, chains, case-only
    /// renames and names a dropped column frees). They run before any rebuild of the stage, so that
    /// SQLite rewrites every reference (CHECKs, indexes, views, triggers) and rebuilds see final names.
    var renames: [StepAction] = []
    var changes: [StepAction] = []
    var createIndexes: [StepAction] = []
    var finalizingRebuild: TableRebuild?

    /// - Parameter entityRenames: source entity name → target entity name, for the entities this stage renames
    ///   (a reference to a renamed table is not a change: SQLite's RENAME TABLE rewrites it).
    /// - Parameter declaredIndexNames: every index name the target version declares (lower-cased).
    init(
        source: Schema.Entity, target: Schema.Entity, kind: StageKind, version: Schema.Version,
        capabilities: SQLiteCapabilities,
        entityRenames: [String: String] = [:], declaredIndexNames: Set<String> = [],
        columnRenames: [String: [String: String]] = [:]
    ) throws {
        let table = target.name
        let matches = try TablePlan.attributeMatches(source: source, target: target, version: version)

        // Column by column: what can be ALTERed, what needs the rebuild, what the data must allow.
        var columns = ColumnComparison(
            sourceTable: source.name, entity: table, kind: kind, version: version, entityRenames: entityRenames)
        if source.hashModifier != target.hashModifier {
            columns.rebuildReasons.append("the entity's hashModifier changed")
        }
        if source.isStrict != target.isStrict {
            columns.rebuildReasons.append(target.isStrict ? "STRICT on" : "STRICT off")
        }
        let changesKeyConflict =
            Schema.ConflictResolution.meaning(source.primaryKeyOnConflict)
            != Schema.ConflictResolution.meaning(target.primaryKeyOnConflict)
        if changesKeyConflict {
            columns.rebuildReasons.append(
                "primary key: " + TablePlan.describe(source.primaryKeyOnConflict) + " to "
                    + TablePlan.describe(target.primaryKeyOnConflict))
        }
        for match in matches {
            if let old = match.source {
                try columns.compare(old, to: match.target)
            } else {
                columns.add(match.target)
            }
        }
        checks = columns.checks

        let kept = Set(matches.compactMap { $0.source?.name })
        var dropped = source.attributes.map(\.name).filter { !kept.contains($0) }
        // Renames are a permutation; a dropped column whose name a rename takes moves aside first.
        let order = RenameOrder(
            columns.renamePairs, dropped: dropped, declared: (source.attributes + target.attributes).map(\.name))
        renames = order.renames.map { .renameColumn(table: table, from: $0.from, to: $0.to) }
        dropped = dropped.map { order.droppedMoved[$0] ?? $0 }
        let droppedKeys = source.attributes.filter { !kept.contains($0.name) && $0.references != nil }.map(\.name)
        try TablePlan.checkKey(source: source, target: target, renamedTo: columns.renamedTo, version: version)
        if !dropped.isEmpty && (!capabilities.dropColumn || !droppedKeys.isEmpty || !target.hasImplicitID) {
            // SQLite's DROP COLUMN refuses a column in a foreign key or the primary key.
            columns.rebuildReasons.append("drop " + dropped.joined(separator: ", "))
        }

        // Index names are the whole database's: those the version gives other tables' indexes.
        let claimedElsewhere = declaredIndexNames.subtracting(
            target.indexes.map { $0.resolvedName(table: table).sqlFolded })
        let indexes = IndexComparison(
            source: source, target: target, renamedTo: columns.renamedTo, claimedElsewhere: claimedElsewhere)
        checks += indexes.uniquenessChecks(nullsBecome: columns.nullsBecome, collationBecomes: columns.collationBecomes)
        // Index drops run before the renames: name the index by its source columns, as the live table has it.
        dropIndexes = indexes.retired.map { .dropIndex(table: source.name, index: $0.declared) }
        columns.rebuildReasons += indexes.renamed.map { "index \($0.renamed.termsDescription) named \($0.newName)" }

        let constraints = ConstraintComparison(
            source: source, target: target, renamedTo: columns.renamedTo, entityRenames: entityRenames,
            columnRenames: columnRenames)
        checks += constraints.uniquenessChecks(collationBecomes: columns.collationBecomes)
        columns.rebuildReasons += constraints.rebuildReasons

        finalizingRebuild = columns.finalizingRebuild(target: target)
        finalizingChecks = columns.finalizingChecks

        if capabilities.rebuildsForAddedIndexes {
            if !indexes.added.isEmpty {
                columns.rebuildReasons.append("its new indexes are built online, in the rebuilt table")
            }
        }
        if columns.rebuildReasons.isEmpty {
            // Cheap path: O(1) schema changes, plus DROP COLUMN (which rewrites rows but not indexes).
            changes = dropped.map { .dropColumn(table: table, column: $0) } + columns.adds
            createIndexes = indexes.added.map { .createIndex(table: table, index: $0) }
        } else {
            var reasons = columns.renamePairs.map { "renamed \($0.from) to \($0.to) first" } + columns.rebuildReasons
            if !dropped.isEmpty { reasons.append("drop " + dropped.joined(separator: ", ")) }
            reasons += indexes.rebuildReasons
            // The retired indexes go with the old table; dropping them first would only cost, but
            // for one whose name the version gives an index of another table, which may be made
            // before this table is rebuilt (index names are the whole database's). One dropped
            // first is gone when the rebuild runs: the rebuild must not retire another live index
            // of its columns in its stead (the application's own, under its own name).
            let sourceName = source.name
            let retiring = indexes.retired + indexes.renamed.map { ($0.declared, $0.renamed) }
            let droppedFirst = retiring.filter {
                claimedElsewhere.contains($0.declared.resolvedName(table: sourceName).sqlFolded)
            }
            let droppedFirstNames = Set(droppedFirst.map { $0.declared.resolvedName(table: sourceName).sqlFolded })
            var rebuild = TableRebuild(
                table: table, sourceTable: source.name, target: target, columns: columns.columns,
                nullableColumns: columns.deferredNotNull, droppedColumns: dropped,
                retiredIndexes: retiring.filter {
                    !droppedFirstNames.contains($0.declared.resolvedName(table: sourceName).sqlFolded)
                }.map { ($0.renamed, $0.declared.resolvedName(table: sourceName)) },
                reasons: TablePlan.unique(reasons))
            rebuild.changesStrict = source.isStrict != target.isStrict
            rebuild.changesKeyConflict = changesKeyConflict
            rebuild.replacedByGenerated = columns.replacedByGenerated
            // A renamed index is made again under its new name, as an added one is: beside an
            // application's index of the same columns, which would otherwise stand for it.
            rebuild.addedIndexes = Set(indexes.added.map(\.structure) + indexes.renamed.map(\.renamed.structure))
            rebuild.removedConstraints = constraints.removed
            rebuild.addedConstraints = constraints.added
            changes = [.rebuild(rebuild)]
            dropIndexes = droppedFirst.map { .dropIndex(table: sourceName, index: $0.declared) }
        }
    }

    /// `ON CONFLICT REPLACE`, or `no conflict clause`.
    static func describe(_ resolution: Schema.ConflictResolution?) -> String {
        resolution.map(\.clause) ?? "no conflict clause"
    }

    static func describe(_ generated: Schema.GeneratedColumn?) -> String {
        generated.map(\.clause) ?? "not generated"
    }

    static func sameGenerated(_ first: Schema.GeneratedColumn?, _ second: Schema.GeneratedColumn?) -> Bool {
        guard let first, let second else { return first == nil && second == nil }
        return first.isSame(as: second)
    }

    static func describe(_ key: Schema.ForeignKey?) -> String {
        guard let key else { return "no foreign key" }
        // Every clause the key writes, so a change of ON UPDATE or DEFERRABLE alone reads as one.
        var text = "REFERENCES \(key.table)" + (key.column.map { "(\($0))" } ?? "") + " ON DELETE \(key.onDelete)"
        if let onUpdate = key.onUpdate { text += " ON UPDATE \(onUpdate)" }
        if key.isDeferred == true { text += " DEFERRABLE INITIALLY DEFERRED" }
        return text
    }

    private static func unique(_ reasons: [String]) -> [String] {
        var seen = Set<String>()
        return reasons.filter { seen.insert($0).inserted }
    }
}

extension TablePlan {
    /// The target's attributes, each with the source attribute it continues (nil for a new one).
    /// Attributes continue by property, never by column: `column:` mappings may move, swap or be
    /// permuted between versions while each property keeps its values.
    /// - Throws: `MigrationError` for an `originalName` that names nothing or is claimed twice.
    static func attributeMatches(
        source: Schema.Entity, target: Schema.Entity, version: Schema.Version
    ) throws -> [NameMatching.Match<Schema.Attribute>] {
        let originalProperties = TablePlan.originalProperties(source: source, target: target)
        return try NameMatching.match(
            targets: target.attributes, sources: source.attributes, name: { $0.property },
            originalName: { originalProperties[$0.name] },
            describe: { "property '\(target.name).\($0)'" }, version: version, entity: target.name)
    }

    /// Each entity's column renames in a stage, source column → target column, keyed by the
    /// target entity's folded name: what a foreign key onto that entity reads in the target's
    /// names. An entity whose attributes do not match has none here; its own plan says why.
    static func columnRenames(
        matches: [NameMatching.Match<Schema.Entity>], version: Schema.Version
    ) -> [String: [String: String]] {
        var renames: [String: [String: String]] = [:]
        for match in matches {
            guard let source = match.source,
                let attributes = try? attributeMatches(source: source, target: match.target, version: version)
            else { continue }
            for attribute in attributes {
                if let old = attribute.source, old.name != attribute.target.name {
                    renames[match.target.name.sqlFolded, default: [:]][old.name.sqlFolded] = attribute.target.name
                }
            }
        }
        return renames
    }
}
