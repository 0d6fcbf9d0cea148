extension StageCompatibility {
    /// Classifies the stage from `source` to `target` (stored schemas, relationships as their
    /// key columns and join tables) against the previous version's code: the reads of every
    /// column it declares, by its names, and the inserts giving every column it declares (NULL
    /// where an optional is nil). Entities and properties are paired as the planner pairs them
    /// (``NameMatching``), so a rename is one change, not a drop and an add.
    ///
    /// A pure function of the two schemas and the kind, like the planner: what the planner refuses
    /// is refused before this runs, and pairs it cannot make are left out here.
    static func classify(source: Schema, target: Schema, kind: StageKind) -> StageCompatibility {
        let matches =
            (try? NameMatching.match(
                targets: target.entities, sources: source.entities, name: { $0.name },
                originalName: { $0.originalName }, describe: { "entity '\($0)'" }, version: target.version,
                entity: nil)) ?? []
        var entityRenames: [String: String] = [:]
        for match in matches {
            if let old = match.source, old.name != match.target.name { entityRenames[old.name] = match.target.name }
        }
        let columnRenames = TablePlan.columnRenames(matches: matches, version: target.version)
        let matched = Set(matches.compactMap { $0.source?.name })
        let targetTables = Dictionary(
            target.entities.map { ($0.name.sqlFolded, $0) }, uniquingKeysWith: { first, _ in first })
        var reasons: [Reason] = []
        for entity in source.entities where !matched.contains(entity.name) {
            reasons.append(
                Reason(
                    kind: .tableDropped, entity: entity.name, property: nil,
                    effect: effectOfLosing(entity.name, columns: entity, in: targetTables),
                    message: "drops table \(entity.name): the previous version reads and writes it",
                    table: entity.name))
        }
        for match in matches {
            guard let old = match.source else { continue }
            let new = match.target
            if old.name.sqlFolded != new.name.sqlFolded {
                reasons.append(
                    Reason(
                        kind: .tableRenamed, entity: old.name, property: nil,
                        effect: effectOfLosing(old.name, columns: old, in: targetTables),
                        message:
                            "renames table \(old.name) to \(new.name): the previous version reads and writes \(old.name)",
                        table: new.name))
            }
            var table = TableCompatibility(
                old: old, new: new, entityRenames: entityRenames, columnRenames: columnRenames,
                version: target.version)
            table.classify()
            reasons += table.reasons
        }
        reasons += objectReasons(source: source, target: target)
        return StageCompatibility(reasons: reasons, codeIsNotClassified: kind == .custom)
    }

    /// A table the previous version names is gone under that name: its statements fail, unless
    /// another table now has that name and every column it reads (then they reach other rows).
    static func effectOfLosing(_ name: String, columns old: Schema.Entity, in targets: [String: Schema.Entity])
        -> Effect
    {
        guard let other = targets[name.sqlFolded] else { return .statementsFail }
        let columns = Set(other.keyColumns.map(\.sqlFolded) + other.attributes.map(\.name.sqlFolded))
        return old.attributes.allSatisfy { columns.contains($0.name.sqlFolded) } ? .valuesDiffer : .statementsFail
    }

    /// Views and virtual tables the previous version declares, dropped or declared anew; new or
    /// changed triggers that can `RAISE` on its writes. A trigger dropped, or one that does not
    /// `RAISE`, breaks no statement of its (what else a trigger does is not classified).
    static func objectReasons(source: Schema, target: Schema) -> [Reason] {
        let targets = Dictionary(target.sqlObjects.map { ($0.name.sqlFolded, $0) }, uniquingKeysWith: { a, _ in a })
        let sources = Dictionary(source.sqlObjects.map { ($0.name.sqlFolded, $0) }, uniquingKeysWith: { a, _ in a })
        var reasons: [Reason] = []
        for object in source.sqlObjects where object.kind != .trigger {
            let next = targets[object.name.sqlFolded]
            let view = object.kind == .view
            if next == nil || next?.kind != object.kind {
                reasons.append(
                    Reason(
                        kind: view ? .viewDropped : .virtualTableDropped, entity: object.name, property: nil,
                        effect: .statementsFail,
                        message: "drops \(object): the previous version \(view ? "reads it" : "reads and writes it")",
                        table: object.name))
            } else if let next, next.normalizedSQL != object.normalizedSQL {
                reasons.append(
                    Reason(
                        kind: view ? .viewChanged : .virtualTableChanged, entity: object.name, property: nil,
                        effect: .valuesDiffer,
                        message: view
                            ? "rewrites \(object): the previous version reads other columns or rows from it"
                            : "declares \(object) anew (its rows copied into the new definition): the previous version's statements on it are not checked against the new one",
                        table: object.name))
            }
        }
        for object in target.sqlObjects where object.kind == .trigger {
            let old = sources[object.name.sqlFolded]
            guard old == nil || old?.kind != .trigger || old?.normalizedSQL != object.normalizedSQL,
                SQLTokenizer(object.sql).identifierSet().contains("raise")
            else { continue }
            reasons.append(
                Reason(
                    kind: .triggerMayRefuse, entity: object.name, property: nil, effect: .writesMayFail,
                    message:
                        "\(old == nil ? "adds" : "changes") \(object), which can RAISE: the previous version's writes it refuses fail",
                    table: object.name))
        }
        return reasons
    }
}

/// One table's changes, classified against the previous version's reads and inserts of it.
struct TableCompatibility {
    let old: Schema.Entity
    let new: Schema.Entity
    let entityRenames: [String: String]
    let columnRenames: [String: [String: String]]
    let version: Schema.Version
    private(set) var reasons: [StageCompatibility.Reason] = []
    /// Source column → target column, for the properties both versions have.
    private var renamedTo: [String: String] = [:]
    /// The target's new columns (folded) that the previous version's inserts leave NULL: optional,
    /// no default, not generated. A new UNIQUE or foreign key over one never meets its rows.
    private var nullForOldInserts: Set<String> = []

    init(
        old: Schema.Entity, new: Schema.Entity, entityRenames: [String: String],
        columnRenames: [String: [String: String]], version: Schema.Version
    ) {
        self.old = old
        self.new = new
        self.entityRenames = entityRenames
        self.columnRenames = columnRenames
        self.version = version
    }

    private mutating func add(
        _ kind: StageCompatibility.ReasonKind, _ property: String?, _ effect: StageCompatibility.Effect,
        _ message: String, column: String? = nil
    ) {
        reasons.append(
            StageCompatibility.Reason(
                kind: kind, entity: old.name, property: property, effect: effect, message: message, table: new.name,
                column: column))
    }

    mutating func classify() {
        let matches = (try? TablePlan.attributeMatches(source: old, target: new, version: version)) ?? []
        let kept = Set(matches.compactMap { $0.source?.name })
        let newColumns = Set(new.keyColumns.map(\.sqlFolded) + new.attributes.map(\.name.sqlFolded))
        // A property the previous version retired is one its code no longer reads or writes.
        for attribute in old.attributes where !kept.contains(attribute.name) && !attribute.isRetired {
            add(
                .columnDropped, attribute.property,
                newColumns.contains(attribute.name.sqlFolded) ? .valuesDiffer : .statementsFail,
                "drops column \(old.name).\(attribute.name): the previous version reads "
                    + (attribute.generated == nil ? "and writes it" : "it"),
                column: attribute.name)
        }
        for match in matches {
            guard let was = match.source else {
                added(match.target)
                continue
            }
            let now = match.target
            renamedTo[was.name] = now.name
            if was.isRetired {
                // Its inserts leave it out, as a new column's.
                added(now)
                continue
            }
            if was.name.sqlFolded != now.name.sqlFolded {
                add(
                    .columnRenamed, was.property,
                    newColumns.contains(was.name.sqlFolded) ? .valuesDiffer : .statementsFail,
                    "renames column \(old.name).\(was.name) to \(now.name): the previous version reads and writes \(was.name)",
                    column: now.name)
            }
            // Renamed while another column takes its old name: the previous version's writes of
            // it reach that column, so what it says of this one's writes fails no statement.
            let moved = was.name.sqlFolded != now.name.sqlFolded && newColumns.contains(was.name.sqlFolded)
            compare(was, now, writes: moved ? .valuesDiffer : .statementsFail)
        }
        if old.hashModifier != new.hashModifier {
            add(
                .valuesChangeMeaning, nil, .valuesDiffer,
                "changes the hashModifier of \(old.name): the declaration says its stored values mean something else, which the previous version does not know"
            )
        }
        if !old.isStrict && new.isStrict {
            add(
                .strictOn, nil, .writesMayFail,
                "makes \(old.name) STRICT: the previous version's writes of a value its column's type refuses fail")
        }
        compareUniqueness()
        compareConstraints()
    }

    /// A new column: one the previous version's inserts leave out.
    private mutating func added(_ attribute: Schema.Attribute) {
        guard attribute.generated == nil, attribute.defaultValue == nil else { return }
        if attribute.isOptional {
            nullForOldInserts.insert(attribute.name.sqlFolded)
        } else {
            add(
                .requiredColumnAdded, attribute.property, .statementsFail,
                "adds column \(old.name).\(attribute.name) NOT NULL without a default: the previous version's inserts leave it out and fail",
                column: attribute.name)
        }
    }

    private static func typeWords(_ attribute: Schema.Attribute) -> String {
        attribute.valueType.rawValue + (attribute.dateStorage.map { " stored as \($0.rawValue)" } ?? "")
            + (attribute.sqlType.map { " (\($0.isEmpty ? "untyped" : $0))" } ?? "")
    }

    /// - Parameter writes: the effect of a change to what the previous version's inserts of the
    ///   column meet (`statementsFail`, unless another column now has its name).
    private mutating func compare(
        _ was: Schema.Attribute, _ now: Schema.Attribute, writes: StageCompatibility.Effect
    ) {
        let name = "\(old.name).\(was.name)"
        if was.valueType != now.valueType || was.dateStorage != now.dateStorage || was.affinity != now.affinity {
            add(
                .typeChanged, was.property, .valuesDiffer,
                "changes the type of \(name) from \(Self.typeWords(was)) to \(Self.typeWords(now)): the previous version reads and writes it as \(was.valueType.rawValue)"
            )
        }
        if was.isOptional && !now.isOptional && now.generated == nil {
            // `NOT NULL ON CONFLICT REPLACE` stores the default for a NULL (ABORT without one);
            // `IGNORE` skips the statement's row: the statements run, their values differ.
            switch now.notNullOnConflict {
            case .replace? where now.defaultValue != nil:
                add(
                    .becomesNotNull, was.property, .valuesDiffer,
                    "makes \(name) non-optional ON CONFLICT REPLACE: the previous version's NULLs store its default \(now.defaultValue!) instead"
                )
            case .ignore?:
                add(
                    .becomesNotNull, was.property, .valuesDiffer,
                    "makes \(name) non-optional ON CONFLICT IGNORE: the previous version's writes of NULL are skipped, their rows not written"
                )
            default:
                add(
                    .becomesNotNull, was.property, writes,
                    "makes \(name) non-optional: the previous version writes NULL when it is nil, which NOT NULL refuses"
                        + (now.defaultValue == nil ? "" : " (a default fills only a column an insert leaves out)"))
            }
        }
        switch (was.generated, now.generated) {
        case (nil, let generated?):
            add(
                .becomesGenerated, was.property, writes,
                "makes \(name) generated (\(generated.clause)): the previous version's inserts write it, which SQLite refuses"
            )
        case (_?, nil):
            let required = !now.isOptional && now.defaultValue == nil
            add(
                .stopsBeingGenerated, was.property, required ? writes : .valuesDiffer,
                "makes \(name) an ordinary column: the previous version's inserts leave it out, "
                    + (required ? "and it is NOT NULL without a default" : "so it holds no computed value"))
        case (let before?, let after?) where !TablePlan.sameGenerated(before, after):
            add(
                .generatedExpressionChanged, was.property, .valuesDiffer,
                "changes \(name) from \(before.clause) to \(after.clause): the previous version reads other values")
        default: break
        }
        if was.hashModifier != now.hashModifier {
            add(
                .valuesChangeMeaning, was.property, .valuesDiffer,
                "changes the hashModifier of \(name): the declaration says its values mean something else, which the previous version does not know"
            )
        }
        if let check = now.check, was.check.map(SQLExpressionText.normalized) != SQLExpressionText.normalized(check) {
            add(
                .checkAdded, was.property, .writesMayFail,
                "\(was.check == nil ? "adds" : "changes") CHECK (\(check)) on \(name): the previous version's writes of values it refuses fail"
            )
        }
        if (was.collation ?? "BINARY").sqlFolded != (now.collation ?? "BINARY").sqlFolded {
            add(
                .collationChanged, was.property, .valuesDiffer,
                "changes the collation of \(name) from \(was.collation ?? "BINARY") to \(now.collation ?? "BINARY"): the previous version's comparisons, sorting and unique values follow the new one"
            )
        }
        compareReferences(was, now, name: name)
    }

    private mutating func compareReferences(_ was: Schema.Attribute, _ now: Schema.Attribute, name: String) {
        guard let key = now.references else { return }
        let parent = key.table
        guard var before = was.references else {
            add(
                .foreignKeyAdded, was.property, .writesMayFail,
                "adds a foreign key from \(name) to \(parent): the previous version's writes of a value no \(parent) row has fail"
            )
            return
        }
        before.table = entityRenames[before.table] ?? before.table
        let referenced = columnRenames[parent.sqlFolded]?[before.referencedColumn.sqlFolded] ?? before.referencedColumn
        if before.table.sqlFolded != parent.sqlFolded || referenced.sqlFolded != key.referencedColumn.sqlFolded {
            add(
                .foreignKeyAdded, was.property, .writesMayFail,
                "points the foreign key of \(name) at \(parent).\(key.referencedColumn): the previous version's writes of a value no \(parent) row has fail"
            )
        } else if before.onDelete.sqlFolded != key.onDelete.sqlFolded
            || (before.onUpdate ?? "NO ACTION").sqlFolded != (key.onUpdate ?? "NO ACTION").sqlFolded
        {
            let refuses = ["restrict", "no action"].contains(key.onDelete.sqlFolded)
            add(
                .deleteRuleChanged, was.property, refuses ? .writesMayFail : .valuesDiffer,
                "changes the foreign key of \(name) from ON DELETE \(before.onDelete) to ON DELETE \(key.onDelete): deleting a \(parent) row the previous version deletes "
                    + (refuses
                        ? "fails while \(old.name) rows reference it" : "does something else to \(old.name) rows"))
        }
    }

    /// New unique indexes (and indexes made unique), the source's in the target's column names.
    private mutating func compareUniqueness() {
        let substitution = Dictionary(
            renamedTo.map { ($0.key.sqlFolded, $0.value) }, uniquingKeysWith: { first, _ in first })
        let before = Set(
            old.indexes.filter(\.isUnique).map { $0.structure.renamingColumns(substitution).description.sqlFolded })
        for index in new.indexes where index.isUnique && !before.contains(index.structure.description.sqlFolded) {
            guard !index.columns.contains(where: { nullForOldInserts.contains($0.sqlFolded) }) else { continue }
            add(
                .uniqueAdded, index.columns.count == 1 ? index.columns[0] : nil, .writesMayFail,
                "makes \(index.termsDescription) unique on \(old.name): the previous version's writes fail on a value another row already has"
            )
        }
    }

    /// New table constraints, compared by meaning as the planner compares them.
    private mutating func compareConstraints() {
        let comparison = TablePlan.ConstraintComparison(
            source: old, target: new, renamedTo: renamedTo, entityRenames: entityRenames, columnRenames: columnRenames)
        for constraint in comparison.added {
            let kind: StageCompatibility.ReasonKind
            switch constraint.kind {
            case .check: kind = .checkAdded
            case .unique(let columns):
                if columns.contains(where: { nullForOldInserts.contains($0.sqlFolded) }) { continue }
                kind = .uniqueAdded
            case .foreignKey(let key):
                if key.columns.contains(where: { nullForOldInserts.contains($0.sqlFolded) }) { continue }
                kind = .foreignKeyAdded
            }
            switch (kind, constraint.onConflict) {
            case (.uniqueAdded, .replace?):
                add(
                    kind, nil, .valuesDiffer,
                    "adds `\(constraint.sql)` to \(old.name): the previous version's writes of values another row has delete that row"
                )
            case (.uniqueAdded, .ignore?):
                add(
                    kind, nil, .valuesDiffer,
                    "adds `\(constraint.sql)` to \(old.name): the previous version's writes of values another row has are skipped"
                )
            default:
                add(
                    kind, nil, .writesMayFail,
                    "adds `\(constraint.sql)` to \(old.name): the previous version's writes that break it fail")
            }
        }
    }
}
