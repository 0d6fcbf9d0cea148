import Foundation

extension Schema {
    /// A stable SHA-256 hash (64 lowercase hex digits) of what this schema stores.
    ///
    /// It is the hash of the canonical JSON form of the schema's storage-relevant parts: entity and
    /// attribute names, value types, optionality, defaults, indexes, uniqueness and `hashModifier`s.
    /// It does not depend on declaration order, on the version identifier, on `originalName` (a
    /// rename hint, not part of what is stored), nor on options with no storage effect. Two
    /// versions with the same hash store the same thing, and a plan refuses them.
    public var versionHash: String {
        // Encoding plain strings, booleans and arrays cannot fail.
        let canonical = (try? CanonicalJSON.encode(HashedSchema(self))) ?? ""
        return SHA256.hexDigest(canonical)
    }
}

/// The parts of a schema its hash covers, in a canonical order.
private struct HashedSchema: Encodable {
    struct HashedAttribute: Encodable {
        var name: String
        var valueType: String
        var isOptional: Bool
        var defaultValue: String?
        var hashModifier: String?
    }

    struct HashedIndex: Encodable {
        var columns: [String]
        var isUnique: Bool
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
    }

    var format = 1
    var entities: [HashedEntity]

    init(_ schema: Schema) {
        entities = schema.entities.sorted { $0.name < $1.name }.map { entity in
            HashedEntity(
                name: entity.name,
                hashModifier: entity.hashModifier,
                attributes: entity.attributes.sorted { $0.name < $1.name }.map {
                    HashedAttribute(name: $0.name, valueType: $0.valueType.rawValue, isOptional: $0.isOptional,
                                    defaultValue: $0.defaultValue, hashModifier: $0.hashModifier)
                },
                indexes: Set(entity.indexes.map(\.structure))
                    .sorted { ($0.isUnique ? 1 : 0, $0.columns.joined(separator: "\u{1}")) < ($1.isUnique ? 1 : 0, $1.columns.joined(separator: "\u{1}")) }
                    .map { HashedIndex(columns: $0.columns, isUnique: $0.isUnique) },
                // Absent when there are none, so schemas without relationships keep the hash they had.
                relationships: entity.relationships.isEmpty ? nil : entity.relationships.sorted { $0.name < $1.name }.map {
                    HashedRelationship(name: $0.name, destination: $0.destination, isToMany: $0.isToMany, isOptional: $0.isOptional,
                                       deleteRule: $0.deleteRule.rawValue, inverse: $0.inverse, hashModifier: $0.hashModifier)
                }
            )
        }
    }
}
