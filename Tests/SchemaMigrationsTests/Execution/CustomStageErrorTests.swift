import Foundation
import SchemaMigrations
import Testing

/// An app's custom stage throws its own error; the app catches it as its own type, with its case
/// and payload, through `MigrationError.cause`, and the database is as it was.
@Suite struct CustomStageErrorTests {
    enum ImportError: Error, Equatable {
        case duplicateTrip(name: String)
    }

    /// V1 → V2 of the trips plan, whose custom stage throws instead of removing duplicates.
    enum ThrowingPlan: SchemaMigrationPlan {
        static let schemas: [any VersionedSchema.Type] = [TripsV1.self, TripsV2.self]
        static let stages: [MigrationStage] = [
            .custom(
                fromVersion: TripsV1.self, toVersion: TripsV2.self,
                willMigrate: { context in
                    guard
                        let name = try context.rows("SELECT name FROM Trip GROUP BY name HAVING count(*) > 1").first?[0]
                            .stringValue
                    else { return }
                    throw ImportError.duplicateTrip(name: name)
                }, didMigrate: nil)
        ]
    }

    enum FirstVersionPlan: SchemaMigrationPlan {
        static let schemas: [any VersionedSchema.Type] = [TripsV1.self]
    }

    @Test func theAppCatchesItsOwnErrorTypeThroughTheMigrationError() throws {
        let db = TemporaryDatabase()
        try Migrator(plan: FirstVersionPlan.self).migrate(databaseAt: db.url)
        try db.execute(
            "INSERT INTO Trip (name, destination, start_date, end_date) VALUES ('Rome', 'IT', 0, 0), ('Rome', 'IT', 1, 1)"
        )
        let before = try db.bytes()

        var caught: ImportError?
        do {
            try Migrator(plan: ThrowingPlan.self).migrate(databaseAt: db.url)
        } catch let error as MigrationError {
            #expect(error.code == .customStageFailed)
            #expect(error.description.contains("caused by: duplicateTrip(name: \"Rome\")"), "\(error)")
            caught = error.cause as? ImportError
        }
        #expect(caught == .duplicateTrip(name: "Rome"))
        #expect(try db.bytes() == before)
        #expect(try db.recordedVersion() == "1.0.0")
    }

    @Test func aSQLiteErrorInACustomStageIsKeptAsTheSQLiteError() throws {
        enum BadSQLPlan: SchemaMigrationPlan {
            static let schemas: [any VersionedSchema.Type] = [TripsV1.self, TripsV2.self]
            static let stages: [MigrationStage] = [
                .custom(
                    fromVersion: TripsV1.self, toVersion: TripsV2.self,
                    willMigrate: { context in
                        try context.execute("UPDATE NoSuchTable SET x = 1")
                    }, didMigrate: nil)
            ]
        }
        let db = TemporaryDatabase()
        try Migrator(plan: FirstVersionPlan.self).migrate(databaseAt: db.url)
        let before = try db.bytes()
        let error = try #require(throws: MigrationError.self) {
            try Migrator(plan: BadSQLPlan.self).migrate(databaseAt: db.url)
        }
        #expect(error.code == .customStageFailed)
        #expect(error.sqliteError?.message == "no such table: NoSuchTable")
        #expect((error.cause as? SQLiteError)?.message == "no such table: NoSuchTable")
        #expect(!error.description.contains("caused by:"), "the SQLite error is printed once: \(error)")
        #expect(try db.bytes() == before)
    }
}
