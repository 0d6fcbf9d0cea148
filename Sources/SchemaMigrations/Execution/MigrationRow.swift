#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

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
    /// The column names, shared by every row of one query.
    let columns: RowColumns
    /// The stored values, in column order.
    let storage: RowStorage

    init(entity: String, id: Int64, columns: RowColumns, storage: RowStorage) {
        self.entity = entity
        self.id = id
        self.columns = columns
        self.storage = storage
    }

    /// The row's columns and their stored values.
    public var values: [String: SQLiteValue] {
        Dictionary(
            columns.names.indices.map { (columns.names[$0], storage[$0]) }, uniquingKeysWith: { first, _ in first })
    }

    /// The stored value of a column, as SQLite holds it; nil for a column the row was not read with.
    public subscript(_ property: String) -> SQLiteValue? { columns.position(of: property).map { storage[$0] } }

    /// The value of `property` as `type`: any type an attribute can be declared with, optionals,
    /// raw-value enums and Codable types stored as JSON included.
    /// - Throws: `MigrationError` with code `typeMismatch`, naming the entity, the property, the
    ///   type asked for and what the column holds; or naming a property the row does not have.
    @inlinable
    public func value<T>(_ property: String, as type: T.Type = T.self) throws -> T {
        // The common types without a dynamic cast, once specialized in the caller's module.
        switch self[property] {
        case .text(let text)?:
            if T.self == String.self { return text as! T }
            if T.self == String?.self { return Optional(text) as! T }
        case .integer(let number)?:
            if T.self == Int.self { return Int(number) as! T }
            if T.self == Int?.self { return Optional(Int(number)) as! T }
            if T.self == Int64.self { return number as! T }
        case .real(let number)?:
            if T.self == Double.self { return number as! T }
            if T.self == Double?.self { return Optional(number) as! T }
        case .null?:
            if T.self == String?.self { return String?.none as! T }
            if T.self == Int?.self { return Int?.none as! T }
            if T.self == Double?.self { return Double?.none as! T }
        default:
            break
        }
        return try decodedValue(property, as: type)
    }

    @usableFromInline
    func decodedValue<T>(_ property: String, as type: T.Type) throws -> T {
        guard let stored = self[property] else {
            throw MigrationError(
                .invalidSchema,
                "'\(entity)' has no property '\(property)' at this version\(columns.isPartial ? ", or it was not among the properties read" : "")",
                entity: entity, property: property,
                remedy: columns.isPartial
                    ? "add '\(property)' to the properties: the rows are read with (\(columns.names.joined(separator: ", ")))"
                    : "use one of: " + columns.names.sorted().joined(separator: ", "))
        }
        do {
            if let storage = columns.dateStorage[property], T.self == Date.self || T.self == Date?.self {
                // Julian days are REAL like seconds: only the declaration tells them apart.
                if stored.isNull, T.self == Date?.self { return Date?.none as! T }
                if let date = storage.date(from: stored) {
                    return (T.self == Date.self ? date as Any : Optional(date) as Any) as! T
                }
            }
            return try StoredValueDecoding.decode(stored, as: type)
        } catch let mismatch as StoredValueDecoding.Mismatch {
            throw MigrationError(
                .typeMismatch,
                "'\(entity).\(property)' of row \(id) holds \(mismatch.found), which cannot be read as \(ModelReflection.readableName(of: type))",
                entity: entity, property: property,
                remedy: "read it as the type its column stores, or as SQLiteValue through row[\"\(property)\"]")
        }
    }
}

/// Where a row's values are: an array of its own, or its place in the values of the batch
/// ``MigrationContext/forEach(_:where:arguments:properties:batchSize:_:)`` read it with, which the
/// batch's rows share (one allocation per batch instead of one per row).
enum RowStorage: Sendable {
    case own([SQLiteValue])
    case batch(RowBatchValues, start: Int)

    subscript(_ position: Int) -> SQLiteValue {
        switch self {
        case .own(let values): return values[position]
        case .batch(let batch, let start): return batch.values[start + position]
        }
    }
}

/// The values of a batch of rows, row after row in column order.
final class RowBatchValues: Sendable {
    let values: [SQLiteValue]

    init(_ values: [SQLiteValue]) { self.values = values }
}

/// The column names of a query's rows, with a lookup by name that does not hash: a row of a few
/// dozen columns is found faster by comparing names in turn.
final class RowColumns: Sendable {
    let names: [String]
    /// True when the rows hold only some of the entity's properties (`properties:`).
    let isPartial: Bool
    /// The columns of `Date` attributes stored otherwise than as seconds, by name.
    let dateStorage: [String: Schema.DateStorage]
    private let positions: [String: Int]?

    init(names: [String], isPartial: Bool, dateStorage: [String: Schema.DateStorage] = [:]) {
        self.names = names
        self.isPartial = isPartial
        self.dateStorage = dateStorage
        positions =
            names.count > 32
            ? Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first }) : nil
    }

    func position(of name: String) -> Int? {
        if let positions { return positions[name] }
        return names.firstIndex(of: name)
    }
}
