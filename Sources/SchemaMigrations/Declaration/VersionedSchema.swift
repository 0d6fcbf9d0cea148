/// One released version of a schema, declared as a Swift type.
///
/// ```swift
/// enum TripsSchemaV1: VersionedSchema {
///     static let versionIdentifier = Schema.Version(1, 0, 0)
///     static let models: [any PersistentModel.Type] = [Trip.self]
///     final class Trip: PersistentModel { var name = ""; init() {} }
/// }
/// ```
///
/// A released version must never change: ship a new version instead.
public protocol VersionedSchema: _SchemaMigrationsSendableMetatype {
    /// The version, unique within a plan.
    static var versionIdentifier: Schema.Version { get }
    /// The model classes of this version, each one entity (table).
    static var models: [any PersistentModel.Type] { get }
}

extension Schema {
    /// Reads a versioned schema declared in Swift.
    /// - Throws: `MigrationError` with code `unsupportedType` for a property that cannot be stored,
    ///   or `invalidSchema` when the result is not a valid schema.
    public init(_ versionedSchema: any VersionedSchema.Type) throws {
        let version = versionedSchema.versionIdentifier
        let entities = try versionedSchema.models.map { try ModelReflection.entity(of: $0, version: version) }
        self.init(version: version, entities: entities)
        resolveReferencedColumns()
        try validate()
        _ = try StorageLayout.expand(self)  // checks relationships and their inverses
    }
}
