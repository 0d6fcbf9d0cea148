import Foundation

@testable import SchemaMigrations

/// The reference model: a schema and every row as plain Swift values, with no SQL.
struct ModelDatabase: CustomStringConvertible, Sendable {
    struct Row: Equatable, Sendable {
        var id: Int64
        var values: [String: SQLiteValue]
    }

    struct Table: Sendable {
        var entity: Schema.Entity
        var rows: [Row]

        /// The rows as arrays in attribute order, `id` first: what reading the table gives.
        var rowArrays: [[SQLiteValue]] {
            rows.map { row in [.integer(row.id)] + entity.attributes.map { row.values[$0.name] ?? .null } }
        }

        /// True when no two rows share a value of `columns` with none of them NULL (SQLite's UNIQUE),
        /// each compared under its column's collation (`NOCASE` folds ASCII letters only).
        func isUnique(_ columns: [String]) -> Bool {
            let folded = Set(
                columns.filter { entity.attribute(named: $0)?.collation?.uppercased() == "NOCASE" })
            var seen = Set<[SQLiteValue]>()
            for row in rows {
                let key = columns.map { column -> SQLiteValue in
                    let value = row.values[column] ?? .null
                    guard folded.contains(column), case .text(let text) = value else { return value }
                    return .text(
                        String(
                            String.UnicodeScalarView(
                                text.unicodeScalars.map { scalar in
                                    ("A"..."Z").contains(scalar) ? Unicode.Scalar(scalar.value + 32)! : scalar
                                })))
                }
                if key.contains(.null) { continue }
                if !seen.insert(key).inserted { return false }
            }
            return true
        }
    }

    var version: Schema.Version
    var tables: [Table]
    /// The version's views, triggers and virtual tables (``SQLObjectGenerator``).
    var sqlObjects: [Schema.SQLObject] = []

    var schema: Schema { Schema(version: version, entities: tables.map(\.entity), sqlObjects: sqlObjects) }

    func table(_ name: String) -> Table? { tables.first { $0.entity.name == name } }

    var description: String {
        tables.map { table in
            "\(table.entity.name)("
                + table.entity.attributes.map {
                    "\($0.name): \($0.valueType.rawValue)\($0.isOptional ? "?" : "")\($0.defaultValue.map { " = \($0)" } ?? "")"
                }.joined(separator: ", ")
                + ") \(table.entity.indexes.map { ($0.isUnique ? "unique" : "index") + "(" + $0.columns.joined(separator: ",") + ")" }.joined(separator: " ")) \(table.rows.count) rows"
        }.joined(separator: "; ")
    }

    /// Writes the rows into a database whose tables already exist.
    func insertRows(into db: SQLiteConnection) throws {
        try db.transaction {
            for table in tables where !table.rows.isEmpty {
                let columns = [Schema.primaryKeyColumn] + table.entity.attributes.map(\.name)
                let insert = try db.prepare(
                    "INSERT INTO \(SQL.quoteIdentifier(table.entity.name)) (\(columns.map(SQL.quoteIdentifier).joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))"
                )
                for row in table.rowArrays {
                    insert.reset()
                    try insert.bind(row)
                    try insert.step()
                }
            }
        }
    }

    /// The differences between the model and what the database holds, row by row; empty when equal.
    func differences(from db: SQLiteConnection) throws -> [String] {
        var result: [String] = []
        let live = Set(
            try db.rows(
                // A declared virtual table and its shadow tables are the version's SQL objects, not entities.
                "SELECT lower(name) FROM pragma_table_list WHERE schema = 'main' AND type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> '_schema_migrations' AND name <> '_probe_log'"
            ).compactMap { $0[0].stringValue })
        let expected = Set(tables.map { $0.entity.name.lowercased() })
        if live != expected { result.append("tables are \(live.sorted()), expected \(expected.sorted())") }
        for table in tables where live.contains(table.entity.name.lowercased()) {
            let columns = ([Schema.primaryKeyColumn] + table.entity.attributes.map(\.name)).map(SQL.quoteIdentifier)
                .joined(separator: ", ")
            let rows = try db.rows("SELECT \(columns) FROM \(SQL.quoteIdentifier(table.entity.name)) ORDER BY \"id\"")
            let want = table.rowArrays
            if rows.count != want.count {
                result.append("\(table.entity.name) has \(rows.count) rows, expected \(want.count)")
            }
            for (got, expected) in zip(rows, want) where got != expected {
                result.append(
                    "\(table.entity.name) row \(got.first?.description ?? "?"): got \(got.map(\.sqlLiteral)), expected \(expected.map(\.sqlLiteral))"
                )
                if result.count > 5 { return result }
            }
        }
        return result
    }
}
