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

    init(checksDefault: @escaping (_ table: String, _ column: String) -> Bool, undeclaredUniqueIndexesDiffer: Bool = true) {
        self.checksDefault = checksDefault
        self.undeclaredUniqueIndexesDiffer = undeclaredUniqueIndexesDiffer
    }

    /// The differences between the declared entities and the live tables, in words; empty when they match.
    ///
    /// A live table may have extra non-unique indexes, triggers and views: they do not change what
    /// is stored. Clauses the declaration does not speak of (`AUTOINCREMENT`, `WITHOUT ROWID`,
    /// `ON UPDATE`, `DEFERRABLE`, CHECKs, collations) are the database's own; where it does
    /// speak of them, they must be there. Extra columns, extra unique indexes and anything missing are differences.
    func differences(declared: Schema, live: LiveSchema) -> [String] {
        var result: [String] = []
        for entity in declared.entities {
            guard let table = live.table(named: entity.name) else {
                result.append("table \(entity.name) is missing")
                continue
            }
            result += differences(entity: entity, table: table)
        }
        return result
    }

    /// - Parameter parsed: the table's definition when the caller has parsed it already.
    func differences(entity: Schema.Entity, table: LiveSchema.Table, parsed: TableDefinition? = nil) -> [String] {
        var result: [String] = []
        let name = entity.name
        if let key = entity.primaryKey {
            let live = table.columns.filter { $0.primaryKeyPosition > 0 }.sorted { $0.primaryKeyPosition < $1.primaryKeyPosition }.map { $0.name.sqlFolded }
            if live != key.map({ $0.sqlFolded }) {
                result.append("\(name)'s primary key is (\(live.joined(separator: ", "))), declared (\(key.joined(separator: ", ")))")
            }
        } else if !table.hasIntegerPrimaryKey {
            result.append("\(name) has no \"\(Schema.primaryKeyColumn)\" INTEGER PRIMARY KEY column")
        }
        // The CREATE TABLE text is parsed only for what the pragmas do not say, and only when declared.
        let needsDefinition = entity.primaryKey != nil || entity.isAutoincrement || entity.isWithoutRowID || entity.isStrict
            || entity.attributes.contains { $0.check != nil || $0.collation != nil || $0.references?.isDeferred == true || $0.generated != nil }
        let definition = needsDefinition ? parsed ?? (try? table.definition()) : nil
        // What a declaration does not speak of is the database's own (a rebuild keeps it): options
        // are compared where declared, not where the live table has them unasked.
        if let definition {
            if entity.isAutoincrement && !definition.hasAutoincrement {
                result.append("\(name)'s key is not AUTOINCREMENT, declared AUTOINCREMENT")
            }
            if entity.isStrict && !definition.strict {
                result.append("\(name) is not STRICT, declared STRICT")
            }
            if entity.isWithoutRowID && !definition.withoutRowid {
                result.append("\(name) is not WITHOUT ROWID, declared WITHOUT ROWID")
            }
        }
        // A key column that cannot hold NULL whatever its constraints say: a rowid alias, or any key column of a WITHOUT ROWID table.
        let keyNeverNull: (LiveSchema.Column) -> Bool = { column in
            column.primaryKeyPosition > 0 && ((definition?.withoutRowid ?? false) || (definition.map(table.hasRowidAlias(definition:)) ?? table.hasRowidAlias))
        }
        for attribute in entity.attributes {
            guard let column = table.column(named: attribute.name) else {
                result.append("column \(name).\(attribute.name) is missing")
                continue
            }
            if let sqlType = attribute.sqlType {
                if SchemaComparison.normalizedType(column.declaredType) != SchemaComparison.normalizedType(sqlType) {
                    result.append("column \(name).\(attribute.name) is \(column.declaredType.isEmpty ? "untyped" : column.declaredType), declared \(sqlType)")
                }
            } else if column.affinity != attribute.storageType {
                result.append("column \(name).\(attribute.name) is \(column.declaredType.isEmpty ? "untyped" : column.declaredType), declared \(attribute.storageType.rawValue)")
            }
            let notNull = column.notNull || keyNeverNull(column)
            if notNull == attribute.isOptional {
                result.append("column \(name).\(attribute.name) is \(notNull ? "NOT NULL" : "nullable"), declared \(attribute.isOptional ? "optional" : "non-optional")")
            }
            let liveKey = table.foreignKeys.first { $0.from.count == 1 && $0.from[0].isSameSQLName(attribute.name) }
            switch (attribute.references, liveKey) {
            case (nil, nil): break
            case (let declared?, nil):
                result.append("column \(name).\(attribute.name) has no foreign key, declared REFERENCES \(declared.table) ON DELETE \(declared.onDelete)")
            case (nil, let live?):
                result.append("column \(name).\(attribute.name) REFERENCES \(live.table), which is not declared")
            case (let declared?, let live?):
                if live.table.sqlFolded != declared.table.sqlFolded || live.onDelete.uppercased() != declared.onDelete {
                    result.append("column \(name).\(attribute.name) REFERENCES \(live.table) ON DELETE \(live.onDelete), declared \(declared.table) ON DELETE \(declared.onDelete)")
                }
                // A reference without a column list means the parent's primary key, which is what a declaration without a column means too.
                if let to = live.to.first ?? nil, to.sqlFolded != declared.referencedColumn.sqlFolded {
                    result.append("column \(name).\(attribute.name) REFERENCES \(live.table)(\(to)), declared \(declared.table)(\(declared.referencedColumn))")
                }
                if let onUpdate = declared.onUpdate, live.onUpdate.uppercased() != onUpdate {
                    result.append("column \(name).\(attribute.name)'s foreign key is ON UPDATE \(live.onUpdate), declared ON UPDATE \(onUpdate)")
                }
                if declared.isDeferred == true, let definition, !SchemaComparison.isDeferred(column: attribute.name, in: definition) {
                    result.append("column \(name).\(attribute.name)'s foreign key is not DEFERRABLE INITIALLY DEFERRED, declared deferred")
                }
            }
            if let check = attribute.check, let definition {
                let live = definition.checks(of: attribute.name)
                if !live.contains(where: { SQLExpressionText.normalized($0) == SQLExpressionText.normalized(check) }) {
                    result.append("column \(name).\(attribute.name) has " + (live.isEmpty ? "no CHECK" : live.map { "CHECK (\($0))" }.joined(separator: ", ")) + ", declared CHECK (\(check))")
                }
            }
            if let collation = attribute.collation, let definition, (definition.collation(of: attribute.name) ?? "BINARY").uppercased() != collation.uppercased() {
                result.append("column \(name).\(attribute.name) is COLLATE \(definition.collation(of: attribute.name) ?? "BINARY"), declared COLLATE \(collation)")
            }
            result += SchemaComparison.generatedDifferences(attribute, column: column, table: name, definition: definition)
            if checksDefault(name, attribute.name) && !SQLExpressionText.sameDefault(column.defaultValue, attribute.defaultValue) {
                result.append("column \(name).\(attribute.name) has default \(column.defaultValue ?? "none"), declared \(attribute.defaultValue ?? "none")")
            }
        }
        let declaredNames = Set(((entity.hasImplicitID ? [Schema.primaryKeyColumn] : []) + entity.attributes.map(\.name)).map { $0.sqlFolded })
        for column in table.columns where column.hidden == 0 && !declaredNames.contains(column.name.sqlFolded) {
            result.append("column \(name).\(column.name) is not declared")
        }
        // A live index's SQL is parsed only when an index is declared by its terms.
        let liveStructures = Set(table.indexes.map(\.structure) + (entity.indexes.contains(where: \.hasExpressions) ? table.indexes.map(\.fullStructure) : []))
        for index in entity.indexes where !liveStructures.contains(index.structure) {
            result.append("\(index.isUnique ? "unique index" : "index") \(index.hasExpressions ? "\(index.resolvedName(table: name)) on " : "")\(name)\(index.hasExpressions ? index.termsDescription : index.structure.description.replacing("UNIQUE ", with: "")) is missing")
        }
        for index in entity.indexes where !entity.isJoinTable {
            guard let name = index.name, let live = table.indexes.first(where: { $0.matches(index.structure) }),
                  live.name.sqlFolded != name.sqlFolded,
                  !table.indexes.contains(where: { $0.matches(index.structure) && $0.name.sqlFolded == name.sqlFolded }) else { continue }
            result.append("index \(name)\(index.termsDescription) is named \(live.name)")
        }
        let declaredStructures = Set(entity.indexes.map(\.structure))
        for index in table.indexes where undeclaredUniqueIndexesDiffer && index.isUnique && index.origin != .primaryKey && !declaredStructures.contains(index.structure)
            && !declaredStructures.contains(index.fullStructure) {
            result.append("unique index \(index.name) on \(name)" + (!index.hasExpressions ? "(\(index.columns.joined(separator: ", ")))" : ", `\(index.sql ?? "")`,") + " is not declared")
        }
        return result
    }

    /// A type name compared as SQLite reads it: case and spaces do not matter (`numeric(10, 2)` is `NUMERIC(10,2)`).
    static func normalizedType(_ type: String) -> String {
        // ASCII bytes: introspection compares every column's type.
        String(decoding: type.utf8.compactMap { byte -> UInt8? in
            if byte == 32 || (9...13).contains(byte) { return nil }
            return byte >= 97 && byte <= 122 ? byte - 32 : byte
        }, as: UTF8.self)
    }

    /// Whether the foreign key on `column` alone is `DEFERRABLE INITIALLY DEFERRED` (SQLite's
    /// pragmas do not say; the table's definition does).
    static func isDeferred(column: String, in definition: TableDefinition) -> Bool {
        func deferred(_ text: String) -> Bool {
            let tokenizer = SQLTokenizer(text)
            let words = ((try? tokenizer.tokens()) ?? []).filter { $0.kind == .word }.map { tokenizer.text(of: $0).sqlFolded }
            guard let position = words.lastIndex(of: "deferrable"), position == 0 || words[position - 1] != "not" else { return false }
            return words.dropFirst(position).starts(with: ["deferrable", "initially", "deferred"])
        }
        let folded = column.sqlFolded
        if let constraint = definition.column(named: column)?.constraints.first(where: { if case .references = $0.kind { return true } else { return false } }) {
            return deferred(constraint.text)
        }
        if let constraint = definition.constraints.first(where: { if case .foreignKey = $0.kind { return $0.columns == [folded] } else { return false } }) {
            return deferred(constraint.text)
        }
        return false
    }
}
