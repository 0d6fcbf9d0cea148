/// One row of an entity's table, read in a custom stage, with typed access by property name.
///
/// ```swift
/// try context.forEach("Trip") { trip in
///     let start: Date = try trip.value("startDate")
///     let notes = try trip.value("notes", as: String?.self)
/// }
/// ```
public struct MigrationRow: Sendable {
    /// The entity (table) the row belongs to.
    public let entity: String
    /// The row's `id`.
    public let id: Int64
    /// Column name → position, shared by every row of one query.
    let columnIndex: [String: Int]
    /// The stored values, in column order.
    let storage: [SQLiteValue]

    init(entity: String, id: Int64, columnIndex: [String: Int], storage: [SQLiteValue]) {
        self.entity = entity
        self.id = id
        self.columnIndex = columnIndex
        self.storage = storage
    }

    /// The row's columns and their stored values.
    public var values: [String: SQLiteValue] { columnIndex.mapValues { storage[$0] } }

    /// The stored value of a column, as SQLite holds it.
    public subscript(_ property: String) -> SQLiteValue? { columnIndex[property].map { storage[$0] } }

    /// The value of `property` as `type`: any type an attribute can be declared with, optionals,
    /// raw-value enums and Codable types stored as JSON included.
    /// - Throws: `MigrationError` with code `typeMismatch`, naming the entity, the property, the
    ///   type asked for and what the column holds; or naming a property the row does not have.
    public func value<T>(_ property: String, as type: T.Type = T.self) throws -> T {
        guard let stored = self[property] else {
            throw MigrationError(.invalidSchema, "'\(entity)' has no property '\(property)' at this version",
                                 entity: entity, property: property,
                                 remedy: "use one of: " + columnIndex.keys.sorted().joined(separator: ", "))
        }
        do {
            return try StoredValueDecoding.decode(stored, as: type)
        } catch let mismatch as StoredValueDecoding.Mismatch {
            throw MigrationError(.typeMismatch, "'\(entity).\(property)' of row \(id) holds \(mismatch.found), which cannot be read as \(ModelReflection.readableName(of: type))",
                                 entity: entity, property: property,
                                 remedy: "read it as the type its column stores, or as SQLiteValue through row[\"\(property)\"]")
        }
    }
}
