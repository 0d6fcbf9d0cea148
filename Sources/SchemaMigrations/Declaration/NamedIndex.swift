/// An index a model declares with its name: over properties, SQL expressions or both, each with
/// an optional collation and order, and partial when it has a `WHERE` condition.
///
/// ```swift
/// final class Customer: PersistentModel {
///     static let namedIndexes: [NamedIndex] = [
///         .unique("Customer_live_email", [.expression("lower(email)")], where: "deleted_at IS NULL"),
///         .index("Customer_recent", ["name", .column("createdAt", descending: true)]),
///         .index("Customer_kind", [.expression("json_extract(data, '$.kind')")]),
///     ]
///     var email = ""
///     var name = ""
///     var createdAt = Date.distantPast
///     var data = "{}"
///     var deletedAt: Date? = nil
///     init() {}
/// }
/// ```
///
/// A term written as a string (`"name"`) or with ``Schema/IndexElement/column(_:collation:descending:)``
/// names a property; expressions and the `WHERE` condition are SQL over the table's columns (column
/// names, not property names, where they differ). They are compared as SQLite reads them: spacing,
/// keyword case and identifier quoting do not count. Changing the terms or the condition drops the
/// index and creates it again; the table is not rebuilt.
///
/// Related SQLite documentation: <https://www.sqlite.org/partialindex.html>, <https://www.sqlite.org/expridx.html>
public struct NamedIndex: Sendable, Hashable {
    /// The index's name in the database.
    public var name: String
    /// Its terms, in order.
    public var elements: [Schema.IndexElement]
    /// Whether the terms' combination is unique (among the rows the condition selects).
    public var isUnique: Bool
    /// The `WHERE` condition of a partial index, as SQL.
    public var predicate: String?

    /// `CREATE INDEX name ON table (elements) [WHERE predicate]`.
    public static func index(_ name: String, _ elements: [Schema.IndexElement], where predicate: String? = nil)
        -> NamedIndex
    {
        NamedIndex(name: name, elements: elements, isUnique: false, predicate: predicate)
    }

    /// `CREATE UNIQUE INDEX name ON table (elements) [WHERE predicate]`.
    public static func unique(_ name: String, _ elements: [Schema.IndexElement], where predicate: String? = nil)
        -> NamedIndex
    {
        NamedIndex(name: name, elements: elements, isUnique: true, predicate: predicate)
    }

    /// The index in the schema (its properties not yet turned into column names).
    var schemaIndex: Schema.Index {
        Schema.Index(elements: elements, isUnique: isUnique, name: name, predicate: predicate)
    }
}

extension Schema.IndexElement: ExpressibleByStringLiteral {
    /// A plain column term: `"name"` in a ``NamedIndex``.
    public init(stringLiteral value: String) {
        self.init(column: value, expression: nil, collation: nil, isDescending: false)
    }
}
