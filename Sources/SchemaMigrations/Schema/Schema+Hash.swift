#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Schema {
    /// A stable SHA-256 hash (64 lowercase hex digits) of what this schema stores.
    ///
    /// It is the hash of the canonical JSON form of the schema's storage-relevant parts: entity and
    /// attribute (column) names, value types, optionality, defaults, indexes, uniqueness and
    /// `hashModifier`s, and, where declared, SQL types, foreign keys, the primary key,
    /// `AUTOINCREMENT`, `WITHOUT ROWID`, generated columns and index terms and `WHERE`
    /// conditions, table constraints (by what they mean, in any order), views, triggers and virtual tables (SQL text as SQLite reads it: spacing, case
    /// and quoting do not count), and the header values the version sets.
    /// It does not depend on declaration order, on the version identifier, on `originalName` (a
    /// rename hint, not part of what is stored), nor on options with no storage effect. Two
    /// versions with the same hash store the same thing, and a plan refuses them.
    public var versionHash: String {
        SHA256.hexDigest(HashedSchema(self).canonicalText)
    }
}

extension IndexStructure {
    /// `structures` without repeats, in their order: what a `Set` keeps, without instantiating
    /// `Set<IndexStructure>` (a cost a short-lived process pays at its first use) for the few
    /// indexes of one table.
    static func distinct(_ structures: [IndexStructure]) -> [IndexStructure] {
        var kept: [IndexStructure] = []
        kept.reserveCapacity(structures.count)
        for structure in structures where !kept.contains(structure) { kept.append(structure) }
        return kept
    }

    /// Orders indexes in the hash: plain ones by their columns, as always; others by their terms
    /// and predicate after them.
    fileprivate var sortKey: String {
        guard let terms else { return columns.joined(separator: "\u{1}") }
        return "\u{2}" + terms.joined(separator: "\u{1}") + "\u{3}" + (predicate ?? "")
    }
}

/// The parts of a schema its hash covers, in a canonical order.
///
/// ``canonicalText`` writes exactly what `CanonicalJSON.encode(self)` does (a test holds them
/// equal), without the generic encoder's cost: a 500-entity schema hashes in milliseconds.
struct HashedSchema: Encodable {
    struct HashedAttribute: Encodable {
        var check: String?
        var collation: String?
        var dateStorage: String?
        var name: String
        var valueType: String
        var isOptional: Bool
        var defaultValue: String?
        // Absent unless the key column is descending, so every other schema keeps its hash.
        var descending: Bool?
        // Absent unless declared, so schemas without generated columns keep the hash they had.
        var generated: HashedGenerated?
        // Absent unless a NOT NULL's conflict clause other than ABORT is declared (likewise).
        var notNullOnConflict: String?
        var hashModifier: String?
        // Absent unless declared, so schemas without them keep the hash they had.
        var references: HashedForeignKey?
        // Absent unless the property is retired, so every other schema keeps the hash it had.
        var retired: Bool?
        var sqlType: String?
    }

    struct HashedForeignKey: Encodable {
        var column: String?
        var isDeferred: Bool?
        var onDelete: String
        var onUpdate: String?
        var table: String
    }

    struct HashedGenerated: Encodable {
        var expression: String
        var storage: String
    }

    struct HashedIndex: Encodable {
        var columns: [String]
        /// Absent for an index of plain columns, so schemas without expression indexes keep their hash.
        var elements: [String]?
        var isUnique: Bool
        /// Never set: see ``HashedSchema/init``. Kept so the canonical form stays as written.
        var name: String?
        /// Absent unless the index is partial.
        var predicate: String?
    }

    struct HashedRelationship: Encodable {
        var name: String
        var destination: String
        var isToMany: Bool
        var isOptional: Bool
        var deleteRule: String
        var inverse: String?
        var hashModifier: String?
    }

    struct HashedEntity: Encodable {
        var name: String
        var hashModifier: String?
        var attributes: [HashedAttribute]
        var indexes: [HashedIndex]
        var relationships: [HashedRelationship]?
        // Absent unless declared, so schemas with the default `id` key keep the hash they had.
        var primaryKey: [String]?
        // Absent unless the key's conflict clause other than ABORT is declared (likewise).
        var primaryKeyOnConflict: String?
        var isAutoincrement: Bool?
        var isWithoutRowID: Bool?
        var isStrict: Bool?
        /// Absent when the entity declares none, so schemas without them keep the hash they had.
        var constraints: [String]?
    }

    struct HashedObject: Encodable {
        var kind: String
        var sql: String
    }

    var format = 1
    var entities: [HashedEntity]
    /// Absent when the version declares none, so schemas without them keep the hash they had.
    var sqlObjects: [HashedObject]?
    /// Absent unless the version sets them.
    var applicationID: Int?
    var userVersion: Int?

    init(_ schema: Schema) {
        applicationID = schema.applicationID
        userVersion = schema.userVersion
        sqlObjects =
            schema.sqlObjects.isEmpty
            ? nil
            : schema.sqlObjects.sorted { ($0.kind.rawValue, $0.name.sqlFolded) < ($1.kind.rawValue, $1.name.sqlFolded) }
                .map { HashedObject(kind: $0.kind.rawValue, sql: $0.normalizedSQL) }
        entities = schema.entities.sorted { $0.name < $1.name }.map { entity in
            HashedEntity(
                name: entity.name,
                hashModifier: entity.hashModifier,
                attributes: entity.attributes.sorted { $0.name < $1.name }.map {
                    HashedAttribute(
                        check: $0.check.map(SQLExpressionText.normalized), collation: $0.collation?.uppercased(),
                        dateStorage: $0.dateStorage?.rawValue, name: $0.name, valueType: $0.valueType.rawValue,
                        isOptional: $0.isOptional,
                        defaultValue: $0.defaultValue,
                        descending: $0.isDescending ? true : nil,
                        generated: $0.generated.map {
                            HashedGenerated(
                                expression: SQLExpressionText.normalized($0.expression), storage: $0.storage.rawValue)
                        },
                        notNullOnConflict: $0.isOptional ? nil : Self.hashed($0.notNullOnConflict),
                        hashModifier: $0.hashModifier,
                        references: $0.references.map {
                            HashedForeignKey(
                                column: $0.column, isDeferred: $0.isDeferred, onDelete: $0.onDelete,
                                onUpdate: $0.onUpdate, table: $0.table)
                        },
                        retired: $0.isRetired ? true : nil,
                        sqlType: $0.sqlType)
                },
                // A second index of a structure, named otherwise, counts once more (absent
                // otherwise, so released hashes stay).
                indexes: Self.hashedStructures(entity.indexes)
                    .sorted { ($0.isUnique ? 1 : 0, $0.sortKey) < ($1.isUnique ? 1 : 0, $1.sortKey) }
                    // An index's name is not hashed: snapshots written before names could be declared
                    // recorded them, and their released hashes must not change.
                    .map { structure in
                        HashedIndex(
                            columns: structure.columns, elements: structure.terms, isUnique: structure.isUnique,
                            name: nil,
                            predicate: structure.predicate)
                    },
                // Absent when there are none, so schemas without relationships keep the hash they had.
                relationships: entity.relationships.isEmpty
                    ? nil
                    : entity.relationships.sorted { $0.name < $1.name }.map {
                        HashedRelationship(
                            name: $0.name, destination: $0.destination, isToMany: $0.isToMany,
                            isOptional: $0.isOptional,
                            deleteRule: $0.deleteRule.rawValue, inverse: $0.inverse, hashModifier: $0.hashModifier)
                    },
                primaryKey: entity.primaryKey,
                primaryKeyOnConflict: entity.primaryKey == [] ? nil : Self.hashed(entity.primaryKeyOnConflict),
                isAutoincrement: entity.isAutoincrement ? true : nil,
                isWithoutRowID: entity.isWithoutRowID ? true : nil,
                isStrict: entity.isStrict ? true : nil,
                // By meaning, in any order: spelling and order change nothing a stage does.
                constraints: entity.constraints.isEmpty ? nil : entity.constraints.map(\.meaning).sorted()
            )
        }
    }
}

extension HashedSchema {
    /// A conflict clause as hashed: nil for none and for `ABORT`, which means the same.
    static func hashed(_ resolution: Schema.ConflictResolution?) -> String? {
        resolution.flatMap { $0 == .abort ? nil : $0.rawValue }
    }

    /// Each index structure once, then once more for each further index of it that is not the
    /// same declaration (``Schema/Index/isSameDeclaration(as:)``): two named otherwise.
    static func hashedStructures(_ indexes: [Schema.Index]) -> [IndexStructure] {
        var declared: [Schema.Index] = []
        for index in indexes where !declared.contains(where: { $0.isSameDeclaration(as: index) }) {
            declared.append(index)
        }
        let distinct = IndexStructure.distinct(declared.map(\.structure))
        return distinct
            + declared.enumerated().filter { position, index in
                declared.prefix(position).contains { $0.structure == index.structure }
            }.map(\.element.structure)
    }

    /// The canonical JSON: keys in UTF-16 order, no whitespace, nil members left out.
    var canonicalText: String {
        var out = "{"
        if let value = applicationID { out += "\"applicationID\":\(value)," }
        out += "\"entities\":["
        for (index, entity) in entities.enumerated() {
            if index > 0 { out += "," }
            out += "{\"attributes\":["
            for (position, attribute) in entity.attributes.enumerated() {
                if position > 0 { out += "," }
                out += "{"
                if let value = attribute.check {
                    out += "\"check\":"
                    JSONValue.writeString(value, to: &out)
                    out += ","
                }
                if let value = attribute.collation {
                    out += "\"collation\":"
                    JSONValue.writeString(value, to: &out)
                    out += ","
                }
                if let value = attribute.dateStorage {
                    out += "\"dateStorage\":"
                    JSONValue.writeString(value, to: &out)
                    out += ","
                }
                if let value = attribute.defaultValue {
                    out += "\"defaultValue\":"
                    JSONValue.writeString(value, to: &out)
                    out += ","
                }
                if attribute.descending == true { out += "\"descending\":true," }
                if let value = attribute.generated {
                    out += "\"generated\":{\"expression\":"
                    JSONValue.writeString(value.expression, to: &out)
                    out += ",\"storage\":"
                    JSONValue.writeString(value.storage, to: &out)
                    out += "},"
                }
                if let value = attribute.hashModifier {
                    out += "\"hashModifier\":"
                    JSONValue.writeString(value, to: &out)
                    out += ","
                }
                out += "\"isOptional\":\(attribute.isOptional),\"name\":"
                JSONValue.writeString(attribute.name, to: &out)
                if let value = attribute.notNullOnConflict {
                    out += ",\"notNullOnConflict\":"
                    JSONValue.writeString(value, to: &out)
                }
                if let key = attribute.references {
                    out += ",\"references\":{"
                    if let value = key.column {
                        out += "\"column\":"
                        JSONValue.writeString(value, to: &out)
                        out += ","
                    }
                    if let value = key.isDeferred { out += "\"isDeferred\":\(value)," }
                    out += "\"onDelete\":"
                    JSONValue.writeString(key.onDelete, to: &out)
                    if let value = key.onUpdate {
                        out += ",\"onUpdate\":"
                        JSONValue.writeString(value, to: &out)
                    }
                    out += ",\"table\":"
                    JSONValue.writeString(key.table, to: &out)
                    out += "}"
                }
                if attribute.retired == true { out += ",\"retired\":true" }
                if let value = attribute.sqlType {
                    out += ",\"sqlType\":"
                    JSONValue.writeString(value, to: &out)
                }
                out += ",\"valueType\":"
                JSONValue.writeString(attribute.valueType, to: &out)
                out += "}"
            }
            out += "]"
            if let constraints = entity.constraints {
                out += ",\"constraints\":"
                JSONValue.writeStrings(constraints, to: &out)
            }
            out += ","
            if let value = entity.hashModifier {
                out += "\"hashModifier\":"
                JSONValue.writeString(value, to: &out)
                out += ","
            }
            out += "\"indexes\":["
            for (position, index) in entity.indexes.enumerated() {
                if position > 0 { out += "," }
                out += "{\"columns\":"
                JSONValue.writeStrings(index.columns, to: &out)
                if let elements = index.elements {
                    out += ",\"elements\":"
                    JSONValue.writeStrings(elements, to: &out)
                }
                out += ",\"isUnique\":\(index.isUnique)"
                if let name = index.name {
                    out += ",\"name\":"
                    JSONValue.writeString(name, to: &out)
                }
                if let predicate = index.predicate {
                    out += ",\"predicate\":"
                    JSONValue.writeString(predicate, to: &out)
                }
                out += "}"
            }
            out += "],"
            if let value = entity.isAutoincrement { out += "\"isAutoincrement\":\(value)," }
            if let value = entity.isStrict { out += "\"isStrict\":\(value)," }
            if let value = entity.isWithoutRowID { out += "\"isWithoutRowID\":\(value)," }
            out += "\"name\":"
            JSONValue.writeString(entity.name, to: &out)
            if let key = entity.primaryKey {
                out += ",\"primaryKey\":"
                JSONValue.writeStrings(key, to: &out)
            }
            if let value = entity.primaryKeyOnConflict {
                out += ",\"primaryKeyOnConflict\":"
                JSONValue.writeString(value, to: &out)
            }
            if let relationships = entity.relationships {
                out += ",\"relationships\":["
                for (position, relationship) in relationships.enumerated() {
                    if position > 0 { out += "," }
                    out += "{\"deleteRule\":"
                    JSONValue.writeString(relationship.deleteRule, to: &out)
                    out += ",\"destination\":"
                    JSONValue.writeString(relationship.destination, to: &out)
                    if let value = relationship.hashModifier {
                        out += ",\"hashModifier\":"
                        JSONValue.writeString(value, to: &out)
                    }
                    if let value = relationship.inverse {
                        out += ",\"inverse\":"
                        JSONValue.writeString(value, to: &out)
                    }
                    out += ",\"isOptional\":\(relationship.isOptional),\"isToMany\":\(relationship.isToMany),\"name\":"
                    JSONValue.writeString(relationship.name, to: &out)
                    out += "}"
                }
                out += "]"
            }
            out += "}"
        }
        out += "],\"format\":\(format)"
        if let objects = sqlObjects {
            out += ",\"sqlObjects\":["
            for (position, object) in objects.enumerated() {
                if position > 0 { out += "," }
                out += "{\"kind\":"
                JSONValue.writeString(object.kind, to: &out)
                out += ",\"sql\":"
                JSONValue.writeString(object.sql, to: &out)
                out += "}"
            }
            out += "]"
        }
        if let value = userVersion { out += ",\"userVersion\":\(value)" }
        out += "}"
        return out
    }
}
