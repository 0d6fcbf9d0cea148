import Foundation
import Testing

@testable import SchemaMigrations

/// A foreign key's timing (`DEFERRABLE INITIALLY DEFERRED` or not) is read as SQLite enforces it,
/// wherever the table writes it: in the `REFERENCES` clause, apart from it after other column
/// constraints, on a later column (SQLite gives it to the last key declared before it), named by a
/// `CONSTRAINT`, or in a table constraint. Random tables of such columns are probed: a dangling key
/// inserted in a transaction fails at once when the key is immediate, and waits for the commit
/// when it is deferred. The scaffold, the comparisons and the testing library's validation read it
/// through the same rule.
@Suite struct ForeignKeyTimingTests {
    static let timings = [
        "DEFERRABLE INITIALLY DEFERRED", "DEFERRABLE INITIALLY IMMEDIATE", "NOT DEFERRABLE", "DEFERRABLE",
        "NOT DEFERRABLE INITIALLY DEFERRED", "CONSTRAINT timing DEFERRABLE INITIALLY DEFERRED",
    ]

    /// A small deterministic generator: the same tables on every run.
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        mutating func chance(_ percent: Int) -> Bool { next(100) < percent }
    }

    /// A table of three integer columns, each with some constraints in a random order.
    static func table(_ random: inout Generator) -> (sql: String, keyColumns: [String]) {
        var columns: [String] = []
        var keyColumns: [String] = []
        var tableKey: String?
        for position in 0..<3 {
            let name = "k\(position)"
            var constraints = ["NOT NULL", "DEFAULT 1", "COLLATE BINARY", "CHECK (\(name) > 0)", "UNIQUE"].filter { _ in
                random.chance(30)
            }
            if random.chance(70) {
                var key = "REFERENCES p (id)" + (random.chance(30) ? " ON DELETE CASCADE" : "")
                if random.chance(40) { key += " " + timings[random.next(timings.count)] }
                constraints.insert(key, at: random.next(constraints.count + 1))
                keyColumns.append(name)
            } else if tableKey == nil && random.chance(30) {
                tableKey = name
                keyColumns.append(name)
            }
            if random.chance(40) { constraints.append(timings[random.next(timings.count)]) }
            columns.append(([name, "INTEGER"] + constraints).joined(separator: " "))
        }
        if let tableKey {
            columns.append(
                "FOREIGN KEY (\(tableKey)) REFERENCES p (id)"
                    + (random.chance(50) ? " " + timings[random.next(timings.count - 1)] : ""))
        }
        return ("CREATE TABLE c (id INTEGER PRIMARY KEY, \(columns.joined(separator: ", ")))", keyColumns)
    }

    /// Whether SQLite waits for the commit to check the key on `column`.
    static func sqliteDefers(_ column: String, keyColumns: [String], in db: SQLiteConnection) throws -> Bool {
        try db.execute("BEGIN")
        defer { try? db.execute("ROLLBACK") }
        let values = ["k0", "k1", "k2"].map { $0 == column ? "99" : "1" }
        do {
            try db.execute("INSERT INTO c (k0, k1, k2) VALUES (\(values.joined(separator: ", ")))")
            return true
        } catch {
            return false
        }
    }

    @Test func everyKeysTimingIsReadAsSQLiteEnforcesIt() throws {
        var random = Generator(state: 20_261_128)
        var deferredSeen = 0
        var apartSeen = 0
        for _ in 0..<300 {
            let (sql, keyColumns) = Self.table(&random)
            let db = try SQLiteConnection(path: ":memory:")
            try db.execute(
                "PRAGMA foreign_keys = ON; CREATE TABLE p (id INTEGER PRIMARY KEY); INSERT INTO p VALUES (1)")
            try db.execute(sql)
            let definition = try TableDefinition(parsing: sql)
            for column in keyColumns {
                let expected = try Self.sqliteDefers(column, keyColumns: keyColumns, in: db)
                #expect(SchemaComparison.isDeferred(column: column, in: definition) == expected, "\(column) in \(sql)")
                if expected { deferredSeen += 1 }
            }
            if sql.contains("CHECK") && sql.range(of: #"\) (NOT )?DEFERRABLE"#, options: .regularExpression) != nil {
                apartSeen += 1
            }
        }
        #expect(deferredSeen > 30 && apartSeen > 10, "the tables exercise deferred keys and timings written apart")
    }

    /// The scaffold declares a timing written apart, so a new install defers the same keys.
    @Test func aTimingWrittenApartIsScaffoldedAndCreated() throws {
        let original = TemporaryDatabase()
        try original.execute(
            """
            CREATE TABLE p (id INTEGER PRIMARY KEY);
            CREATE TABLE c (id INTEGER PRIMARY KEY,
                a INTEGER REFERENCES p (id) ON DELETE CASCADE NOT NULL DEFERRABLE INITIALLY DEFERRED,
                b INTEGER REFERENCES p (id) COLLATE BINARY,
                d INTEGER CHECK (d > 0) DEFERRABLE INITIALLY DEFERRED);
            """)
        let lines = try SemanticSchema.lines(original.path)
        #expect(lines.contains("table c deferred key: a") && lines.contains("table c deferred key: b"))
        let schema = try SchemaIntrospection(databaseAt: original.url).schema
        let created = TemporaryDatabase()
        try PlanBuilder.migrator([schema]).migrate(databaseAt: created.url)
        let createdLines = try SemanticSchema.lines(created.path)
        #expect(createdLines == lines, "\(SemanticSchema.difference(createdLines, lines))")
    }
}
