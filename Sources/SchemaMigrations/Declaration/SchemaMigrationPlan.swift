/// The versions of a schema, oldest first, and the stages between them.
///
/// ```swift
/// enum TripsMigrationPlan: SchemaMigrationPlan {
///     static let schemas: [any VersionedSchema.Type] = [TripsSchemaV1.self, TripsSchemaV2.self, TripsSchemaV3.self]
///     static let stages: [MigrationStage] = [
///         .custom(fromVersion: TripsSchemaV1.self, toVersion: TripsSchemaV2.self,
///                 willMigrate: { context in try context.execute("DELETE FROM Trip WHERE …") }, didMigrate: nil),
///         .lightweight(fromVersion: TripsSchemaV2.self, toVersion: TripsSchemaV3.self),
///     ]
/// }
/// ```
///
/// Consecutive versions with no stage listed between them migrate through a lightweight stage.
public protocol SchemaMigrationPlan: _SchemaMigrationsSendableMetatype {
    /// The type ``name`` is declared with: `String`, or `String?` (nil: `"default"`); see ``DeclaredName``.
    associatedtype NameDeclaration = String
    /// The plan's name, which keys its metadata in the database, so that several plans (an app's
    /// and a library's, each owning its own tables) can share one file. Defaults to `"default"`.
    /// `static let name = "Shop"` and `static let name: String? = "Shop"` say the same; another
    /// type does not compile.
    static var name: NameDeclaration { get }
    /// Every version, oldest first.
    static var schemas: [any VersionedSchema.Type] { get }
    /// The type ``stages`` is declared with: `[MigrationStage]`. Another type (an optional array)
    /// leaves the plan without `_stages`, so it does not compile rather than silently running
    /// no custom stage.
    associatedtype StagesDeclaration = [MigrationStage]
    /// The stages between consecutive versions.
    static var stages: StagesDeclaration { get }
    /// ``name`` as read, whichever type declares it. Not to be declared: the package's extension
    /// gives it, and a plan without one (its name declared with a type the package does not
    /// take) does not compile.
    static var _name: String { get }
    /// ``stages`` as read; not to be declared (see ``_name``).
    static var _stages: [MigrationStage] { get }
}

extension SchemaMigrationPlan where NameDeclaration == String {
    /// `"default"`: the name a plan's rows in the metadata table carry, unless the plan names itself.
    public static var name: String { "default" }
}

extension SchemaMigrationPlan where NameDeclaration: DeclaredName {
    /// ``SchemaMigrationPlan/name`` as declared, `"default"` when nil.
    public static var _name: String { name.declaredName ?? "default" }
}

extension SchemaMigrationPlan where StagesDeclaration == [MigrationStage] {
    /// No stages: every pair of consecutive versions is a lightweight stage.
    public static var stages: [MigrationStage] { [] }
    /// ``SchemaMigrationPlan/stages`` as declared.
    public static var _stages: [MigrationStage] { stages }
}
