import Foundation
import SchemaMigrations

/// A wide database as another tool makes it, for timing introspection: `tables` tables of
/// `columns` columns each, with the conventions introspection maps (PascalCase, `TableNId` keys,
/// NVARCHAR/NUMERIC/DATETIME/BOOLEAN types, a CHECK, a collation, default expressions, a foreign
/// key onto the previous table's key, a named index, a few rows so date storage is read from
/// values).
public enum IntrospectionScaleCase {
    /// The database did not come out as made: a table was left out.
    struct Failure: Error, CustomStringConvertible { var description: String }

    /// Creates the database at `url` (replacing any file there).
    public static func createDatabase(at url: URL, tables: Int, columns: Int) throws {
        try? FileManager.default.removeItem(at: url)
        let db = try SQLiteConnection(path: url.path, mode: .readWriteCreate)
        try db.execute("BEGIN")
        for table in 0..<tables {
            let name = "Table\(table)"
            var definitions = [
                "\"\(name)Id\" INTEGER NOT NULL",
                "\"Title\" NVARCHAR(160) NOT NULL COLLATE NOCASE CHECK (length(\"Title\") > 0)",
            ]
            if table > 0 {
                definitions.append(
                    "\"Table\(table - 1)Id\" INTEGER REFERENCES \"Table\(table - 1)\" (\"Table\(table - 1)Id\") ON DELETE CASCADE"
                )
            }
            var column = definitions.count
            while column < columns {
                switch column % 5 {
                case 0: definitions.append("\"Price\(column)\" NUMERIC(10,2) NOT NULL DEFAULT 0")
                case 1: definitions.append("\"created_at_\(column)\" DATETIME DEFAULT CURRENT_TIMESTAMP")
                case 2: definitions.append("\"IsDone\(column)\" BOOLEAN NOT NULL DEFAULT FALSE")
                case 3: definitions.append("\"Count\(column)\" INTEGER NOT NULL DEFAULT (1 + 1)")
                default: definitions.append("\"Note\(column)\" TEXT")
                }
                column += 1
            }
            definitions.append("CONSTRAINT \"PK_\(name)\" PRIMARY KEY (\"\(name)Id\")")
            try db.execute("CREATE TABLE \"\(name)\" (\(definitions.joined(separator: ", ")))")
            try db.execute("CREATE INDEX \"IFK_\(name)Title\" ON \"\(name)\" (\"Title\")")
            try db.execute(
                "INSERT INTO \"\(name)\" (\"\(name)Id\", \"Title\") VALUES (1, 'one'), (2, 'two'), (3, 'three')")
        }
        try db.execute("COMMIT")
    }

    /// Introspects the database at `url` `runs` times; `then` runs on each result inside the
    /// timing (a later step, such as rendering Swift, adds itself there).
    /// - Returns: the timings, and the last result.
    /// - Returns: the wall-clock timings, the CPU time of each run (what a loaded machine does
    ///   not inflate), and the last result.
    public static func time(_ url: URL, runs: Int, then: (SchemaIntrospection) throws -> Void = { _ in }) throws -> (
        Timing, cpu: Timing, SchemaIntrospection
    ) {
        var samples: [Double] = []
        var cpu: [Double] = []
        var last: SchemaIntrospection?
        for _ in 0..<runs {
            let cpuStart = threadCPUSeconds()
            samples.append(
                try Measure.seconds {
                    let found = try SchemaIntrospection(databaseAt: url)
                    try then(found)
                    last = found
                })
            cpu.append(threadCPUSeconds() - cpuStart)
        }
        return (Timing(samples: samples), Timing(samples: cpu), last!)
    }

    /// The CPU time this thread has used, in seconds.
    static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// The reference: reading every table's `table_xinfo`, `index_list` and `foreign_key_list`,
    /// the pragmas introspection starts from, and nothing else.
    public static func timePragmas(_ url: URL, runs: Int) throws -> Timing {
        var samples: [Double] = []
        for _ in 0..<runs {
            samples.append(
                try Measure.seconds {
                    let db = try SQLiteConnection(path: url.path, mode: .readOnly)
                    for row in try db.rows("SELECT name FROM sqlite_schema WHERE type = 'table'") {
                        let name = SQL.quoteString(row[0].stringValue ?? "")
                        _ = try db.rows("SELECT * FROM pragma_table_xinfo(\(name))")
                        _ = try db.rows("SELECT * FROM pragma_index_list(\(name))")
                        _ = try db.rows("SELECT * FROM pragma_foreign_key_list(\(name))")
                    }
                })
        }
        return Timing(samples: samples)
    }
}

extension BenchmarkRunner {
    /// `introspect`: `SchemaIntrospection` of a database of ``Configuration/introspectTables``
    /// tables × ``Configuration/introspectColumns`` columns, in process; every table must come out declared.
    mutating func introspectCase(log: (String) -> Void) throws {
        let tables = configuration.introspectTables
        let columns = configuration.introspectColumns
        let url = configuration.directory.appendingPathComponent("introspect-\(tables)x\(columns).sqlite")
        try IntrospectionScaleCase.createDatabase(at: url, tables: tables, columns: columns)
        let runs = max(configuration.runs, 5)
        Measure.resetPeakResident()
        let (ours, cpu, found) = try IntrospectionScaleCase.time(url, runs: runs)
        guard found.undeclarable.isEmpty, found.schema.entities.count == tables else {
            throw IntrospectionScaleCase.Failure(
                description:
                    "introspect: \(found.undeclarable.count) tables left out: \(found.undeclarable.first.map { "\($0.table): \($0.notes)" } ?? "")"
            )
        }
        let reference = try IntrospectionScaleCase.timePragmas(url, runs: runs)
        rows.append(
            Row(
                name:
                    "introspect: \(tables) tables × \(columns) columns (\(tables * columns) columns), every table declared",
                ours: ours,
                reference: reference, referenceName: "the pragmas alone (table_xinfo, index_list, foreign_key_list)",
                peakMiB: Measure.peakResidentMiB()))
        log(
            rows.last!.formatted
                + String(format: " (CPU time: median %.1f ms, min %.1f ms)", cpu.median * 1000, cpu.min * 1000))
    }
}
