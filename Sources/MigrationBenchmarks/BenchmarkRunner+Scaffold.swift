import Foundation
import SchemaMigrations

extension BenchmarkRunner {
    /// `migrate scaffold` in process: introspect a database of `scaffoldTables` tables × 20
    /// columns (ours: introspection plus rendering the Swift declarations; reference: the
    /// introspection alone, so the ratio shows what rendering adds).
    mutating func scaffoldCase(log: (String) -> Void) throws {
        let tables = configuration.scaffoldTables
        let url = configuration.directory.appendingPathComponent("scaffold-\(tables).sqlite")
        try? FileManager.default.removeItem(at: url)
        try ScaffoldScaleCase.createDatabase(at: url, tables: tables)
        var ours: [Double] = []
        var reference: [Double] = []
        var rendering: [Double] = []
        var bytes = 0
        var columns = 0
        Measure.resetPeakResident()
        for _ in 0..<max(configuration.runs, 5) {
            reference.append(try Measure.seconds { _ = try SchemaIntrospection(databaseAt: url) })
            ours.append(
                try Measure.seconds {
                    let found = try SchemaIntrospection(databaseAt: url)
                    var swift: SwiftDeclarations?
                    rendering.append(
                        Measure.seconds {
                            swift = SwiftDeclarations(
                                schema: found.schema, name: "Scale", origin: url.lastPathComponent,
                                leftOut: found.undeclarable)
                        })
                    bytes = swift!.source.utf8.count
                    columns = found.schema.entities.reduce(0) { $0 + $1.attributes.count + 1 }
                })
        }
        let render = String(format: "%.1f", Timing(samples: rendering).median * 1000)
        rows.append(
            Row(
                name:
                    "scaffold: \(tables) tables, \(columns) columns, introspect + render Swift (\(bytes / 1024) KiB; render alone \(render) ms)",
                ours: Timing(samples: ours),
                reference: Timing(samples: reference), referenceName: "introspection alone",
                peakMiB: Measure.peakResidentMiB()))
        log(rows.last!.formatted)
    }
}

/// A database of many "id" INTEGER PRIMARY KEY tables with snake_case columns of every type,
/// defaults, a foreign key onto the previous table and two indexes each: what scaffold reads.
enum ScaffoldScaleCase {
    static func createDatabase(at url: URL, tables: Int) throws {
        let db = try SQLiteConnection(path: url.path)
        var sql = "BEGIN;\n"
        for table in 0..<tables {
            var columns = ["\"id\" INTEGER PRIMARY KEY"]
            for column in 0..<18 {
                let (type, value) = [
                    ("INTEGER", "0"), ("TEXT", "''"), ("REAL", "0.5"), ("BLOB", "X'00'"), ("TEXT", "NULL"),
                ][column % 5]
                columns.append(
                    "\"field_\(column)_name\" \(type)"
                        + (column % 3 == 0 ? "" : " NOT NULL DEFAULT \(value == "NULL" ? "'x'" : value)"))
            }
            columns.append(
                table == 0
                    ? "\"parent_id\" INTEGER"
                    : "\"parent_id\" INTEGER REFERENCES \"table_\(table - 1)\" (\"id\") ON DELETE CASCADE")
            sql += "CREATE TABLE \"table_\(table)\" (\(columns.joined(separator: ", ")));\n"
            sql += "CREATE INDEX \"table_\(table)_parent\" ON \"table_\(table)\" (\"parent_id\");\n"
            sql +=
                "CREATE UNIQUE INDEX \"table_\(table)_fields\" ON \"table_\(table)\" (\"field_1_name\", \"field_2_name\");\n"
        }
        try db.execute(sql + "COMMIT;")
    }
}
