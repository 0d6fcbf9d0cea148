import Foundation
import Testing

@testable import SchemaMigrations

/// An unversioned database matching no version: the refusal says what to declare, per property.
@Suite struct AdoptionAdviceTests {
    @Test func theRefusalSaysWhichDeclarationToChange() throws {
        let db = TemporaryDatabase()
        try db.execute(
            """
            CREATE TABLE Trip (id INTEGER PRIMARY KEY, name TEXT, destination TEXT NOT NULL, start_date REAL NOT NULL, end_date INTEGER NOT NULL,
                               legacy TEXT, rank INTEGER NOT NULL DEFAULT 0);
            CREATE UNIQUE INDEX trip_destination ON Trip(destination);
            """)
        let before = try db.bytes()
        let error = try #require(throws: MigrationError.self) {
            try Migrator(plan: TripsLightweightPlan.self).migrate(databaseAt: db.url)
        }
        #expect(error.code == .unknownVersion)
        #expect(
            error.details == [
                "closest is 1.0.0; to declare what the file has:",
                "Trip.name: the column is nullable: declare it optional (String?, not String)",
                "Trip.end_date: the column is INTEGER, declared Date (REAL): declare it `Int`",
                "Trip.legacy: the column is not declared: add `var legacy: String?`",
                "Trip.rank: the column is not declared: add `var rank: Int = 0`",
                "Trip: the unique index trip_destination on (destination) is not declared: declare `@Attribute(.unique) var destination`",
            ])
        #expect(error.remedy?.contains("migrate snapshot --database PATH --output DIR") == true)
        #expect(error.remedy?.contains("migrate scaffold --database PATH --output FILE") == true)
        #expect(try db.bytes() == before)
    }
}
