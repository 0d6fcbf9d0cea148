#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What a model declares about its table's columns and key besides its properties: column names
/// (`@Attribute(column:)`), the primary key (`@Attribute(.primaryKey)`, `.autoincrement`, the
/// model's `primaryKey`) and `WITHOUT ROWID`. Reflection notes each property, then applies them
/// to the entity it read.
struct KeyDeclaration {
    /// The `@Attribute` options that change what is stored, so are not recorded among the others.
    static let storageOptions: Set<String> = ["unique", "primaryKey", "autoincrement"]

    private var keyProperties: [String] = []
    private var autoincrementProperty: String?
    private var columns: [String: String] = [:]  // property -> column, where they differ
    // property -> storage, where not seconds
    private var dateStorage: [String: (storage: Schema.DateStorage, initial: Date?)] = [:]

    mutating func note(
        property: String, options: [String], column: String?, dateStorage storage: Schema.DateStorage?, initial: Any?
    ) {
        if let storage, storage != .secondsSince1970 {
            dateStorage[property] = (storage, initial.flatMap(StoredValueType.unwrap) as? Date)
        }
        if options.contains("primaryKey") || options.contains("autoincrement") { keyProperties.append(property) }
        if options.contains("autoincrement") { autoincrementProperty = property }
        if let column, column != property { columns[property] = column }
    }

    /// The entity with its columns named, its indexes and key in column names, and its key options.
    /// - Throws: `MigrationError` (`invalidSchema`) naming the entity and property when the key is
    ///   declared twice, names no stored property, or its options do not fit it.
    func applied(to read: Schema.Entity, model: any PersistentModel.Type, version: Schema.Version) throws
        -> Schema.Entity
    {
        var entity = read
        func fail(_ message: String, property: String? = nil, remedy: String) -> MigrationError {
            MigrationError(
                .invalidSchema, message, entity: entity.name, property: property, version: version, remedy: remedy)
        }
        func column(_ property: String) -> String { columns[property] ?? property }
        for index in entity.attributes.indices {
            let property = entity.attributes[index].name
            if let (storage, initial) = dateStorage[property] {
                // The default in the declared storage: `'1970-01-01 00:00:00.000'`, not `0.0`.
                entity.attributes[index].dateStorage = storage
                if let initial, entity.attributes[index].valueType == .date, entity.attributes[index].generated == nil {
                    entity.attributes[index].defaultValue = storage.storedValue(initial).sqlLiteral
                }
            }
            guard let name = columns[property] else { continue }
            entity.attributes[index].name = name
            entity.attributes[index].propertyName = property
        }
        for index in entity.indexes.indices {
            entity.indexes[index].columns = entity.indexes[index].columns.map(column)
            entity.indexes[index].elements = entity.indexes[index].elements?.map { element in
                var named = element
                named.column = element.column.map(column)
                return named
            }
        }
        entity.constraints = entity.constraints.map { $0.namingColumns(column) }
        for (name, properties) in model._indexNames.sorted(by: { $0.key < $1.key }) {
            let columns = properties.map(column)
            // (A NamedIndex has its own name: indexNames names the plain indexes.)
            guard
                let index = entity.indexes.firstIndex(where: {
                    $0.columns == columns && $0.elements == nil && $0.predicate == nil
                })
            else {
                throw fail(
                    "'\(entity.name)' names the index \(name) on (\(properties.joined(separator: ", "))), which it does not declare",
                    remedy: "declare the index in indexes or uniqueness, or correct its properties in indexNames")
            }
            entity.indexes[index].name = name
        }

        let declared = model._primaryKey
        if let declared, !keyProperties.isEmpty, declared != keyProperties {
            throw fail(
                "'\(entity.name)' declares its primary key twice: primaryKey (\(declared.joined(separator: ", "))) and @Attribute(.primaryKey) on \(keyProperties.joined(separator: ", "))",
                remedy:
                    "declare it one way: list every key property in primaryKey, or mark each with @Attribute(.primaryKey)"
            )
        }
        if let key = declared ?? (keyProperties.isEmpty ? nil : keyProperties) {
            for property in key where entity.attribute(forProperty: property) == nil {
                throw fail(
                    "the primary key of '\(entity.name)' names '\(property)', which is not a stored property of '\(entity.name)'",
                    property: property,
                    remedy: "use one of: " + entity.attributes.map(\.property).joined(separator: ", "))
            }
            guard Set(key).count == key.count else {
                throw fail(
                    "the primary key of '\(entity.name)' lists a property twice: (\(key.joined(separator: ", ")))",
                    remedy: "list each property once")
            }
            entity.primaryKey = key.map { entity.attribute(forProperty: $0)!.name }
        }
        if let property = autoincrementProperty {
            guard entity.primaryKey?.count == 1, entity.attribute(forProperty: property)?.valueType == .integer else {
                throw fail(
                    "'\(entity.name).\(property)' is AUTOINCREMENT, which SQLite allows only on a single INTEGER PRIMARY KEY column",
                    property: property,
                    remedy: "make '\(property)' an integer and the table's only key property, or remove .autoincrement")
            }
            entity.isAutoincrement = true
        }
        if model._withoutRowID {
            guard entity.primaryKey != nil else {
                throw fail(
                    "'\(entity.name)' is WITHOUT ROWID but declares no primary key",
                    remedy: "mark its key with @Attribute(.primaryKey), or list it in primaryKey")
            }
            guard !entity.isAutoincrement else {
                throw fail(
                    "'\(entity.name)' is WITHOUT ROWID, which SQLite does not allow with AUTOINCREMENT",
                    remedy: "remove .autoincrement or withoutRowID")
            }
            entity.isWithoutRowID = true
        }
        entity.isStrict = model._strict
        return entity
    }
}
