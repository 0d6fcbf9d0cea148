/// Asking a planned check of the live data: execution's side of ``DataCheck`` (planning only
/// says what to ask).
extension DataCheck {
    /// Runs the check. Returns the refusal, or nil when the data allows the change. Never writes.
    func evaluate(on db: any SQLQuerying, version: Schema.Version) throws -> MigrationError? {
        switch self {
        case .tableIsEmpty(let table, let entity, let property):
            let rows = try db.scalar("SELECT count(*) FROM \(SQL.quoteIdentifier(table))")?.int64Value ?? 0
            guard rows > 0 else { return nil }
            return MigrationError(
                .unsupportedChange,
                "cannot add non-optional attribute '\(entity).\(property.property)' without a default value to a table with \(counted(rows, "row"))",
                entity: entity, property: property.property, column: property.column, version: version,
                remedy:
                    "give '\(property.property)' a default value, make it optional, or add it in a custom stage whose didMigrate fills it"
            )
        case .columnHasNoNulls(let table, let column, let entity, let property, let remedy):
            let quoted = SQL.quoteIdentifier(column)
            let count =
                try db.scalar("SELECT count(*) FROM \(SQL.quoteIdentifier(table)) WHERE \(quoted) IS NULL")?.int64Value
                ?? 0
            guard count > 0 else { return nil }
            let ids = try DataCheck.keys(of: table, where: "\(quoted) IS NULL", db: db)
            return MigrationError(
                .dataViolation,
                "'\(entity).\(property.property)' cannot become non-optional: \(counted(count, "row")) \(holds(count)) NULL",
                entity: entity, property: property.property, column: property.column, version: version, remedy: remedy,
                details: ["rows with NULL (id): " + ids.joined(separator: ", ") + (count > 10 ? ", …" : "")])
        case .noDuplicates(let table, let columns, let entity, let properties, let nullsBecome, let collations):
            let duplicates = try DataCheck.duplicates(
                in: table, columns: columns, nullsBecome: nullsBecome, collations: collations, db: db, limit: 10)
            guard !duplicates.isEmpty else { return nil }
            let total =
                try db.scalar(
                    "SELECT count(*) FROM (\(DataCheck.duplicatesQuery(table: table, columns: columns, nullsBecome: nullsBecome, collations: collations)))"
                )?.int64Value ?? 0
            // A kept uniqueness that a new collation breaks says so; a new one is made unique.
            let collationNames = Set(collations.values.map { $0.uppercased() }).sorted().joined(separator: ", ")
            let what =
                collations.isEmpty
                ? "make (\(properties.joined(separator: ", "))) unique on '\(entity)'"
                : "make (\(properties.joined(separator: ", "))) unique on '\(entity)' under its new collation \(collationNames)"
            return MigrationError(
                .dataViolation,
                "cannot \(what): \(counted(total, "value")) \(isAre(total)) shared by more than one row",
                entity: entity, property: properties.joined(separator: ", "), version: version,
                remedy:
                    "remove or merge the duplicates in a custom stage's willMigrate, or drop the uniqueness constraint",
                details: duplicates.map { "\($0.values) is shared by \($0.count) rows" }
                    + (total > 10 ? ["… and \(total - 10) more"] : []))
        case .atMostOneRow(let table, let entity, let properties, let value):
            let rows = try db.scalar("SELECT count(*) FROM \(SQL.quoteIdentifier(table))")?.int64Value ?? 0
            guard rows > 1 else { return nil }
            return MigrationError(
                .dataViolation,
                "cannot make (\(properties.joined(separator: ", "))) unique on '\(entity)': its \(rows) rows would all take the default \(value)",
                entity: entity, property: properties.joined(separator: ", "), version: version,
                remedy:
                    "make the new attribute optional (NULLs never clash) and fill distinct values in a custom stage's didMigrate, then make it unique in a later version",
                details: ["\(value) would be shared by \(rows) rows"])
        case .exactConversion(let table, let condition, let entity, let property, let change):
            let count =
                try db.scalar("SELECT count(*) FROM \(SQL.quoteIdentifier(table)) WHERE \(condition)")?.int64Value ?? 0
            guard count > 0 else { return nil }
            let ids = try DataCheck.keys(of: table, where: condition, db: db)
            return MigrationError(
                .dataViolation,
                "'\(entity).\(property.property)' cannot change \(change): \(count == 1 ? "1 value does" : "\(count) values do") not convert exactly",
                entity: entity, property: property.property, column: property.column, version: version,
                remedy:
                    "convert those values yourself in a custom stage (add a new attribute and fill it in didMigrate), or keep the type",
                details: ["rows (id): " + ids.joined(separator: ", ") + (count > 10 ? ", …" : "")])
        }
    }

    /// The keys of the first ten rows meeting `condition`, to name them: `id`, or the table's own
    /// primary key (`(1, 7)` for a composite one), read from the live table.
    static func keys(of table: String, where condition: String, db: any SQLQuerying) throws -> [String] {
        let key = try db.rows("SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk", [.text(table)])
            .compactMap { $0[0].stringValue }
        let list = key.isEmpty ? "rowid" : key.map(SQL.quoteIdentifier).joined(separator: ", ")
        // `+`, SQLite's no-op, makes each an expression: see duplicatesQuery.
        let values = key.isEmpty ? "rowid" : key.map { "+" + SQL.quoteIdentifier($0) }.joined(separator: ", ")
        return try db.rows(
            "SELECT \(values) FROM \(SQL.quoteIdentifier(table)) WHERE \(condition) ORDER BY \(list) LIMIT 10"
        ).map { row in
            row.count == 1 ? row[0].description : "(" + row.map(\.description).joined(separator: ", ") + ")"
        }
    }

    /// The values a set of columns shares across rows (NULLs never clash in SQLite's UNIQUE), most shared first.
    static func duplicates(
        in table: String, columns: [String], nullsBecome: [String: String] = [:], collations: [String: String] = [:],
        db: any SQLQuerying, limit: Int
    ) throws -> [(values: String, count: Int64)] {
        try db.rows(
            duplicatesQuery(table: table, columns: columns, nullsBecome: nullsBecome, collations: collations)
                + " ORDER BY count(*) DESC LIMIT \(limit)"
        ).map { row in
            let values = row.dropLast().map { $0.sqlLiteral }
            return (
                values: values.count == 1 ? values[0] : "(" + values.joined(separator: ", ") + ")",
                count: row.last?.int64Value ?? 0
            )
        }
    }

    /// The values are selected through SQLite's no-op unary `+`: dqlite aborts the node when a query
    /// returns a REAL value straight from a column declared `DATETIME`, `DATE` or `TIMESTAMP`, and
    /// does not look at expressions. Grouping stays on the columns, with their collations.
    static func duplicatesQuery(
        table: String, columns: [String], nullsBecome: [String: String] = [:], collations: [String: String] = [:]
    ) -> String {
        let quoted = columns.map { column in
            nullsBecome[column].map { "IFNULL(\(SQL.quoteIdentifier(column)), \($0))" } ?? SQL.quoteIdentifier(column)
        }
        let grouped = zip(columns, quoted).map { column, term in
            collations[column].map { "\(term) COLLATE \(SQL.quoteIdentifier($0))" } ?? term
        }
        let values = columns.map { column in
            nullsBecome[column].map { "IFNULL(\(SQL.quoteIdentifier(column)), \($0))" } ?? "+"
                + SQL.quoteIdentifier(column)
        }
        return "SELECT \(values.joined(separator: ", ")), count(*) FROM \(SQL.quoteIdentifier(table)) WHERE "
            + quoted.map { "\($0) IS NOT NULL" }.joined(separator: " AND ")
            + " GROUP BY \(grouped.joined(separator: ", ")) HAVING count(*) > 1"
    }
}
