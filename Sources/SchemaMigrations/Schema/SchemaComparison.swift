#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Compares a declared schema with what a live database really holds, by SQLite's own
/// introspection (`table_xinfo`, `index_list`), never by comparing SQL text.
struct SchemaComparison {
    /// Whether a column's default must match too: it must where this package wrote the column; a
    /// database created by hand may lack defaults without storing anything differently.
    var checksDefault: (_ table: String, _ column: String) -> Bool
    /// Whether a unique index the declaration does not name is a difference. It is when a file is
    /// adopted (an unversioned file holding one is not yet that version: declare it). On a
    /// database the plan has recorded it is not: an index the app adds by SQL, of any kind (unique
    /// or not, collated, over expressions, partial), is the database's own, kept by every rebuild.
    var undeclaredUniqueIndexesDiffer = true

    init(checksDefaults: Bool, undeclaredUniqueIndexesDiffer: Bool = true) {
        checksDefault = { _, _ in checksDefaults }
        self.undeclaredUniqueIndexesDiffer = undeclaredUniqueIndexesDiffer
    }

    init(
        checksDefault: @escaping (_ table: String, _ column: String) -> Bool, undeclaredUniqueIndexesDiffer: Bool = true
    ) {
        self.checksDefault = checksDefault
        self.undeclaredUniqueIndexesDiffer = undeclaredUniqueIndexesDiffer
    }

    /// The differences between the declared entities and the live tables; empty when they match.
    ///
    /// A live table may have extra non-unique indexes, triggers and views: they do not change what
    /// is stored. Clauses the declaration does not speak of (`AUTOINCREMENT`, `WITHOUT ROWID`,
    /// `ON UPDATE`, `DEFERRABLE`, CHECKs, collations) are the database's own; where it does
    /// speak of them, they must be there. Extra columns, extra unique indexes and anything missing are differences.
    func differences(declared: Schema, live: LiveSchema) -> [SchemaDifference] {
        var result: [SchemaDifference] = []
        for entity in declared.entities {
            guard let table = live.table(named: entity.name) else {
                result.append(.missingTable(entity.name))
                continue
            }
            result += differences(entity: entity, table: table)
        }
        for (pragma, live, declared) in [
            ("application_id", live.applicationID, declared.applicationID),
            ("user_version", live.userVersion, declared.userVersion),
        ] {
            if let declared, declared != live { result.append(.header(pragma: pragma, live: live, declared: declared)) }
        }
        // The views, triggers and virtual tables declared; those only the file has are the app's.
        for object in declared.sqlObjects {
            guard let live = live.sqlObjects.first(where: { $0.name.sqlFolded == object.name.sqlFolded }) else {
                result.append(.sqlObject(name: object.name, declared: object, live: nil))
                continue
            }
            if live.kind != object.kind || live.normalizedSQL != object.normalizedSQL {
                result.append(.sqlObject(name: object.name, declared: object, live: live.sql))
            }
        }
        return result
    }

    /// - Parameter parsed: the table's definition when the caller has parsed it already.
    func differences(entity: Schema.Entity, table: LiveSchema.Table, parsed: TableDefinition? = nil)
        -> [SchemaDifference]
    {
        var result: [SchemaDifference] = []
        let name = entity.name
        if let key = entity.primaryKey {
            let live = table.columns.filter { $0.primaryKeyPosition > 0 }.sorted {
                $0.primaryKeyPosition < $1.primaryKeyPosition
            }.map { $0.name.sqlFolded }
            if live != key.map({ $0.sqlFolded }) {
                result.append(.primaryKey(table: name, live: live, declared: key))
            }
        } else if !table.hasIntegerPrimaryKey {
            result.append(.noIntegerPrimaryKey(table: name))
        }
        // The CREATE TABLE text is parsed only for what the pragmas do not say, and only when declared.
        let needsDefinition =
            entity.primaryKey != nil || entity.isAutoincrement || entity.isWithoutRowID || entity.isStrict
            || !entity.constraints.isEmpty || entity.primaryKeyOnConflict != nil
            || entity.attributes.contains {
                $0.check != nil || $0.collation != nil || $0.references?.isDeferred == true || $0.generated != nil
                    || $0.notNullOnConflict != nil
            }
        let definition = needsDefinition ? parsed ?? (try? table.definition()) : nil
        // What a declaration does not speak of is the database's own (a rebuild keeps it): options
        // are compared where declared, not where the live table has them unasked.
        if let definition, let key = entity.primaryKey, !key.isEmpty {
            // The key's order: an INTEGER key written DESC is no alias of the rowid.
            let live = definition.descendingKeyColumns
            let declared = Set(key.filter { entity.attribute(named: $0)?.isDescending == true }.map(\.sqlFolded))
            if live.intersection(key.map(\.sqlFolded)) != declared {
                func ordered(_ descending: Set<String>) -> [String] {
                    key.map { descending.contains($0.sqlFolded) ? "\($0) DESC" : $0 }
                }
                result.append(.primaryKey(table: name, live: ordered(live), declared: ordered(declared)))
            }
        }
        if let definition {
            if entity.isAutoincrement && !definition.hasAutoincrement {
                result.append(.missingTableOption(table: name, .autoincrement))
            }
            if entity.isStrict && !definition.strict {
                result.append(.missingTableOption(table: name, .strict))
            }
            if entity.isWithoutRowID && !definition.withoutRowid {
                result.append(.missingTableOption(table: name, .withoutRowID))
            }
            if let declared = entity.primaryKeyOnConflict,
                Schema.ConflictResolution.meaning(declared) != Schema.ConflictResolution.meaning(definition.keyConflict)
            {
                result.append(
                    .conflictClause(
                        table: name, column: nil, live: definition.keyConflict?.clause ?? "", declared: declared.clause)
                )
            }
        }
        // A key column that cannot hold NULL whatever its constraints say: a rowid alias, or any key column of a WITHOUT ROWID table.
        let keyNeverNull: (LiveSchema.Column) -> Bool = { column in
            column.primaryKeyPosition > 0
                && ((definition?.withoutRowid ?? false)
                    || (definition.map(table.hasRowidAlias(definition:)) ?? table.hasRowidAlias))
        }
        for attribute in entity.attributes {
            guard let column = table.column(named: attribute.name) else {
                result.append(.missingColumn(table: name, column: attribute.name))
                continue
            }
            if let sqlType = attribute.sqlType {
                if SchemaComparison.normalizedType(column.declaredType) != SchemaComparison.normalizedType(sqlType) {
                    result.append(
                        .columnType(table: name, column: attribute.name, live: column.declaredType, declared: sqlType))
                }
            } else if column.affinity != attribute.storageType {
                result.append(
                    .columnType(
                        table: name, column: attribute.name, live: column.declaredType,
                        declared: attribute.storageType.rawValue))
            }
            let notNull = column.notNull || keyNeverNull(column)
            if notNull == attribute.isOptional {
                result.append(.nullability(table: name, column: attribute.name, liveNotNull: notNull))
            }
            let liveKey = table.foreignKeys.first {
                $0.from.count == 1 && $0.from[0].sqlFolded == attribute.name.sqlFolded
            }
            switch (attribute.references, liveKey) {
            case (nil, nil): break
            case (let declared?, nil):
                result.append(
                    .missingForeignKey(
                        table: name, column: attribute.name,
                        declared: .init(table: declared.table, onDelete: declared.onDelete)))
            case (nil, let live?):
                // Declared as a one-column table constraint instead.
                if entity.constraints.contains(where: {
                    if case .foreignKey(let key) = $0.kind {
                        key.columns.map(\.sqlFolded) == [attribute.name.sqlFolded]
                    } else {
                        false
                    }
                }) {
                    break
                }
                result.append(
                    .undeclaredForeignKey(table: name, column: attribute.name, live: .init(table: live.table)))
            case (let declared?, let live?):
                if live.table.sqlFolded != declared.table.sqlFolded || live.onDelete.uppercased() != declared.onDelete {
                    result.append(
                        .foreignKeyTarget(
                            table: name, column: attribute.name,
                            live: .init(table: live.table, onDelete: live.onDelete),
                            declared: .init(table: declared.table, onDelete: declared.onDelete)))
                }
                // A reference without a column list means the parent's primary key, which is what a declaration without a column means too.
                if let to = live.to.first ?? nil, to.sqlFolded != declared.referencedColumn.sqlFolded {
                    result.append(
                        .foreignKeyColumn(
                            table: name, column: attribute.name, live: .init(table: live.table, column: to),
                            declared: .init(table: declared.table, column: declared.referencedColumn)))
                }
                if let onUpdate = declared.onUpdate, live.onUpdate.uppercased() != onUpdate {
                    result.append(
                        .foreignKeyOnUpdate(
                            table: name, column: attribute.name, live: live.onUpdate, declared: onUpdate))
                }
                if declared.isDeferred == true, let definition,
                    !SchemaComparison.isDeferred(column: attribute.name, in: definition)
                {
                    result.append(.foreignKeyNotDeferred(table: name, column: attribute.name))
                }
            }
            if let check = attribute.check, let definition {
                let live = definition.checks(of: attribute.name)
                if !live.contains(where: { SQLExpressionText.normalized($0) == SQLExpressionText.normalized(check) }) {
                    result.append(.check(table: name, column: attribute.name, live: live, declared: check))
                }
            }
            if let declared = attribute.notNullOnConflict, !attribute.isOptional, let definition {
                let live = definition.notNullConflict(of: attribute.name)
                if Schema.ConflictResolution.meaning(declared) != Schema.ConflictResolution.meaning(live) {
                    result.append(
                        .conflictClause(
                            table: name, column: attribute.name, live: live?.clause ?? "", declared: declared.clause))
                }
            }
            if let collation = attribute.collation, let definition {
                let live = definition.collation(of: attribute.name) ?? "BINARY"
                if live.sqlFolded != collation.sqlFolded {
                    result.append(.collation(table: name, column: attribute.name, live: live, declared: collation))
                }
            }
            if let generated = SchemaComparison.generatedDifference(
                attribute, column: column, table: name, definition: definition)
            {
                result.append(generated)
            }
            if checksDefault(name, attribute.name)
                && !SQLExpressionText.sameDefault(column.defaultValue, attribute.defaultValue)
            {
                result.append(
                    .defaultValue(
                        table: name, column: attribute.name, live: column.defaultValue,
                        declared: attribute.defaultValue))
            }
        }
        if !entity.constraints.isEmpty, let definition {
            let live = definition.declarableConstraints
            for constraint in entity.constraints where !live.contains(where: constraint.isSatisfied(by:)) {
                result.append(.missingConstraint(table: name, declared: constraint))
            }
        }
        let declaredNames = Set(
            ((entity.hasImplicitID ? [Schema.primaryKeyColumn] : []) + entity.attributes.map(\.name)).map {
                $0.sqlFolded
            })
        for column in table.columns where column.hidden == 0 && !declaredNames.contains(column.name.sqlFolded) {
            result.append(.undeclaredColumn(table: name, column: column.name))
        }
        // A live index's SQL is parsed only when an index is declared by its terms.
        let liveStructures = Set(
            table.indexes.map(\.structure)
                + (entity.indexes.contains(where: \.hasExpressions) ? table.indexes.map(\.fullStructure) : []))
        for index in entity.indexes where !liveStructures.contains(index.structure) {
            result.append(.missingIndex(table: name, index))
        }
        for index in entity.indexes where !entity.isJoinTable {
            guard let indexName = index.name, let live = table.indexes.first(where: { $0.matches(index.structure) }),
                live.name.sqlFolded != indexName.sqlFolded,
                !table.indexes.contains(where: {
                    $0.matches(index.structure) && $0.name.sqlFolded == indexName.sqlFolded
                })
            else { continue }
            result.append(.indexName(table: name, index, live: live.name))
        }
        let declaredStructures = Set(
            entity.indexes.map(\.structure)
                + entity.constraints.compactMap {
                    if case .unique(let columns) = $0.kind {
                        Schema.Index(columns, isUnique: true).structure
                    } else {
                        nil
                    }
                })
        for index in table.indexes
        where undeclaredUniqueIndexesDiffer && index.isUnique && index.origin != .primaryKey
            && !declaredStructures.contains(index.structure)
            && !declaredStructures.contains(index.fullStructure)
        {
            result.append(
                .undeclaredUniqueIndex(
                    table: name, index: index.name, columns: index.columns,
                    sql: index.hasExpressions ? index.sql ?? "" : nil))
        }
        return result
    }

    /// A type name compared as SQLite reads it: case and spaces do not matter (`numeric(10, 2)` is `NUMERIC(10,2)`).
    static func normalizedType(_ type: String) -> String {
        // ASCII bytes: introspection compares every column's type.
        String(
            decoding: type.utf8.compactMap { byte -> UInt8? in
                if byte == 32 || (9...13).contains(byte) { return nil }
                return byte >= 97 && byte <= 122 ? byte - 32 : byte
            }, as: UTF8.self)
    }

    /// Whether the foreign key on `column` alone is `DEFERRABLE INITIALLY DEFERRED` (SQLite's
    /// pragmas do not say; the table's definition does). As SQLite reads it, a `[NOT] DEFERRABLE
    /// …` written apart from its `REFERENCES` (after a `NOT NULL`, or on a later column) sets the
    /// timing of the last foreign key declared before it, and the last timing written wins.
    static func isDeferred(column: String, in definition: TableDefinition) -> Bool {
        func deferred(_ text: String) -> Bool {
            let tokenizer = SQLTokenizer(text)
            let words = ((try? tokenizer.tokens()) ?? []).filter { $0.kind == .word }.map {
                tokenizer.text(of: $0).sqlFolded
            }
            guard let position = words.lastIndex(of: "deferrable"), position == 0 || words[position - 1] != "not" else {
                return false
            }
            return words.dropFirst(position).starts(with: ["deferrable", "initially", "deferred"])
        }
        let folded = column.sqlFolded
        var timing: [String: Bool] = [:]
        var lastKey: String?
        for defined in definition.columns {
            for constraint in defined.constraints {
                if case .references = constraint.kind {
                    lastKey = defined.name.sqlFolded
                    timing[defined.name.sqlFolded] = deferred(constraint.text)
                } else if constraint.kind == .deferrable, let lastKey {
                    timing[lastKey] = deferred(constraint.text)
                }
            }
        }
        if let deferred = timing[folded] { return deferred }
        if let constraint = definition.constraints.first(where: {
            if case .foreignKey = $0.kind { return $0.columns == [folded] } else { return false }
        }) {
            return deferred(constraint.text)
        }
        return false
    }
}
