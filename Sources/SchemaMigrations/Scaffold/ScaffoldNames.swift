/// The Swift names of one schema's declarations: a type per entity, a property per attribute.
///
/// Names are idiomatic where the SQL name allows (`album_tracks` → `AlbumTracks`, `ArtistId` →
/// `artistID`), unique (a second `createdAt` becomes `createdAt2`), never a name the generated
/// file itself uses (`Date`, `Schema`, the version's enum), and backquoted when a keyword.
struct ScaffoldNames {
    /// Entity name → type name (unescaped: type names are never keywords here).
    private(set) var types: [String: String] = [:]
    /// Entity name → (column name → property name, unescaped).
    private(set) var properties: [String: [String: String]] = [:]

    /// Type names the generated file relies on: a model named so would shadow them inside the
    /// version. Every capitalised name a rendering writes outside a string literal must be here
    /// (a test renders every feature and compares).
    static let reservedTypeNames: Set<String> = [
        "Any", "Array", "Attribute", "Bool", "Data", "Date", "Decimal", "Dictionary", "Double", "Error", "Float",
        "ForeignKeyReference",
        "Foundation", "Int", "MigrationStage", "NamedIndex", "Never", "Optional", "PersistentModel", "Relationship",
        "Schema", "SchemaMigrationPlan",
        "SchemaMigrations", "Sendable", "Set", "String", "Transient", "URL", "UUID", "VersionedSchema",
    ]

    /// - Parameter taken: type names already used in the file (the version's and the plan's enums).
    init(schema: Schema, taken: Set<String>) {
        var usedTypes = taken.union(Self.reservedTypeNames)
        for (position, entity) in schema.entities.enumerated() {
            var base = SwiftIdentifier.typeName(entity.name)
            if !SwiftIdentifier.isUsable(base) || SwiftIdentifier.keywords.contains(base) {
                base = "Table\(position + 1)"
            }
            if usedTypes.contains(base) { base += "Table" }
            let name = SwiftNames.unique(base, taken: &usedTypes)
            types[entity.name] = name
            properties[entity.name] = Self.propertyNames(of: entity)
        }
    }

    /// The type name of the entity `entity`.
    func type(_ entity: String) -> String { types[entity] ?? entity }

    /// The property name (escaped for source) of `column` of `entity`; the implicit key is `id`.
    func property(_ column: String, of entity: String) -> String {
        SwiftIdentifier.escaped(unescapedProperty(column, of: entity))
    }

    /// The property name of `column` of `entity` as reflection reads it (never backquoted).
    func unescapedProperty(_ column: String, of entity: String) -> String {
        properties[entity]?[column] ?? column
    }

    /// Property names for the attributes: the schema's own property name when it has one, else
    /// one made from the column name; relationships keep theirs.
    private static func propertyNames(of entity: Schema.Entity) -> [String: String] {
        var used = Set(entity.relationships.map(\.name))
        if entity.hasImplicitID { used.insert(Schema.primaryKeyColumn) }
        var names: [String: String] = [:]
        if entity.hasImplicitID { names[Schema.primaryKeyColumn] = Schema.primaryKeyColumn }
        for (position, attribute) in entity.attributes.enumerated() {
            var base = attribute.propertyName ?? SwiftIdentifier.propertyName(attribute.name)
            if !SwiftIdentifier.isUsable(base) {  // `self` → `selfColumn`; no letter at all → `column3`
                base =
                    !base.isEmpty && SwiftIdentifier.isUsable(base + "Column")
                    ? base + "Column" : "column\(position + 1)"
            }
            let name = SwiftNames.unique(base, taken: &used)
            names[attribute.name] = name
        }
        return names
    }
}
