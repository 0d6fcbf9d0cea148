/// How the data API finds an entity's rows: the `id` a ``MigrationRow`` carries and
/// `update(_:id:values:)` / `delete(_:id:)` / `forEach` take.
///
/// - The default `"id" INTEGER PRIMARY KEY`: the row's `id`.
/// - A declared key on a rowid table: the row's `rowid` (for an `INTEGER PRIMARY KEY` key, the
///   key itself; for a `UUID` or `String` key, SQLite's own row number, stable for the migration).
/// - A table with no primary key (`primaryKey = []`): its `rowid`, which rebuilds keep.
/// - A `WITHOUT ROWID` table has no such number: `fetch`, `count`, `insert` and
///   `delete(_:where:)` work; the calls by `id` are refused.
struct RowAddressing {
    /// The SQL expression that numbers rows (`"id"` or `rowid`), nil for a WITHOUT ROWID table.
    let idExpression: String?
    /// Whether the query selects the number as its first column, before the entity's columns.
    let selectsRowid: Bool
    /// The default order of `fetch`: the key's columns.
    let order: String

    init(_ entity: Schema.Entity) {
        if entity.hasImplicitID {
            idExpression = SQL.quoteIdentifier(Schema.primaryKeyColumn)
            selectsRowid = false
        } else if entity.isWithoutRowID {
            idExpression = nil
            selectsRowid = false
        } else {
            // A column may be named like the rowid (`rowid`, `oid`, `_rowid_`): use a name it leaves free.
            let columns = Set(entity.attributes.map { $0.name.sqlFolded })
            idExpression = ["rowid", "_rowid_", "oid"].first { !columns.contains($0) } ?? "rowid"
            selectsRowid = true
        }
        // A table with no declared key (rowid only) is in rowid order.
        order =
            entity.keyColumns.isEmpty
            ? (idExpression ?? "rowid") : entity.keyColumns.map(SQL.quoteIdentifier).joined(separator: ", ")
    }

    /// The number, for the calls that need one.
    /// - Throws: `MigrationError` (`unsupportedChange`) for a WITHOUT ROWID table, naming what works instead.
    func requireID(entity: String, call: String, version: Schema.Version) throws -> String {
        guard let idExpression else {
            throw MigrationError(
                .unsupportedChange, "'\(entity)' is WITHOUT ROWID: its rows have no id for \(call)", entity: entity,
                version: version,
                remedy:
                    "use fetch(_:where:) with its key columns, delete(_:where:), or execute(_:) with an UPDATE … WHERE on the key"
            )
        }
        return idExpression
    }

    /// The select list: the number first when it is not a column, then each column under its
    /// property's name (`"created_at" AS "createdAt"`), or `*` when every column is its property.
    /// - Throws: `MigrationError` naming a property the entity does not have.
    static func selectList(
        _ properties: [String]?, of table: Schema.Entity, addressing: RowAddressing,
        noSuchProperty: (String) -> MigrationError
    ) throws -> String {
        let prefix = addressing.selectsRowid ? "\(addressing.idExpression ?? "rowid"), " : ""
        let renames = table.attributes.contains { $0.propertyName != nil || isDateNamed($0) }
        guard let properties else {
            guard renames else { return prefix + "*" }
            let implicit = table.hasImplicitID ? [SQL.quoteIdentifier(Schema.primaryKeyColumn)] : []
            return prefix + (implicit + table.attributes.map(selected)).joined(separator: ", ")
        }
        var names = table.hasImplicitID ? [SQL.quoteIdentifier(Schema.primaryKeyColumn)] : []
        var seen = Set<String>()
        for property in properties where property != Schema.primaryKeyColumn || !table.hasImplicitID {
            guard let attribute = table.attribute(forProperty: property) else { throw noSuchProperty(property) }
            if seen.insert(attribute.name).inserted { names.append(selected(attribute)) }
        }
        return prefix + names.joined(separator: ", ")
    }

    /// The column, under its property's name. A column declared with a date type name is read
    /// through SQLite's no-op unary `+`: dqlite aborts the node when a query returns a REAL value
    /// straight from a `DATETIME`, `DATE` or `TIMESTAMP` column, and does not look at expressions.
    private static func selected(_ attribute: Schema.Attribute) -> String {
        let column =
            isDateNamed(attribute) ? "+" + SQL.quoteIdentifier(attribute.name) : SQL.quoteIdentifier(attribute.name)
        guard let property = attribute.propertyName ?? (isDateNamed(attribute) ? attribute.name : nil) else {
            return column
        }
        return "\(column) AS \(SQL.quoteIdentifier(property))"
    }

    private static func isDateNamed(_ attribute: Schema.Attribute) -> Bool {
        attribute.sqlType.map(ColumnTypeInference.isDateName) ?? false
    }
}
