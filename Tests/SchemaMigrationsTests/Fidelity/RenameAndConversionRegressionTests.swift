import Foundation
import Testing

@testable import SchemaMigrations

/// Valid plans that were refused or lost values around renames and custom conversions.
@Suite struct RenameAndConversionRegressionTests {
    typealias A = PlanBuilder

    /// Rename `start` → `begin` (its index keeps the name `Trip_start`), then a later version adds
    /// `start` again with an index: the new index takes the next free name.
    @Test func aReAddedColumnsIndexDoesNotCollideWithTheNameTheRenamedOneKept() throws {
        let db = TemporaryDatabase()
        let v1 = A.schema(
            1,
            [
                Schema.Entity(
                    name: "Trip", attributes: [A.attribute("start", .double, default: "0.0")],
                    indexes: [Schema.Index(["start"])])
            ])
        let v2 = A.schema(
            2,
            [
                Schema.Entity(
                    name: "Trip", attributes: [A.attribute("begin", .double, default: "0.0", originalName: "start")],
                    indexes: [Schema.Index(["begin"])])
            ])
        let v3 = A.schema(
            3,
            [
                Schema.Entity(
                    name: "Trip",
                    attributes: [
                        A.attribute("begin", .double, default: "0.0"), A.attribute("start", .double, optional: true),
                    ],
                    indexes: [Schema.Index(["begin"]), Schema.Index(["start"])])
            ])
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute("INSERT INTO Trip (id, start) VALUES (1, 5.0)")
        try A.migrator([v1, v2, v3]).migrate(databaseAt: db.url)
        #expect(try db.recordedVersion() == "3.0.0")
        #expect(
            try db.rows("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'Trip' ORDER BY name") == [
                ["'Trip_start'"], ["'Trip_start_2'"],
            ])
        #expect(try db.indexes("Trip") == ["(begin)", "(start)"])
        #expect(try db.rows("SELECT begin, start FROM Trip") == [["5.0", "NULL"]])
    }

    /// The documented recipe for a type change a custom stage converts: `didMigrate` reads the old
    /// value as a `String`. Text that looks like a number (`'2024'`) must still be text then.
    @Test func aCustomStringToDateChangeHandsDidMigrateTheTextEvenWhenItLooksLikeANumber() throws {
        let db = TemporaryDatabase()
        let v1 = A.schema(1, [Schema.Entity(name: "Event", attributes: [A.attribute("year", .string, default: "''")])])
        let v2 = A.schema(
            2,
            [
                Schema.Entity(
                    name: "Event", attributes: [A.attribute("year", .date, default: "0.0", hashModifier: "year-start")])
            ])
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute("INSERT INTO Event (id, year) VALUES (1, '2024'), (2, '1970')")
        try A.migrator(
            [v1, v2], kind: .custom,
            didMigrate: { context in
                try context.forEach("Event") { event in
                    let text = try event.value("year", as: String.self)
                    var components = DateComponents()
                    components.year = Int(text)
                    components.timeZone = TimeZone(identifier: "UTC")
                    let date = Calendar(identifier: .gregorian).date(from: components)!
                    try context.update("Event", id: event.id, values: ["year": date])
                }
            }
        ).migrate(databaseAt: db.url)
        #expect(
            try db.rows("SELECT id, year, typeof(year) FROM Event ORDER BY id") == [
                ["1", "1704067200.0", "'real'"], ["2", "0.0", "'real'"],
            ])
        #expect(try db.columns("Event")["year"] == "REAL NOT NULL DEFAULT 0.0")
    }
}

extension RenameAndConversionRegressionTests {
    /// A STRICT table whose custom conversion leaves a value unconverted: the new type refuses it,
    /// the refusal names the rows, and the file is unchanged.
    @Test func aStrictTableRefusesUnconvertedValuesNamingTheRows() throws {
        let db = TemporaryDatabase()
        try db.execute(
            """
            CREATE TABLE Event (id INTEGER PRIMARY KEY, year TEXT NOT NULL DEFAULT '') STRICT;
            INSERT INTO Event (id, year) VALUES (1, '2024'), (2, 'unknown'), (3, '1970');
            """)
        let v1 = A.schema(1, [Schema.Entity(name: "Event", attributes: [A.attribute("year", .string, default: "''")])])
        let v2 = A.schema(
            2,
            [
                Schema.Entity(
                    name: "Event", attributes: [A.attribute("year", .date, default: "0.0", hashModifier: "year-start")])
            ])
        try A.migrator([v1]).migrate(databaseAt: db.url)  // adopt
        let before = try db.bytes()
        let error = try #require(throws: MigrationError.self) {
            try A.migrator(
                [v1, v2], kind: .custom,
                didMigrate: { context in
                    for (id, seconds) in [(1, 1704067200.0), (3, 0.0)] {
                        try context.update(
                            "Event", id: Int64(id), values: ["year": Date(timeIntervalSince1970: seconds)])
                    }
                }
            ).migrate(databaseAt: db.url)
        }
        #expect(error.code == .dataViolation)
        #expect(
            error.message
                == "Event is STRICT, and year would hold text values its declared type refuses; everything was rolled back"
        )
        #expect(error.details == ["rows (id): 2"])
        #expect(try db.bytes() == before)
    }
}
