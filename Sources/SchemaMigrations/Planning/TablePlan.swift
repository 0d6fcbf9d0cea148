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
    init(source: Schema.Entity, target: Schema.Entity, kind: StageKind, version: Schema.Version, capabilities: SQLiteCapabilities,
         entityRenames: [String: String] = [:]) throws {
        let table = target.name
        let entity = target.name
        let continued = TablePlan.continuedColumns(source: source, target: target)
        let matches = try NameMatching.match(
            targets: target.attributes, sources: source.attributes, name: { $0.name }, originalName: { continued[$0.name] ?? $0.originalName },
            describe: { "property '\(entity).\($0)'" }, version: version, entity: entity)

        var rebuildReasons: [String] = []
        if source.hashModifier != target.hashModifier { rebuildReasons.append("the entity's hashModifier changed") }
        if source.isStrict != target.isStrict { rebuildReasons.append(target.isStrict ? "STRICT on" : "STRICT off") }
        var adds: [StepAction] = []
        var columns: [TableRebuild.Column] = []
        var deferredNotNull: Set<String> = []
        var deferredTypes: Set<String> = []  // a custom stage converts the values: the type changes after didMigrate
        var renamedTo: [String: String] = [:]  // source column -> target column
        var nullsBecome: [String: String] = [:]  // source column -> the default its NULLs take
        var renamePairs: [(from: String, to: String)] = []

        for match in matches {
            let attribute = match.target
            guard let old = match.source else {
                // A new column: a rebuild leaves it to its default (or NULL).
                if let defaultValue = attribute.defaultValue, SQLExpressionText.isNonConstantDefault(defaultValue) {
                    rebuildReasons.append("add \(attribute.name) with the default \(defaultValue) (SQLite's ADD COLUMN needs a constant default)")
                } else if attribute.isOptional || attribute.defaultValue != nil {
                    adds.append(.addColumn(table: table, attribute: attribute, forceNullable: false))
                } else if kind == .custom {
                    adds.append(.addColumn(table: table, attribute: attribute, forceNullable: true))
                    deferredNotNull.insert(attribute.name)
                } else {
                    checks.append(.tableIsEmpty(table: source.name, entity: entity, property: attribute.name))
                    rebuildReasons.append("add non-optional \(attribute.name) with no default (SQLite's ADD COLUMN needs a default for NOT NULL)")
                }
                columns.append(TableRebuild.Column(attribute: attribute, expression: nil))
                continue
            }
            renamedTo[old.name] = attribute.name
            try TablePlan.checkDateStorage(from: old, to: attribute, entity: entity, version: version)
            if old.name != attribute.name { renamePairs.append((old.name, attribute.name)) }
            // Renames run first: the rebuild reads the column under its new name.
            var column = TableRebuild.Column(attribute: attribute, expression: SQL.quoteIdentifier(attribute.name), sourceName: old.name)
            let quoted = SQL.quoteIdentifier(attribute.name)
            if old.valueType != attribute.valueType && kind == .custom && old.hashModifier != attribute.hashModifier
                && TypeConversion.expression(from: old.valueType, to: attribute.valueType, column: quoted) == nil {
                // A custom stage takes over the conversion: the old values are copied as they are
                // for didMigrate to transform; the column keeps its type (and affinity) until then.
                deferredTypes.insert(attribute.name)
                rebuildReasons.append("\(attribute.name): \(old.valueType.rawValue) to \(attribute.valueType.rawValue), values copied as they are for didMigrate to convert")
            } else if old.valueType != attribute.valueType {
                guard let converted = TypeConversion.expression(from: old.valueType, to: attribute.valueType, column: quoted) else {
                    let rename = old.name != attribute.name ? " while renaming it from '\(old.name)'" : ""
                    throw MigrationError(.unsupportedChange,
                                         "a lightweight stage cannot change '\(entity).\(attribute.name)' from \(old.valueType.rawValue) to \(attribute.valueType.rawValue)\(rename): there is no lossless conversion",
                                         entity: entity, property: attribute.name, version: version,
                                         remedy: "add a new attribute of the new type and fill it from the old one in a custom stage's didMigrate, then remove the old one"
                                            + (old.name != attribute.name ? "; or rename in one version and change the type in the next" : ""))
                }
                if let inexact = TypeConversion.inexact(from: old.valueType, to: attribute.valueType, column: SQL.quoteIdentifier(old.name)) {
                    checks.append(.exactConversion(table: source.name, condition: inexact, entity: entity, property: attribute.name,
                                                   change: "from \(old.valueType.rawValue) to \(attribute.valueType.rawValue)"))
                }
                column.expression = converted
                column.changesType = old.storageType != attribute.storageType
                rebuildReasons.append("\(attribute.name): \(old.valueType.rawValue) to \(attribute.valueType.rawValue)")
            }
            if old.valueType == attribute.valueType && SchemaComparison.normalizedType(old.declaredType) != SchemaComparison.normalizedType(attribute.declaredType) {
                column.changesType = true
                rebuildReasons.append("\(attribute.name): declared \(old.declaredType) to \(attribute.declaredType)")
            }
            if old.isOptional && !attribute.isOptional {
                column.changesOptionality = true
                if let defaultValue = attribute.defaultValue {
                    column.expression = "IFNULL(\(column.expression!), \(defaultValue))"
                    nullsBecome[old.name] = defaultValue
                    rebuildReasons.append("\(attribute.name) becomes non-optional (NULLs take the default \(defaultValue))")
                } else if kind == .custom {
                    deferredNotNull.insert(attribute.name)
                } else {
                    checks.append(.columnHasNoNulls(table: source.name, column: old.name, entity: entity, property: attribute.name,
                                                    remedy: "give '\(attribute.name)' a default value for the NULLs to take, or fill them in a custom stage"))
                    rebuildReasons.append("\(attribute.name) becomes non-optional")
                }
            } else if !old.isOptional && attribute.isOptional {
                column.changesOptionality = true
                rebuildReasons.append("\(attribute.name) becomes optional")
            }
            if old.defaultValue != attribute.defaultValue {
                column.changesDefault = true
                rebuildReasons.append("\(attribute.name)'s default changes from \(old.defaultValue ?? "none") to \(attribute.defaultValue ?? "none")")
            }
            if old.check.map(SQLExpressionText.normalized) != attribute.check.map(SQLExpressionText.normalized) {
                column.changesCheck = true
                rebuildReasons.append("\(attribute.name): " + (old.check.map { "CHECK (\($0))" } ?? "no CHECK") + " to " + (attribute.check.map { "CHECK (\($0))" } ?? "no CHECK"))
            }
            if old.collation?.uppercased() != attribute.collation?.uppercased() {
                column.changesCollation = true
                rebuildReasons.append("\(attribute.name): collation \(old.collation ?? "BINARY") to \(attribute.collation ?? "BINARY")")
            }
            if old.hashModifier != attribute.hashModifier {
                rebuildReasons.append("\(attribute.name)'s hashModifier changed")
            }
            var oldReference = old.references
            if let table = oldReference?.table { oldReference?.table = entityRenames[table] ?? table }
            if oldReference != attribute.references {
                // SQLite cannot alter a foreign key in place.
                column.changesReference = true
                rebuildReasons.append("\(attribute.name): " + TablePlan.describe(oldReference) + " to " + TablePlan.describe(attribute.references))
            }
            columns.append(column)
        }

        let kept = Set(matches.compactMap { $0.source?.name })
        var dropped = source.attributes.map(\.name).filter { !kept.contains($0) }
        // Renames are a permutation; a dropped column whose name a rename takes moves aside first.
        let order = RenameOrder(renamePairs, dropped: dropped)
        renames = order.renames.map { .renameColumn(table: table, from: $0.from, to: $0.to) }
        dropped = dropped.map { order.droppedMoved[$0] ?? $0 }
        let droppedKeys = source.attributes.filter { !kept.contains($0.name) && $0.references != nil }.map(\.name)
        try TablePlan.checkKey(source: source, target: target, renamedTo: renamedTo, version: version)
        if !dropped.isEmpty && (!capabilities.dropColumn || !droppedKeys.isEmpty || !target.hasImplicitID) {
            // SQLite's DROP COLUMN refuses a column in a foreign key or the primary key.
            rebuildReasons.append("drop " + dropped.joined(separator: ", "))
        }

        // Indexes, compared by structure in the target's column names.
        let renamedSourceIndexes = source.indexes.map { index -> Schema.Index in
            var copy = index
            copy.columns = index.columns.map { renamedTo[$0] ?? $0 }
            return copy
        }
        let targetStructures = Set(target.indexes.map(\.structure))
        let sourceStructures = Set(renamedSourceIndexes.map(\.structure))
        let retired = renamedSourceIndexes.filter { !targetStructures.contains($0.structure) }
        let added = target.indexes.filter { !sourceStructures.contains($0.structure) }
        let targetToSource = Dictionary(uniqueKeysWithValues: renamedTo.map { ($0.value, $0.key) })
        let keptUniqueOverNulls = target.indexes.filter { index in
            index.isUnique && sourceStructures.contains(index.structure) && index.columns.contains { targetToSource[$0].map { nullsBecome[$0] != nil } ?? false }
        }
        for index in added.filter(\.isUnique) + keptUniqueOverNulls {
            let sourceColumns = index.columns.map { targetToSource[$0] }
            if sourceColumns.allSatisfy({ $0 != nil }) {
                // NULLs never clash in a UNIQUE index, but the default they take here can.
                let check = DataCheck.noDuplicates(table: source.name, columns: sourceColumns.map { $0! }, entity: entity, properties: index.columns,
                                                   nullsBecome: nullsBecome)
                // In a custom stage willMigrate runs first and may remove the duplicates.
                checks.append(check)
            }
        }
        // Index drops run before the renames: name the index by its source columns, as the live table has it.
        dropIndexes = zip(source.indexes, renamedSourceIndexes).filter { !targetStructures.contains($0.1.structure) }
            .map { .dropIndex(table: source.name, index: $0.0) }

        // A declared index name that differs from the previous version's: SQLite has no RENAME
        // INDEX, and only the live table knows the old name, so the rebuild retires the index
        // (found by its columns) and creates it under its new name.
        // A join table's index names follow its own name (the layout's, not a declaration).
        let renamedIndexes = target.isJoinTable ? [] : zip(source.indexes, renamedSourceIndexes).filter { _, renamed in
            target.indexes.contains { $0.structure == renamed.structure && $0.name != nil && $0.name?.lowercased() != renamed.name?.lowercased() }
        }
        for (_, renamed) in renamedIndexes {
            let name = target.indexes.first { $0.structure == renamed.structure }?.name ?? ""
            rebuildReasons.append("index (\(renamed.columns.joined(separator: ", "))) named \(name)")
        }
        if !deferredNotNull.isEmpty || !deferredTypes.isEmpty {
            finalizingChecks = deferredNotNull.sorted().map { column in
                .columnHasNoNulls(table: table, column: column, entity: entity, property: column,
                                  remedy: "make didMigrate set '\(column)' on every row, or give it a default value")
            }
            var enforced = columns.map { TableRebuild.Column(attribute: $0.attribute, expression: SQL.quoteIdentifier($0.attribute.name)) }
            for index in enforced.indices {
                enforced[index].changesOptionality = deferredNotNull.contains(enforced[index].attribute.name)
                enforced[index].changesType = deferredTypes.contains(enforced[index].attribute.name)
            }
            let reasons = (deferredNotNull.isEmpty ? [] : ["enforce NOT NULL on " + deferredNotNull.sorted().joined(separator: ", ")])
                + (deferredTypes.isEmpty ? [] : ["declare the new type of " + deferredTypes.sorted().joined(separator: ", ") + " after didMigrate converted it"])
            finalizingRebuild = TableRebuild(table: table, sourceTable: table, target: target, columns: enforced, nullableColumns: [], droppedColumns: [],
                                             retiredIndexes: [], reasons: reasons)
        }
        if rebuildReasons.isEmpty {
            // Cheap path: O(1) schema changes, plus DROP COLUMN (which rewrites rows but not indexes).
            changes = dropped.map { .dropColumn(table: table, column: $0) } + adds
            createIndexes = added.map { .createIndex(table: table, index: $0) }
        } else {
            if !dropped.isEmpty { rebuildReasons.append("drop " + dropped.joined(separator: ", ")) }
            rebuildReasons.insert(contentsOf: renamePairs.map { "renamed \($0.from) to \($0.to) first" }, at: 0)
            if !added.isEmpty { rebuildReasons.append("new " + added.map { ($0.isUnique ? "unique " : "") + "(\($0.columns.joined(separator: ", ")))" }.joined(separator: ", ")) }
            if !retired.isEmpty { rebuildReasons.append("no more " + retired.map { ($0.isUnique ? "unique " : "") + "(\($0.columns.joined(separator: ", ")))" }.joined(separator: ", ")) }
            var rebuild = TableRebuild(table: table, sourceTable: source.name, target: target, columns: columns,
                                       nullableColumns: deferredNotNull, droppedColumns: dropped,
                                       retiredIndexes: (zip(source.indexes, renamedSourceIndexes).filter { !targetStructures.contains($0.1.structure) } + renamedIndexes)
                                           .map { ($0.1, $0.0.resolvedName(table: source.name)) }, reasons: TablePlan.unique(rebuildReasons))
            rebuild.changesStrict = source.isStrict != target.isStrict
            changes = [.rebuild(rebuild)]
            // The retired indexes go with the old table; dropping them first would only cost.
            dropIndexes = []
        }
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

