#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reads a model class's declaration into a `Schema.Entity` by reflecting a fresh instance.
enum ModelReflection {
    static func entity(of model: any PersistentModel.Type, version: Schema.Version) throws -> Schema.Entity {
        let entityName = model._entityName
        let instance = model.init()
        var attributes: [Schema.Attribute] = []
        var indexes: [Schema.Index] = []
        var relationships: [Schema.Relationship] = []
        let children = Self.children(of: instance)
        // A second instance tells a constant initial value from one computed anew (`Date()`, `UUID()`).
        var secondValues: [String: Any] = [:]
        for child in Self.children(of: model.init()) {
            if let label = child.label { secondValues[label] = child.value }
        }
        var keys = KeyDeclaration()
        for child in children {
            guard var name = child.label else { continue }
            if child.value is TransientMarker { continue }
            let declared = child.value as? DeclaredAttribute
            let declaredRelationship = child.value as? DeclaredRelationship
            if declared != nil || declaredRelationship != nil, name.hasPrefix("_") { name.removeFirst() }
            if name.hasPrefix("$__lazy_storage_$_") { continue }  // `lazy var` storage is not a column
            let valueType: Any.Type =
                declared?.declaredValueType ?? declaredRelationship?.declaredValueType ?? type(of: child.value)
            if let reference = modelReference(valueType) {
                relationships.append(
                    Schema.Relationship(
                        name: name, destination: reference.model._entityName, isToMany: reference.isToMany,
                        isOptional: reference.isOptional,
                        deleteRule: declaredRelationship?.declaredDeleteRule ?? .nullify,
                        inverse: declaredRelationship?.declaredInverse,
                        originalName: declaredRelationship?.declaredOriginalName,
                        hashModifier: declaredRelationship?.declaredHashModifier))
                continue
            }
            if declaredRelationship != nil {
                throw MigrationError(
                    .unsupportedType,
                    "'\(entityName).\(name)' is declared @Relationship but its type \(readableName(of: valueType)) is not a model, an optional of one or an array of them",
                    entity: entityName, property: name, version: version,
                    remedy: "use @Attribute for a value, or point it at a PersistentModel")
            }
            guard let stored = StoredValueType(valueType) else {
                throw MigrationError(
                    .unsupportedType,
                    "'\(entityName).\(name)' has type \(readableName(of: valueType)), which cannot be stored in SQLite",
                    entity: entityName, property: name, version: version,
                    remedy:
                        "use an integer, floating-point, Bool, String, Date, Data, UUID, URL or Decimal type, an optional of one, a RawRepresentable or Codable type, or mark the property @Transient"
                )
            }
            var defaultValue: String?
            do {
                func initial(_ value: Any) -> Any? {
                    if let declared = value as? DeclaredAttribute { return declared.declaredDefault }
                    return value
                }
                defaultValue = try initial(child.value).flatMap { try stored.sqlLiteral(for: $0) }
                let second = try secondValues[child.label!].flatMap(initial).flatMap { try stored.sqlLiteral(for: $0) }
                if defaultValue != nil && (second != defaultValue || isCurrentTime(initial(child.value))) {
                    // not a constant: it would change the version's hash from one launch to the next
                    defaultValue = nil
                }
                if let expression = declared?.declaredDefaultExpression { defaultValue = expression }
                if declared?.declaredGenerated != nil { defaultValue = nil }  // SQLite computes the values
            } catch {
                throw MigrationError(
                    .unsupportedType, "the default value of '\(entityName).\(name)' cannot be stored: \(error)",
                    entity: entityName, property: name, version: version)
            }
            let options = declared?.declaredOptions ?? []
            attributes.append(
                Schema.Attribute(
                    name: name, valueType: stored.valueType, isOptional: stored.isOptional, defaultValue: defaultValue,
                    originalName: declared?.declaredOriginalName, hashModifier: declared?.declaredHashModifier,
                    options: options.filter { !KeyDeclaration.storageOptions.contains($0) }.sorted(),
                    swiftType: stored.swiftTypeName,
                    references: declared?.declaredReference, sqlType: declared?.declaredSQLType,
                    check: declared?.declaredCheck, collation: declared?.declaredCollation,
                    generated: declared?.declaredGenerated, notNullOnConflict: declared?.declaredNotNullOnConflict))
            keys.note(
                property: name, options: options, column: declared?.declaredColumn,
                dateStorage: declared?.declaredDateStorage, initial: declared.map { $0.declaredDefault } ?? child.value)
            if options.contains("unique") { indexes.append(Schema.Index([name], isUnique: true)) }
        }
        indexes += model._uniqueness.map { Schema.Index($0, isUnique: true) }
        indexes += model._indexes.map { Schema.Index($0) }
        indexes += model._namedIndexes.map(\.schemaIndex)
        return try keys.applied(
            to: Schema.Entity(
                name: entityName, originalName: model._originalName, hashModifier: model._hashModifier,
                attributes: attributes, indexes: deduplicated(indexes), relationships: relationships,
                constraints: model._constraints, primaryKeyOnConflict: model._primaryKeyOnConflict),
            model: model, version: version)
    }

    /// The stored properties of an instance, superclass properties first, as Swift lays them out.
    private static func children(of instance: Any) -> [Mirror.Child] {
        var mirror: Mirror? = Mirror(reflecting: instance)
        var children: [Mirror.Child] = []
        while let current = mirror {
            children.insert(contentsOf: current.children, at: 0)
            mirror = current.superclassMirror
        }
        return children
    }

    /// True for a date within a day of now: `Date()` or `.now` as an initial value, which two
    /// instances made within the same clock tick would not reveal. A released schema's constant
    /// date is never that close to the moment a later launch reads it.
    private static func isCurrentTime(_ value: Any?) -> Bool {
        guard let value, let date = StoredValueType.unwrap(value) as? Date else { return false }
        return abs(date.timeIntervalSinceNow) < 86_400
    }

    /// Keeps the first declaration of each index structure (`@Attribute(.unique)` and a
    /// `uniqueness` entry for the same property are one constraint), but for indexes of that
    /// structure each named otherwise: a table may hold several over the same columns.
    private static func deduplicated(_ indexes: [Schema.Index]) -> [Schema.Index] {
        var kept: [Schema.Index] = []
        for index in indexes where !kept.contains(where: { $0.isSameDeclaration(as: index) }) { kept.append(index) }
        return kept
    }

    /// `FileHandle?` rather than `Optional<FileHandle>`.
    static func readableName(of type: Any.Type) -> String {
        if let optional = type as? any OptionalMarker.Type { return readableName(of: optional.wrappedType) + "?" }
        return String(describing: type)
    }

    /// The model a property refers to: `Trip?` (optional to-one), `Trip` (to-one), `[Trip]` (to-many).
    private static func modelReference(_ type: Any.Type) -> (
        model: any PersistentModel.Type, isToMany: Bool, isOptional: Bool
    )? {
        var base = type
        var isOptional = false
        if let optional = base as? any OptionalMarker.Type {
            base = optional.wrappedType
            isOptional = true
        }
        if let model = base as? any PersistentModel.Type { return (model, false, isOptional) }
        if let array = base as? any ArrayMarker.Type, let model = array.elementType as? any PersistentModel.Type {
            return (model, true, true)
        }
        return nil
    }
}

/// Lets reflection see an array's element type.
protocol ArrayMarker {
    static var elementType: Any.Type { get }
}

extension Array: ArrayMarker {
    static var elementType: Any.Type { Element.self }
}
