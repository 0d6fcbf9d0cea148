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
    /// The type ``sqlObjects`` is declared with: `[Schema.SQLObject]`. Another type (an optional
    /// array) leaves the version without `_sqlObjects`, so it does not compile rather than
    /// silently declaring none.
    associatedtype SQLObjectsDeclaration = [Schema.SQLObject]
    /// The type ``applicationID`` is declared with: `Int`, `Int32` or their optionals
    /// (``DeclaredHeaderValue``); another type leaves the version without `_applicationID`, so
    /// it does not compile.
    associatedtype ApplicationIDDeclaration = Int?
    /// The type ``userVersion`` is declared with, as ``ApplicationIDDeclaration``.
    associatedtype UserVersionDeclaration = Int?

    /// The version, unique within a plan.
    static var versionIdentifier: Schema.Version { get }
    /// The model classes of this version, each one entity (table).
    static var models: [any PersistentModel.Type] { get }
    /// The views, triggers and virtual tables of this version, created after its tables in this
    /// order (a view before the views and triggers that read it). None unless declared.
    static var sqlObjects: SQLObjectsDeclaration { get }
    /// ``sqlObjects`` as the package reads it.
    static var _sqlObjects: [Schema.SQLObject] { get }
    /// `PRAGMA application_id` when the version owns it (a file format's magic number); nil, the
    /// default, leaves it to the application.
    static var applicationID: ApplicationIDDeclaration { get }
    /// `PRAGMA user_version` when the version owns it; nil, the default, leaves it to the
    /// application (this package never uses it: versions are recorded in its own table).
    static var userVersion: UserVersionDeclaration { get }
    /// ``applicationID`` as the package reads it.
    static var _applicationID: Int? { get }
    /// ``userVersion`` as the package reads it.
    static var _userVersion: Int? { get }
}

extension VersionedSchema where ApplicationIDDeclaration: DeclaredHeaderValue {
    /// ``VersionedSchema/applicationID`` as declared.
    public static var _applicationID: Int? { applicationID.declaredHeaderValue }
}

extension VersionedSchema where UserVersionDeclaration: DeclaredHeaderValue {
    /// ``VersionedSchema/userVersion`` as declared.
    public static var _userVersion: Int? { userVersion.declaredHeaderValue }
}

extension VersionedSchema where ApplicationIDDeclaration == Int? {
    /// None: the application's own.
    public static var applicationID: Int? { nil }
}

extension VersionedSchema where UserVersionDeclaration == Int? {
    /// None: the application's own.
    public static var userVersion: Int? { nil }
}

extension VersionedSchema where SQLObjectsDeclaration == [Schema.SQLObject] {
    /// No views, triggers or virtual tables.
    public static var sqlObjects: [Schema.SQLObject] { [] }
    /// ``VersionedSchema/sqlObjects`` as declared.
    public static var _sqlObjects: [Schema.SQLObject] { sqlObjects }
}

extension Schema {
    /// Reads a versioned schema declared in Swift.
    /// - Throws: `MigrationError` with code `unsupportedType` for a property that cannot be stored,
    ///   or `invalidSchema` when the result is not a valid schema.
    public init(_ versionedSchema: any VersionedSchema.Type) throws {
        let version = versionedSchema.versionIdentifier
        let entities = try versionedSchema.models.map { try ModelReflection.entity(of: $0, version: version) }
        self.init(version: version, entities: entities, sqlObjects: versionedSchema._sqlObjects)
        applicationID = versionedSchema._applicationID
        userVersion = versionedSchema._userVersion
        resolveReferencedColumns()
        try validate()
        _ = try StorageLayout.expand(self)  // checks relationships and their inverses
    }
}
