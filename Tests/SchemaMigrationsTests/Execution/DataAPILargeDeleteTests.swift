import Foundation
import Testing

@testable import SchemaMigrations

/// A delete that follows references keeps the deleted rows' keys in memory for up to
/// `MigrationContext.deletedKeysInMemory` rows, and in a temporary table beyond: the rules apply
/// the same either way, as SQLite's own foreign key actions apply them, and memory stays flat.
@Suite struct DataAPILargeDeleteTests {
    typealias A = PlanBuilder

    static let trips = 1500

    /// `Trip` with `Stop`s (cascade, each with a `Photo`, cascade), `Note`s (nullify) and
    /// `Ticket`s (deny); V2 adds a column to Trip.
    static let entities: [Schema.Entity] = [
        Schema.Entity(
            name: "Trip", attributes: [A.attribute("name", .string, default: "''")],
            relationships: [
                Schema.Relationship(
                    name: "stops", destination: "Stop", isToMany: true, deleteRule: .cascade, inverse: "trip"),
                Schema.Relationship(
                    name: "notes", destination: "Note", isToMany: true, deleteRule: .nullify, inverse: "trip"),
                Schema.Relationship(
                    name: "tickets", destination: "Ticket", isToMany: true, deleteRule: .deny, inverse: "trip"),
            ]),
        Schema.Entity(
            name: "Stop", attributes: [A.attribute("place", .string, default: "''")],
            relationships: [
                Schema.Relationship(name: "trip", destination: "Trip", isToMany: false),
                Schema.Relationship(
                    name: "photos", destination: "Photo", isToMany: true, deleteRule: .cascade, inverse: "stop"),
            ]),
        Schema.Entity(
            name: "Photo", attributes: [A.attribute("file", .string, default: "''")],
            relationships: [Schema.Relationship(name: "stop", destination: "Stop", isToMany: false)]),
        Schema.Entity(
            name: "Note", attributes: [A.attribute("text", .string, default: "''")],
            relationships: [Schema.Relationship(name: "trip", destination: "Trip", isToMany: false)]),
        Schema.Entity(
            name: "Ticket", attributes: [A.attribute("code", .string, default: "''")],
            relationships: [Schema.Relationship(name: "trip", destination: "Trip", isToMany: false)]),
    ]

    static var schemas: [Schema] {
        var target = entities
        target[0].attributes.append(A.attribute("extra", .string, optional: true))
        return [A.schema(1, entities), A.schema(2, target)]
    }

    /// 1,500 trips, two stops each with a photo, a note each, tickets for the trips above 1,400.
    static func database() throws -> TemporaryDatabase {
        let db = TemporaryDatabase()
        try A.migrator([schemas[0]]).migrate(databaseAt: db.url)
        try db.execute(
            """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(trips))
            INSERT INTO Trip (id, name) SELECT i, 'trip ' || i FROM n;
            INSERT INTO Stop (id, place, trip_id) SELECT 2 * id - 1, 'a', id FROM Trip UNION ALL SELECT 2 * id, 'b', id FROM Trip;
            INSERT INTO Photo (id, file, stop_id) SELECT id, 'p' || id, id FROM Stop;
            INSERT INTO Note (id, text, trip_id) SELECT id, 'n', id FROM Trip;
            INSERT INTO Ticket (id, code, trip_id) SELECT id, 't', id FROM Trip WHERE id > 1400;
            """)
        return db
    }

    /// Every table's rows, by id, with their references.
    static func contents(_ db: SQLiteConnection) throws -> [[[SQLiteValue]]] {
        try [
            "SELECT id FROM Trip ORDER BY id", "SELECT id, trip_id FROM Stop ORDER BY id",
            "SELECT id, stop_id FROM Photo ORDER BY id", "SELECT id, trip_id FROM Note ORDER BY id",
            "SELECT id, trip_id FROM Ticket ORDER BY id",
        ].map { try db.rows($0) }
    }

    /// What SQLite's own foreign key actions leave after `sql`, on a copy of `db`.
    static func afterSQLite(_ sql: String, on db: TemporaryDatabase) throws -> [[[SQLiteValue]]] {
        let copy = TemporaryDatabase()
        try db.bytes().write(to: copy.url)
        let connection = try copy.connect()
        try connection.execute("PRAGMA foreign_keys = ON")
        try connection.execute(sql)
        return try contents(connection)
    }

    @Test func aDeleteOfMoreRowsThanItHoldsInMemoryAppliesTheRulesAsSQLiteDoes() throws {
        let db = try Self.database()
        let expected = try Self.afterSQLite("DELETE FROM Trip WHERE id <= 1200", on: db)
        let deleted = Counts()
        let connection = try db.connect()
        let recorder = StatementRecorder()
        connection.startRecording(into: recorder)
        try A.migrator(
            Self.schemas, kind: .custom,
            didMigrate: { context in
                deleted.values.append(try context.delete("Trip", where: "id <= ?", arguments: [.integer(1200)]))
                deleted.values.append(
                    try context.scalar(
                        "SELECT count(*) FROM temp.sqlite_schema WHERE name LIKE '_schema_migrations_deleting%'")?
                        .int64Value.map(Int.init) ?? -1)
            }
        ).migrate(using: connection)
        connection.stopRecording()
        #expect(deleted.values == [1200, 0], "1,200 trips deleted, no temporary table left")
        let scratch = recorder.entries.compactMap { entry -> String? in
            guard case .statement(let sql, _) = entry, sql.hasPrefix("CREATE TEMP TABLE") else { return nil }
            return sql
        }
        // The trips, then their 2,400 stops, through temporary tables; the photos, which nothing
        // refers to, in one statement.
        #expect(
            scratch == [
                "CREATE TEMP TABLE temp.\"_schema_migrations_deleting_0\" (c0, c1)",
                "CREATE TEMP TABLE temp.\"_schema_migrations_deleting_1\" (c0, c1)",
            ])
        #expect(try Self.contents(db.connect()) == expected)
        #expect(try db.rows("SELECT count(*) FROM Stop") == [["600"]])
        #expect(try db.rows("SELECT count(*) FROM Note WHERE trip_id IS NULL") == [["1200"]])
    }

    @Test func aDenialAmongManyRowsRollsBackNamingTheRowsAndLeavesNoTemporaryTable() throws {
        let db = try Self.database()
        let before = try db.bytes()
        let left = Counts()
        let error = try #require(throws: MigrationError.self) {
            try A.migrator(
                Self.schemas, kind: .custom,
                didMigrate: { context in
                    do {
                        _ = try context.delete("Trip", where: "id > 400")
                    } catch {
                        left.values.append(
                            try context.scalar(
                                "SELECT count(*) FROM temp.sqlite_schema WHERE name LIKE '_schema_migrations_deleting%'"
                            )?
                            .int64Value.map(Int.init) ?? -1)
                        throw error
                    }
                }
            ).migrate(databaseAt: db.url)
        }
        #expect(
            error.message
                == "cannot delete from 'Trip': rows of 'Ticket' still refer to it through 'trip_id' (delete rule deny)")
        #expect(error.details == ["Ticket rows: 1401, 1402, 1403, 1404, 1405, 1406, 1407, 1408, 1409, 1410"])
        #expect(left.values == [0], "no temporary table is left once the denial is thrown")
        #expect(try db.bytes() == before)
    }

    /// The temporary table's values compare with a referencing column as the same values written
    /// out in an `IN` list do, whatever the column's type: `+` strips the affinity.
    @Test func theTemporaryTableMatchesAsTheValuesWrittenOutWould() throws {
        let db = try SQLiteConnection(path: ":memory:")
        let values: [SQLiteValue] = [
            .integer(5), .text("5"), .real(5), .text("05"), .text("x"), .blob([0x35]), .real(5.5), .text(" 5"),
        ]
        try db.execute("CREATE TABLE c (t TEXT, i INTEGER, n NUMERIC, r REAL, b BLOB, u)")
        for value in values {
            try db.execute("INSERT INTO c VALUES (?, ?, ?, ?, ?, ?)", Array(repeating: value, count: 6))
        }
        try db.execute("CREATE TEMP TABLE k (c0)")
        for value in values {
            try db.execute("DELETE FROM temp.k; INSERT INTO temp.k VALUES (\(value.sqlLiteral))")
            for column in ["t", "i", "n", "r", "b", "u"] {
                let written = try db.rows("SELECT rowid FROM c WHERE \(column) IN (\(value.sqlLiteral)) ORDER BY 1")
                let read = try db.rows(
                    "SELECT rowid FROM c WHERE \(column) IN (SELECT +c0 FROM temp.k WHERE c0 IS NOT NULL) ORDER BY 1")
                #expect(read == written, "\(column) IN \(value.sqlLiteral)")
            }
        }
    }

    final class Counts: @unchecked Sendable {
        var values: [Int] = []
    }
}
