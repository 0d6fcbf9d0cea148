#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One version of a database schema, as plain values: the one model the planner, the executor
/// and the reports speak.
///
/// A `Schema` comes from Swift declarations (``VersionedSchema``), from a JSON snapshot, or from
/// introspecting a live database. It encodes to a canonical JSON snapshot and has a stable
/// ``versionHash``.
///
/// ```swift
/// let schema = try Schema(TripsSchemaV2.self)
/// print(schema.versionHash)          // "3f1c…", SHA-256 of the canonical form
/// let json = try schema.snapshotJSON()
/// ```
public struct Schema: Codable, Hashable, Sendable {
    /// The version this schema declares.
    public var version: Version
    /// The entities (tables), in declaration order.
    public var entities: [Entity]
    /// The views, triggers and virtual tables, in the order they are created.
    public var sqlObjects: [SQLObject]
    /// `PRAGMA application_id` the version sets; nil leaves it to the application.
    public var applicationID: Int?
    /// `PRAGMA user_version` the version sets; nil leaves it to the application.
    public var userVersion: Int?

    /// The schema of `version`, with its entities and the views, triggers and virtual tables after them.
    public init(version: Version, entities: [Entity], sqlObjects: [SQLObject] = []) {
        self.version = version
        self.entities = entities
        self.sqlObjects = sqlObjects
    }

    private enum CodingKeys: String, CodingKey { case version, entities, sqlObjects, applicationID, userVersion }

    /// Reads a schema; one written before versions could declare SQL objects has none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decode(Version.self, forKey: .version)
        entities = try container.decode([Entity].self, forKey: .entities)
        sqlObjects = try container.decodeIfPresent([SQLObject].self, forKey: .sqlObjects) ?? []
        applicationID = try container.decodeIfPresent(Int.self, forKey: .applicationID)
        userVersion = try container.decodeIfPresent(Int.self, forKey: .userVersion)
    }

    /// Writes the schema; `sqlObjects` only when there are some, so schemas without them keep their form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(version, forKey: .version)
        try container.encode(entities, forKey: .entities)
        if !sqlObjects.isEmpty { try container.encode(sqlObjects, forKey: .sqlObjects) }
        try container.encodeIfPresent(applicationID, forKey: .applicationID)
        try container.encodeIfPresent(userVersion, forKey: .userVersion)
    }

    /// The view, trigger or virtual table so named, ignoring ASCII case as SQLite does.
    public func sqlObject(named name: String) -> SQLObject? {
        let folded = name.sqlFolded
        return sqlObjects.first { $0.name.sqlFolded == folded }
    }

    /// The entity named `name`, if any.
    public func entity(named name: String) -> Entity? {
        entities.first { $0.name == name }
    }

    /// The entity names, in declaration order.
    public var entityNames: [String] { entities.map(\.name) }
}

extension Schema {
    /// A semantic version: `Schema.Version(2, 0, 0)`, written `2.0.0`.
    public struct Version: Hashable, Comparable, Sendable, Codable, CustomStringConvertible, LosslessStringConvertible {
        /// The major version.
        public var major: Int
        /// The minor version.
        public var minor: Int
        /// The patch version.
        public var patch: Int

        /// The version `major.minor.patch`.
        public init(_ major: Int, _ minor: Int, _ patch: Int) {
            self.major = major
            self.minor = minor
            self.patch = patch
        }

        /// Parses `2`, `2.1` or `2.1.3`.
        public init?(_ description: String) {
            let parts = description.split(separator: ".", omittingEmptySubsequences: false).map { Int($0) }
            guard (1...3).contains(parts.count), parts.allSatisfy({ $0 != nil && $0! >= 0 }) else { return nil }
            let numbers = parts.map { $0! } + Array(repeating: 0, count: 3 - parts.count)
            self.init(numbers[0], numbers[1], numbers[2])
        }

        /// `major.minor.patch`.
        public var description: String { "\(major).\(minor).\(patch)" }

        /// Orders versions by major, then minor, then patch.
        public static func < (lhs: Version, rhs: Version) -> Bool {
            (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
        }

        /// Decodes a version from its `"major.minor.patch"` string.
        public init(from decoder: Decoder) throws {
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let version = Version(text) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "'\(text)' is not a version like 1.0.0")
            }
            self = version
        }

        /// Encodes the version as its `"major.minor.patch"` string.
        public func encode(to encoder: Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(description)
        }
    }
}
