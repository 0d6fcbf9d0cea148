import Foundation

extension Schema {
    /// An index over one or more columns of an entity; a unique index is a uniqueness constraint.
    ///
    /// Indexes are compared by their columns and uniqueness, not by name: an index keeps the name
    /// it was created with (for example across a column rename), and a new one is named
    /// ``defaultName(table:)``.
    public struct Index: Codable, Hashable, Sendable {
        /// The indexed columns, in order.
        public var columns: [String]
        /// Whether the index enforces uniqueness of the column combination.
        public var isUnique: Bool
        /// An explicit name, or nil for ``defaultName(table:)``.
        public var name: String?

        public init(_ columns: [String], isUnique: Bool = false, name: String? = nil) {
            self.columns = columns
            self.isUnique = isUnique
            self.name = name
        }

        public init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            columns = try container.decode([String].self, forKey: .columns)
            isUnique = try container.decodeIfPresent(Bool.self, forKey: .isUnique) ?? false
            name = try container.decodeIfPresent(String.self, forKey: .name)
        }

        /// `Trip_name_startDate` for an index, `Trip_name_startDate_unique` for a uniqueness constraint.
        public func defaultName(table: String) -> String {
            ([table] + columns).joined(separator: "_") + (isUnique ? "_unique" : "")
        }

        /// The name the index is created with.
        public func resolvedName(table: String) -> String { name ?? defaultName(table: table) }

        /// What identifies an index when comparing two schemas: its columns and uniqueness.
        var structure: IndexStructure { IndexStructure(columns: columns, isUnique: isUnique) }
    }
}

/// An index's identity for comparisons: columns (in order) and uniqueness, not its name.
struct IndexStructure: Hashable, Sendable, CustomStringConvertible {
    var columns: [String]
    var isUnique: Bool
    var description: String { (isUnique ? "UNIQUE " : "") + "(" + columns.joined(separator: ", ") + ")" }
}
