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

        public init(name: String, originalName: String? = nil, hashModifier: String? = nil,
                    attributes: [Attribute], indexes: [Index] = []) {
            self.name = name
            self.originalName = originalName
            self.hashModifier = hashModifier
            self.attributes = attributes
            self.indexes = indexes
        }

        public init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            originalName = try container.decodeIfPresent(String.self, forKey: .originalName)
            hashModifier = try container.decodeIfPresent(String.self, forKey: .hashModifier)
            attributes = try container.decode([Attribute].self, forKey: .attributes)
            indexes = try container.decodeIfPresent([Index].self, forKey: .indexes) ?? []
        }

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
