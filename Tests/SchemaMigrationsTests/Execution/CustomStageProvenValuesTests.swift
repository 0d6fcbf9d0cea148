import Foundation
import Testing

@testable import SchemaMigrations

/// A column the stage adds and the code fills only through the data API's `update`, each value
/// proven readable as it is bound, is not read again after the code: the check could find nothing
/// there. Anything else it could find keeps it reading the column: a value the API cannot prove,
/// raw SQL writing the column, a column that held values before the stage.
@Suite struct CustomStageProvenValuesTests {
    typealias A = PlanBuilder

    /// `Row` with a title at V1; V2 adds `extra` of `type`, with no default.
    static func database(extra type: Schema.ValueType, rows: String = "(1, 'a'), (2, 'b')") throws -> (
        TemporaryDatabase, [Schema]
    ) {
        let db = TemporaryDatabase()
        let title = A.attribute("title", .string, default: "''")
        let v1 = A.schema(1, [Schema.Entity(name: "Row", attributes: [title])])
        let v2 = A.schema(
            2, [Schema.Entity(name: "Row", attributes: [title, A.attribute("extra", type, optional: true)])])
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute("INSERT INTO Row (id, title) VALUES \(rows)")
        return (db, [v1, v2])
    }

    /// Migrates with `didMigrate` on a recorded connection; the statements that read the table
    /// after the code to check its stored values.
    static func valueChecks(
        _ db: TemporaryDatabase, _ schemas: [Schema], _ code: @escaping @Sendable (MigrationContext) throws -> Void
    ) throws -> [String] {
        let connection = try db.connect()
        let recorder = StatementRecorder()
        connection.startRecording(into: recorder)
        defer { connection.stopRecording() }
        _ = try A.migrator(schemas, kind: .custom, didMigrate: code).migrate(using: connection)
        return recorder.entries.compactMap { entry in
            guard case .statement(let sql, _) = entry, sql.hasPrefix("SELECT sum(") else { return nil }
            return sql
        }
    }

    @Test func aNewColumnFilledThroughTheDataAPIWithReadableValuesIsNotReadAgain() throws {
        let (db, schemas) = try Self.database(extra: .string)
        let checks = try Self.valueChecks(db, schemas) { context in
            try context.forEach("Row") { row in
                try context.update("Row", id: row.id, values: ["extra": "\(try row.value("title", as: String.self))!"])
            }
        }
        #expect(checks == [])
        #expect(try db.rows("SELECT extra FROM Row ORDER BY id") == [["'a!'"], ["'b!'"]])
        #expect(try db.recordedVersion() == "2.0.0")
    }

    @Test func severalPropertiesAtOnceAreProvenToo() throws {
        let (db, schemas) = try Self.database(extra: .integer)
        let checks = try Self.valueChecks(db, schemas) { context in
            try context.update("Row", id: 1, values: ["extra": 7, "title": "seven"])
        }
        // `title` held values before the stage: it is read; `extra` is not.
        #expect(checks.count == 1 && checks[0].contains("\"title\"") && !checks[0].contains("\"extra\""), "\(checks)")
        #expect(try db.rows("SELECT title, extra FROM Row ORDER BY id") == [["'seven'", "7"], ["'b'", "NULL"]])
    }

    @Test func aValueTheDataAPICannotProveIsCheckedAndRefusedAsBefore() throws {
        let (db, schemas) = try Self.database(extra: .string)
        let before = try db.bytes()
        let error = try #require(throws: MigrationError.self) {
            try A.migrator(
                schemas, kind: .custom,
                didMigrate: { context in
                    try context.update("Row", id: 1, values: ["extra": "fine"])
                    try context.update("Row", id: 2, values: ["extra": SQLiteValue.blob([0x41])])
                }
            ).migrate(databaseAt: db.url)
        }
        #expect(error.code == .dataViolation)
        #expect(
            error.message
                == "after the custom stage 1.0.0 → 2.0.0, 'Row.extra' (String) holds 1 value its declaration cannot read (blob); everything was rolled back"
        )
        #expect(error.details == ["rows (id): 2"])
        #expect(try db.bytes() == before)
    }

    @Test func anIntegerBoundToATextColumnIsNotProvenSoTheColumnIsReadAndPasses() throws {
        // SQLite stores it as text, which a String reads; the proof does not follow conversions,
        // so the column is read.
        let (db, schemas) = try Self.database(extra: .string)
        let checks = try Self.valueChecks(db, schemas) { context in
            try context.update("Row", id: 1, values: ["extra": SQLiteValue.integer(12)])
        }
        #expect(checks.count == 1 && checks[0].contains("\"extra\""), "\(checks)")
        #expect(try db.rows("SELECT extra, typeof(extra) FROM Row WHERE id = 1") == [["'12'", "'text'"]])
    }

    @Test func rawSQLWritingTheColumnTooKeepsItChecked() throws {
        let (db, schemas) = try Self.database(extra: .integer)
        let error = try #require(throws: MigrationError.self) {
            try A.migrator(
                schemas, kind: .custom,
                didMigrate: { context in
                    try context.update("Row", id: 1, values: ["extra": 1])
                    try context.execute("UPDATE Row SET extra = 'two' WHERE id = 2")
                }
            ).migrate(databaseAt: db.url)
        }
        #expect(error.code == .dataViolation)
        #expect(error.details == ["rows (id): 2"])
    }

    @Test func aTriggerWritingTheTableKeepsItChecked() throws {
        let (db, schemas) = try Self.database(extra: .string)
        let error = try #require(throws: MigrationError.self) {
            try A.migrator(
                schemas, kind: .custom,
                didMigrate: { context in
                    try context.execute(
                        "CREATE TEMP TRIGGER spoil AFTER UPDATE OF extra ON main.Row BEGIN UPDATE Row SET extra = X'00' WHERE id = 2; END"
                    )
                    try context.update("Row", id: 1, values: ["extra": "fine"])
                }
            ).migrate(databaseAt: db.url)
        }
        #expect(error.code == .dataViolation)
        #expect(error.details == ["rows (id): 2"])
    }

    @Test func aColumnThatHeldValuesBeforeTheStageIsStillReadInFull() throws {
        // `label` existed at V1 and holds a blob no String reads, in a row the code leaves alone:
        // the check, which reads the whole column the code wrote, refuses it as it always did.
        let db = TemporaryDatabase()
        let entity = Schema.Entity(name: "Row", attributes: [A.attribute("label", .string, optional: true)])
        var v2Entity = entity
        v2Entity.attributes.append(A.attribute("extra", .string, optional: true))
        let schemas = [A.schema(1, [entity]), A.schema(2, [v2Entity])]
        try A.migrator([schemas[0]]).migrate(databaseAt: db.url)
        try db.execute("INSERT INTO Row (id, label) VALUES (1, 'a'), (2, X'00')")
        let error = try #require(throws: MigrationError.self) {
            try A.migrator(
                schemas, kind: .custom,
                didMigrate: { context in try context.update("Row", id: 1, values: ["label": "b"]) }
            ).migrate(databaseAt: db.url)
        }
        #expect(error.code == .dataViolation)
        #expect(error.details == ["rows (id): 2"])
    }

    /// What the footprint lets the proof stand on: the data API's own UPDATE and nothing else
    /// writing the table; raw SQL writing the column, an insert, or a table dropped and created
    /// anew (`CREATE TABLE … AS SELECT` fills it without an insert) take it away.
    @Test(arguments: [
        ("SELECT extra FROM t", true), ("UPDATE t SET extra = 'x'", false),
        ("INSERT INTO t (extra) VALUES ('x')", false),
        ("DROP TABLE t; CREATE TABLE t AS SELECT 1 AS id, X'00' AS extra", false),
        ("ALTER TABLE t ADD COLUMN other", false),
    ])
    func onlyTheDataAPIsOwnUpdateLeavesAColumnProven(sql: String, proven: Bool) throws {
        let db = try SQLiteConnection(path: ":memory:")
        try db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, extra TEXT)")
        let footprint = CodeFootprint(existing: ["t"], sound: [])
        try db.observingAccess(footprint.observer(on: db)) {
            footprint.isCompilingDataAPIUpdate = true
            _ = try db.prepare("UPDATE t SET extra = ? WHERE id = ?")
            footprint.isCompilingDataAPIUpdate = false
            #expect(footprint.wroteOnlyProvenValues(table: "t", column: "extra"))
            try db.execute(sql)
        }
        #expect(footprint.wroteOnlyProvenValues(table: "t", column: "extra") == proven)
    }

    /// The proof agrees with SQLite: a value proven readable, bound to a column of any declared
    /// type (a STRICT table's included), is stored as a value the check's own SQL passes.
    @Test(arguments: ["TEXT", "INTEGER", "REAL", "NUMERIC", "BLOB", "", "VARCHAR(20)", "BOOLEAN", "DATETIME", "ANY"])
    func aProvenValueIsOneTheCheckPasses(declaredType: String) throws {
        let values: [SQLiteValue] = [
            .null, .integer(0), .integer(1), .integer(2), .integer(-7), .integer(Int64.max), .real(0), .real(1),
            .real(1.5), .real(-2.25), .real(1e20), .real(.infinity), .text(""), .text("abc"), .text("12"),
            .text(" 12 "), .text("1e5"), .text("-1.5"), .text("0x10"), .text("12abc"), .text("Trip 1 / 2"),
            .text("2024-01-02"), .text("\t3\n"), .blob([]), .blob([0x41]),
        ]
        let db = try SQLiteConnection(path: ":memory:")
        let affinity = Schema.StorageType(affinityOf: declaredType)
        for strict in declaredType == "ANY" || declaredType == "TEXT" || declaredType == "INTEGER"
            ? [false, true] : [false]
        {
            try db.execute("DROP TABLE IF EXISTS t; CREATE TABLE t (c \(declaredType))\(strict ? " STRICT" : "")")
            for value in values {
                try db.execute("DELETE FROM t")
                do {
                    try db.execute("INSERT INTO t (c) VALUES (?)", [value])
                } catch {
                    continue  // a STRICT column refused it: nothing stored
                }
                for valueType in Schema.ValueType.allCases
                where StoredValueCheck.isReadable(value, as: valueType, affinity: affinity) {
                    let attribute = Schema.Attribute(name: "c", valueType: valueType, isOptional: true)
                    let refused = try db.scalar("SELECT \(StoredValueCheck.unreadable(attribute)) FROM t")
                    #expect(
                        refused?.int64Value != 1,
                        "\(value) in \(declaredType)\(strict ? " STRICT" : "") proven readable as \(valueType), but refused"
                    )
                }
            }
        }
    }

    @Test func theCommonValuesAreProven() {
        #expect(StoredValueCheck.isReadable(.text("Trip 1 / 20"), as: .string, affinity: .text))
        #expect(StoredValueCheck.isReadable(.text("12"), as: .string, affinity: .text))
        #expect(!StoredValueCheck.isReadable(.text("12"), as: .string, affinity: .numeric))
        #expect(StoredValueCheck.isReadable(.integer(12), as: .integer, affinity: .integer))
        #expect(StoredValueCheck.isReadable(.integer(1), as: .bool, affinity: .integer))
        #expect(!StoredValueCheck.isReadable(.integer(2), as: .bool, affinity: .integer))
        #expect(StoredValueCheck.isReadable(.real(1.5), as: .double, affinity: .real))
        #expect(StoredValueCheck.isReadable(.real(1.7e9), as: .date, affinity: .real))
        #expect(StoredValueCheck.isReadable(.blob([1]), as: .data, affinity: .blob))
        #expect(StoredValueCheck.isReadable(.null, as: .integer, affinity: .integer))
    }
}
