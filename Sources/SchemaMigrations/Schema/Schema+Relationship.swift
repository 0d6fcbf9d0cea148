#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Schema {
    /// A relationship from one entity to another: to-one (a foreign-key column), to-many (the
    /// inverse to-one's foreign key), or many-to-many (a join table).
    ///
    /// Storage, for a relationship `trip` of `BucketListItem` to `Trip`:
    /// - to-one: column `"trip_id" INTEGER REFERENCES "Trip"("id") ON DELETE …` on `BucketListItem`,
    ///   with an index `BucketListItem_trip_id` (unique for one-to-one);
    /// - to-many `Trip.bucketList` with inverse `BucketListItem.trip`: the same column; its
    ///   `ON DELETE` action is `bucketList`'s delete rule (what happens to items when a trip is deleted);
    /// - many-to-many `Snippet.tags` ↔ `Tag.snippets`: table `"Snippet_tags"` with
    ///   `"Snippet_id"` and `"tags_id"`, both cascading, primary key over both, and an index on the
    ///   reverse direction.
    public struct Relationship: Codable, Hashable, Sendable {
        /// What deleting a row does to the rows it relates to (SwiftData's delete rules).
        public enum DeleteRule: String, Codable, Hashable, Sendable, CaseIterable {
            /// Related rows' references are set to NULL (`ON DELETE SET NULL`). The default.
            case nullify
            /// Related rows are deleted too (`ON DELETE CASCADE`).
            case cascade
            /// Deleting is refused while related rows exist (`ON DELETE RESTRICT`).
            case deny
            /// Nothing is done (`ON DELETE NO ACTION`); the foreign key check still applies.
            case noAction

            /// The SQL `ON DELETE` action.
            public var onDeleteSQL: String {
                switch self {
                case .nullify: return "SET NULL"
                case .cascade: return "CASCADE"
                case .deny: return "RESTRICT"
                case .noAction: return "NO ACTION"
                }
            }
        }

        /// The property name.
        public var name: String
        /// The related entity's name.
        public var destination: String
        /// True for an array of the destination (to-many).
        public var isToMany: Bool
        /// For a to-one: whether it may be nil.
        public var isOptional: Bool
        /// What deleting this entity's row does to the related rows.
        public var deleteRule: DeleteRule
        /// The destination's property that points back, if any (inferred when unambiguous).
        public var inverse: String?
        /// The relationship's name in the previous version, when it was renamed.
        public var originalName: String?
        /// Changing this marks the relationship as changed, so its table is rebuilt.
        public var hashModifier: String?

        /// A relationship with its name, destination, cardinality, delete rule and inverse.
        public init(
            name: String, destination: String, isToMany: Bool, isOptional: Bool = true,
            deleteRule: DeleteRule = .nullify,
            inverse: String? = nil, originalName: String? = nil, hashModifier: String? = nil
        ) {
            self.name = name
            self.destination = destination
            self.isToMany = isToMany
            self.isOptional = isOptional
            self.deleteRule = deleteRule
            self.inverse = inverse
            self.originalName = originalName
            self.hashModifier = hashModifier
        }

        /// Decodes a relationship from a schema snapshot; keys a snapshot leaves out take their defaults.
        public init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            destination = try container.decode(String.self, forKey: .destination)
            isToMany = try container.decodeIfPresent(Bool.self, forKey: .isToMany) ?? false
            isOptional = try container.decodeIfPresent(Bool.self, forKey: .isOptional) ?? true
            deleteRule = try container.decodeIfPresent(DeleteRule.self, forKey: .deleteRule) ?? .nullify
            inverse = try container.decodeIfPresent(String.self, forKey: .inverse)
            originalName = try container.decodeIfPresent(String.self, forKey: .originalName)
            hashModifier = try container.decodeIfPresent(String.self, forKey: .hashModifier)
        }
    }

    /// A foreign key on a column: set on the columns a relationship is stored in.
    public struct ForeignKey: Codable, Hashable, Sendable {
        /// The referenced table (an entity's name).
        public var table: String
        /// The SQL `ON DELETE` action: `CASCADE`, `SET NULL`, `SET DEFAULT`, `RESTRICT` or `NO ACTION`.
        public var onDelete: String
        /// The referenced column, or nil for `id` (the key every table has unless it declares its own).
        public var column: String?
        /// The SQL `ON UPDATE` action, or nil for none written (SQLite's `NO ACTION`).
        public var onUpdate: String?
        /// `DEFERRABLE INITIALLY DEFERRED` when true: checked at commit rather than per statement.
        public var isDeferred: Bool?

        /// A reference to `table`, with the SQL `ON DELETE` action, the referenced column (nil: `id`),
        /// the `ON UPDATE` action and whether it is deferred.
        public init(
            table: String, onDelete: String, column: String? = nil, onUpdate: String? = nil, isDeferred: Bool? = nil
        ) {
            self.table = table
            self.onDelete = onDelete
            self.column = column
            self.onUpdate = onUpdate
            self.isDeferred = isDeferred
        }

        /// The referenced column's name.
        public var referencedColumn: String { column ?? Schema.primaryKeyColumn }

        /// `REFERENCES "Artist" ("ArtistId") ON DELETE NO ACTION ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED`.
        var clause: String {
            var text =
                "REFERENCES \(SQL.quoteIdentifier(table)) (\(SQL.quoteIdentifier(referencedColumn))) ON DELETE \(onDelete)"
            if let onUpdate { text += " ON UPDATE \(onUpdate)" }
            if isDeferred == true { text += " DEFERRABLE INITIALLY DEFERRED" }
            return text
        }
    }
}
