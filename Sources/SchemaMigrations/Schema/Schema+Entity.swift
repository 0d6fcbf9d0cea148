import Foundation

extension Schema {
    /// An entity: one table, named after the entity.
    ///
    /// Every table also has an integer primary key column, ``Schema/primaryKeyColumn`` (`id`),
    /// which is not listed among the attributes.
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
        /// For a many-to-many join table: its composite primary key. Nil for an entity's table,
        /// whose primary key is the `id` column.
        public var primaryKey: [String]?

        public init(name: String, originalName: String? = nil, hashModifier: String? = nil,
                    attributes: [Attribute], indexes: [Index] = [], relationships: [Relationship] = [], primaryKey: [String]? = nil) {
            self.name = name
            self.originalName = originalName
            self.hashModifier = hashModifier
            self.attributes = attributes
            self.indexes = indexes
            self.relationships = relationships
            self.primaryKey = primaryKey
        }

        public init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            originalName = try container.decodeIfPresent(String.self, forKey: .originalName)
            hashModifier = try container.decodeIfPresent(String.self, forKey: .hashModifier)
            attributes = try container.decode([Attribute].self, forKey: .attributes)
            indexes = try container.decodeIfPresent([Index].self, forKey: .indexes) ?? []
            relationships = try container.decodeIfPresent([Relationship].self, forKey: .relationships) ?? []
            primaryKey = try container.decodeIfPresent([String].self, forKey: .primaryKey)
        }

        private enum CodingKeys: String, CodingKey {
            case name, originalName, hashModifier, attributes, indexes, relationships, primaryKey
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
        }

        /// The relationship named `name`, if any.
        public func relationship(named name: String) -> Relationship? {
            relationships.first { $0.name == name }
        }

        /// True for a many-to-many join table.
        public var isJoinTable: Bool { primaryKey != nil }

        /// The attribute named `name`, if any.
        public func attribute(named name: String) -> Attribute? {
            attributes.first { $0.name == name }
        }

        /// The unique indexes (uniqueness constraints).
        public var uniqueness: [Index] { indexes.filter(\.isUnique) }
    }

    /// The integer primary key column every entity's table has.
    public static let primaryKeyColumn = "id"
}
