#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Schema {
    /// An entity: one table, named after the entity.
    ///
    /// A table has an integer primary key column, ``Schema/primaryKeyColumn`` (`id`), which is
    /// not listed among the attributes, unless the entity declares its own ``primaryKey``.
    public struct Entity: Codable, Hashable, Sendable {
        /// The entity and table name.
        public var name: String
        /// The entity's name in the previous version, when it was renamed.
        public var originalName: String?
        /// Changing this marks the whole entity as changed, so its table is rebuilt.
        public var hashModifier: String?
        /// The attributes (columns), in declaration order.
        public var attributes: [Attribute]
        /// Indexes and uniqueness constraints, single and composite.
        public var indexes: [Index]
        /// Relationships to other entities, in declaration order.
        public var relationships: [Relationship]
        /// The primary key's columns (attributes' column names), in order, when the entity declares
        /// its own key or is a many-to-many join table. Nil for the default `id` column.
        public var primaryKey: [String]?
        /// `INTEGER PRIMARY KEY AUTOINCREMENT`: a deleted key is never handed out again.
        public var isAutoincrement: Bool
        /// `WITHOUT ROWID`: the table is stored in its primary key's order and has no rowid.
        public var isWithoutRowID: Bool
        /// `STRICT`: SQLite refuses a value that is not of the column's type.
        public var isStrict: Bool
        /// The table's constraints beside its columns (table CHECKs, UNIQUE constraints, foreign
        /// keys over several columns), in declaration order; columns named by their column names.
        public var constraints: [TableConstraint]
        /// The primary key's conflict clause (`PRIMARY KEY ON CONFLICT REPLACE`), wherever the key
        /// is written (the default `id` column, a declared key's column, or `PRIMARY KEY (…)`);
        /// nil for none (SQLite's `ABORT`).
        public var primaryKeyOnConflict: ConflictResolution?
        /// True for a join table the storage layout made for a many-to-many relationship. Not
        /// encoded: declared schemas never hold one.
        public var isJoinTable: Bool

        /// An entity with its name, attributes, relationships, indexes, table options and table constraints.
        public init(
            name: String, originalName: String? = nil, hashModifier: String? = nil,
            attributes: [Attribute], indexes: [Index] = [], relationships: [Relationship] = [],
            primaryKey: [String]? = nil,
            isAutoincrement: Bool = false, isWithoutRowID: Bool = false, isJoinTable: Bool = false,
            isStrict: Bool = false, constraints: [TableConstraint] = [],
            primaryKeyOnConflict: ConflictResolution? = nil
        ) {
            self.name = name
            self.originalName = originalName
            self.hashModifier = hashModifier
            self.attributes = attributes
            self.indexes = indexes
            self.relationships = relationships
            self.primaryKey = primaryKey
            self.isAutoincrement = isAutoincrement
            self.isWithoutRowID = isWithoutRowID
            self.isJoinTable = isJoinTable
            self.isStrict = isStrict
            self.constraints = constraints
            self.primaryKeyOnConflict = primaryKeyOnConflict
        }

        /// Decodes an entity from a schema snapshot; keys a snapshot leaves out take their defaults.
        public init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            originalName = try container.decodeIfPresent(String.self, forKey: .originalName)
            hashModifier = try container.decodeIfPresent(String.self, forKey: .hashModifier)
            attributes = try container.decode([Attribute].self, forKey: .attributes)
            indexes = try container.decodeIfPresent([Index].self, forKey: .indexes) ?? []
            relationships = try container.decodeIfPresent([Relationship].self, forKey: .relationships) ?? []
            primaryKey = try container.decodeIfPresent([String].self, forKey: .primaryKey)
            isAutoincrement = try container.decodeIfPresent(Bool.self, forKey: .isAutoincrement) ?? false
            isWithoutRowID = try container.decodeIfPresent(Bool.self, forKey: .isWithoutRowID) ?? false
            isJoinTable = false
            isStrict = try container.decodeIfPresent(Bool.self, forKey: .isStrict) ?? false
            constraints = try container.decodeIfPresent([TableConstraint].self, forKey: .constraints) ?? []
            primaryKeyOnConflict = try container.decodeIfPresent(
                ConflictResolution.self, forKey: .primaryKeyOnConflict)
        }

        private enum CodingKeys: String, CodingKey {
            case name, originalName, hashModifier, attributes, indexes, relationships, primaryKey, isAutoincrement,
                isWithoutRowID, isStrict, constraints, primaryKeyOnConflict
        }

        /// Writes the entity, leaving out what it does not have (no relationships, no join-table
        /// key), so snapshots of schemas without relationships keep the bytes they had.
        public func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encodeIfPresent(originalName, forKey: .originalName)
            try container.encodeIfPresent(hashModifier, forKey: .hashModifier)
            try container.encode(attributes, forKey: .attributes)
            try container.encode(indexes, forKey: .indexes)
            if !relationships.isEmpty { try container.encode(relationships, forKey: .relationships) }
            try container.encodeIfPresent(primaryKey, forKey: .primaryKey)
            if isAutoincrement { try container.encode(true, forKey: .isAutoincrement) }
            if isWithoutRowID { try container.encode(true, forKey: .isWithoutRowID) }
            if isStrict { try container.encode(true, forKey: .isStrict) }
            if !constraints.isEmpty { try container.encode(constraints, forKey: .constraints) }
            try container.encodeIfPresent(primaryKeyOnConflict, forKey: .primaryKeyOnConflict)
        }

        /// The relationship named `name`, if any.
        public func relationship(named name: String) -> Relationship? {
            relationships.first { $0.name == name }
        }

        /// True when the table has the default `"id" INTEGER PRIMARY KEY` column.
        public var hasImplicitID: Bool { primaryKey == nil }

        /// The columns that identify a row: the declared key, or `id`.
        public var keyColumns: [String] { primaryKey ?? [Schema.primaryKeyColumn] }

        /// The attribute named `name` (its column name), if any.
        public func attribute(named name: String) -> Attribute? {
            attributes.first { $0.name == name }
        }

        /// The attribute of the Swift property `property` (or, failing that, of the column so named), if any.
        public func attribute(forProperty property: String) -> Attribute? {
            attributes.first { $0.property == property } ?? attribute(named: property)
        }

        /// The unique indexes (uniqueness constraints).
        public var uniqueness: [Index] { indexes.filter(\.isUnique) }
    }

    /// The integer primary key column every entity's table has.
    public static let primaryKeyColumn = "id"
}
