extension TablePlan {
    /// The column-by-column comparison of one table: the columns `ALTER TABLE` can add, what
    /// needs the rebuild and why, the rebuild's columns with their copy expressions, and what
    /// the data must allow (``DataCheck``).
    struct ColumnComparison {
        let sourceTable: String
        let entity: String
        let kind: StageKind
        let version: Schema.Version
        /// Source entity name → target entity name (a reference to a renamed table is no change).
        let entityRenames: [String: String]

        var rebuildReasons: [String] = []
        var adds: [StepAction] = []
        var columns: [TableRebuild.Column] = []
        var checks: [DataCheck] = []
        /// Columns a custom stage's didMigrate fills: NOT NULL is enforced after it.
        var deferredNotNull: Set<String> = []
        /// Columns a custom stage converts: the type changes after didMigrate.
        var deferredTypes: Set<String> = []
        /// Source column → target column.
        var renamedTo: [String: String] = [:]
        /// Source column → the default its NULLs take.
        var nullsBecome: [String: String] = [:]
        /// Source column → the collation the new table compares it under, where the stage changes it.
        var collationBecomes: [String: String] = [:]
        var renamePairs: [(from: String, to: String)] = []
        /// Target columns whose stored values a new generated expression replaces.
        var replacedByGenerated: [String] = []

        init(
            sourceTable: String, entity: String, kind: StageKind, version: Schema.Version,
            entityRenames: [String: String]
        ) {
            self.sourceTable = sourceTable
            self.entity = entity
            self.kind = kind
            self.version = version
            self.entityRenames = entityRenames
        }

        /// A new column: `ADD COLUMN` when SQLite can, else a rebuild leaves it to its default (or NULL).
        mutating func add(_ attribute: Schema.Attribute) {
            if let generated = attribute.generated {
                // SQLite computes it: ADD COLUMN takes a VIRTUAL one, never a STORED one.
                if generated.storage == .stored {
                    rebuildReasons.append(
                        "add STORED generated \(attribute.name) (SQLite's ADD COLUMN cannot add a STORED column)")
                } else {
                    adds.append(.addColumn(table: entity, attribute: attribute, forceNullable: false))
                }
            } else if let defaultValue = attribute.defaultValue, SQLExpressionText.isNonConstantDefault(defaultValue) {
                rebuildReasons.append(
                    "add \(attribute.name) with the default \(defaultValue) (SQLite's ADD COLUMN needs a constant default)"
                )
            } else if attribute.isOptional || attribute.defaultValue != nil {
                adds.append(.addColumn(table: entity, attribute: attribute, forceNullable: false))
            } else if kind == .custom {
                adds.append(.addColumn(table: entity, attribute: attribute, forceNullable: true))
                deferredNotNull.insert(attribute.name)
            } else {
                checks.append(.tableIsEmpty(table: sourceTable, entity: entity, property: PropertyName(attribute)))
                rebuildReasons.append(
                    "add non-optional \(attribute.name) with no default (SQLite's ADD COLUMN needs a default for NOT NULL)"
                )
            }
            columns.append(TableRebuild.Column(attribute: attribute, expression: nil))
        }

        /// A column that continues `old`: renamed first (the rebuild reads it under its new name),
        /// then each change of its definition, a reason for the rebuild.
        /// - Throws: `MigrationError` for a type change with no lossless conversion, or a date
        ///   storage change (``TablePlan/checkDateStorage(from:to:entity:version:)``).
        mutating func compare(_ old: Schema.Attribute, to attribute: Schema.Attribute) throws {
            renamedTo[old.name] = attribute.name
            try TablePlan.checkDateStorage(from: old, to: attribute, entity: entity, version: version)
            if old.name != attribute.name { renamePairs.append((old.name, attribute.name)) }
            var column = TableRebuild.Column(
                attribute: attribute, expression: SQL.quoteIdentifier(attribute.name), sourceName: old.name)
            try compareType(old, attribute, &column)
            compareOptionality(old, attribute, &column)
            compareConstraints(old, attribute, &column)
            columns.append(column)
        }

        private mutating func compareType(
            _ old: Schema.Attribute, _ attribute: Schema.Attribute, _ column: inout TableRebuild.Column
        ) throws {
            let quoted = SQL.quoteIdentifier(attribute.name)
            if old.valueType != attribute.valueType && kind == .custom && old.hashModifier != attribute.hashModifier
                && TypeConversion.expression(from: old.valueType, to: attribute.valueType, column: quoted) == nil
            {
                // A custom stage takes over the conversion: the old values are copied as they are
                // for didMigrate to transform; the column keeps its type (and affinity) until then.
                deferredTypes.insert(attribute.name)
                rebuildReasons.append(
                    "\(attribute.name): \(old.valueType.rawValue) to \(attribute.valueType.rawValue), values copied as they are for didMigrate to convert"
                )
            } else if old.valueType != attribute.valueType {
                guard
                    let converted = TypeConversion.expression(
                        from: old.valueType, to: attribute.valueType, column: quoted)
                else {
                    let rename = old.property != attribute.property ? " while renaming it from '\(old.property)'" : ""
                    throw MigrationError(
                        .unsupportedChange,
                        "a lightweight stage cannot change '\(entity).\(attribute.property)' from \(old.valueType.rawValue) to \(attribute.valueType.rawValue)\(rename): there is no lossless conversion",
                        entity: entity, property: attribute.property, column: attribute.name, version: version,
                        remedy:
                            "add a new attribute of the new type and fill it from the old one in a custom stage's didMigrate, then remove the old one"
                            + (old.name != attribute.name
                                ? "; or rename in one version and change the type in the next" : ""))
                }
                if let inexact = TypeConversion.inexact(
                    from: old.valueType, to: attribute.valueType, column: SQL.quoteIdentifier(old.name))
                {
                    checks.append(
                        .exactConversion(
                            table: sourceTable, condition: inexact, entity: entity, property: PropertyName(attribute),
                            change: "from \(old.valueType.rawValue) to \(attribute.valueType.rawValue)"))
                }
                column.expression = converted
                column.changesType = old.storageType != attribute.storageType
                rebuildReasons.append("\(attribute.name): \(old.valueType.rawValue) to \(attribute.valueType.rawValue)")
            }
            if old.valueType == attribute.valueType
                && SchemaComparison.normalizedType(old.declaredType)
                    != SchemaComparison.normalizedType(attribute.declaredType)
            {
                column.changesType = true
                rebuildReasons.append("\(attribute.name): declared \(old.declaredType) to \(attribute.declaredType)")
            }
        }

        private mutating func compareOptionality(
            _ old: Schema.Attribute, _ attribute: Schema.Attribute, _ column: inout TableRebuild.Column
        ) {
            if old.isOptional && !attribute.isOptional {
                column.changesOptionality = true
                if let defaultValue = attribute.defaultValue {
                    column.expression = "IFNULL(\(column.expression!), \(defaultValue))"
                    nullsBecome[old.name] = defaultValue
                    rebuildReasons.append(
                        "\(attribute.name) becomes non-optional (NULLs take the default \(defaultValue))")
                } else if kind == .custom {
                    deferredNotNull.insert(attribute.name)
                } else {
                    checks.append(
                        .columnHasNoNulls(
                            table: sourceTable, column: old.name, entity: entity, property: PropertyName(attribute),
                            remedy:
                                "give '\(attribute.property)' a default value for the NULLs to take, or fill them in a custom stage"
                        ))
                    rebuildReasons.append("\(attribute.name) becomes non-optional")
                }
            } else if !old.isOptional && attribute.isOptional {
                column.changesOptionality = true
                rebuildReasons.append("\(attribute.name) becomes optional")
            }
        }

        /// Default, CHECK, collation, generated expression, NOT NULL's conflict clause, hashModifier and foreign key.
        private mutating func compareConstraints(
            _ old: Schema.Attribute, _ attribute: Schema.Attribute, _ column: inout TableRebuild.Column
        ) {
            if old.defaultValue != attribute.defaultValue {
                column.changesDefault = true
                rebuildReasons.append(
                    "\(attribute.name)'s default changes from \(old.defaultValue ?? "none") to \(attribute.defaultValue ?? "none")"
                )
            }
            if old.check.map(SQLExpressionText.normalized) != attribute.check.map(SQLExpressionText.normalized) {
                column.changesCheck = true
                rebuildReasons.append(
                    "\(attribute.name): " + (old.check.map { "CHECK (\($0))" } ?? "no CHECK") + " to "
                        + (attribute.check.map { "CHECK (\($0))" } ?? "no CHECK"))
            }
            if old.collation?.uppercased() != attribute.collation?.uppercased() {
                column.changesCollation = true
                collationBecomes[old.name] = attribute.collation ?? "BINARY"
                rebuildReasons.append(
                    "\(attribute.name): collation \(old.collation ?? "BINARY") to \(attribute.collation ?? "BINARY")")
            }
            if !TablePlan.sameGenerated(old.generated, attribute.generated) {
                column.changesGenerated = true
                let replaced = old.generated == nil ? " (its stored values are replaced by computed ones)" : ""
                if old.generated == nil { replacedByGenerated.append(attribute.name) }
                rebuildReasons.append(
                    "\(attribute.name): " + TablePlan.describe(old.generated) + " to "
                        + TablePlan.describe(attribute.generated) + replaced)
            }
            if !attribute.isOptional,
                Schema.ConflictResolution.meaning(old.isOptional ? nil : old.notNullOnConflict)
                    != Schema.ConflictResolution.meaning(attribute.notNullOnConflict)
            {
                column.changesNotNullConflict = true
                rebuildReasons.append(
                    "\(attribute.name): NOT NULL " + TablePlan.describe(old.isOptional ? nil : old.notNullOnConflict)
                        + " to " + TablePlan.describe(attribute.notNullOnConflict))
            }
            if old.hashModifier != attribute.hashModifier {
                rebuildReasons.append("\(attribute.name)'s hashModifier changed")
            }
            var oldReference = old.references
            if let table = oldReference?.table { oldReference?.table = entityRenames[table] ?? table }
            if oldReference != attribute.references {
                // SQLite cannot alter a foreign key in place.
                column.changesReference = true
                rebuildReasons.append(
                    "\(attribute.name): " + TablePlan.describe(oldReference) + " to "
                        + TablePlan.describe(attribute.references))
            }
        }

        /// What didMigrate must have filled, checked after it runs.
        var finalizingChecks: [DataCheck] {
            deferredNotNull.sorted().map { column in
                let name =
                    columns.first { $0.attribute.name == column }.map { PropertyName($0.attribute) }
                    ?? PropertyName(property: column)
                return .columnHasNoNulls(
                    table: entity, column: column, entity: entity, property: name,
                    remedy: "make didMigrate set '\(name.property)' on every row, or give it a default value")
            }
        }

        /// The rebuild after didMigrate that enforces NOT NULL on the columns it filled and
        /// declares the types it converted; nil when there are none.
        func finalizingRebuild(target: Schema.Entity) -> TableRebuild? {
            guard !deferredNotNull.isEmpty || !deferredTypes.isEmpty else { return nil }
            var enforced = columns.map {
                TableRebuild.Column(attribute: $0.attribute, expression: SQL.quoteIdentifier($0.attribute.name))
            }
            for index in enforced.indices {
                enforced[index].changesOptionality = deferredNotNull.contains(enforced[index].attribute.name)
                enforced[index].changesType = deferredTypes.contains(enforced[index].attribute.name)
            }
            let reasons =
                (deferredNotNull.isEmpty
                    ? [] : ["enforce NOT NULL on " + deferredNotNull.sorted().joined(separator: ", ")])
                + (deferredTypes.isEmpty
                    ? []
                    : [
                        "declare the new type of " + deferredTypes.sorted().joined(separator: ", ")
                            + " after didMigrate converted it"
                    ])
            return TableRebuild(
                table: entity, sourceTable: entity, target: target, columns: enforced, nullableColumns: [],
                droppedColumns: [],
                retiredIndexes: [], reasons: reasons)
        }
    }
}
