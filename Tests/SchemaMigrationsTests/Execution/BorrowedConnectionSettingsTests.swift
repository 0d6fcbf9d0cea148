import CSQLite
import Foundation
import Testing

@testable import SchemaMigrations

/// A migration through the app's own connection turns foreign keys off for its rebuilds and sets
/// them back afterwards. When it cannot set them back, the app hears it: a connection silently
/// left with foreign keys off would stop enforcing every reference from then on.
@Suite struct BorrowedConnectionSettingsTests {
    struct Refused: Error {}

    /// The app's connection, with an authorizer of the app's that refuses `PRAGMA foreign_keys = 1`.
    static func refusingForeignKeysOn(_ connection: SQLiteConnection, _ body: () throws -> Void) throws {
        let observer = SQLiteAccessObserver(
            access: { _ in }, prepared: { _ in },
            refuse: { access in
                access.action == SQLITE_PRAGMA && access.object?.lowercased() == "foreign_keys" && access.detail == "1"
                    ? Refused() : nil
            })
        try connection.observingAccess(observer, body)
    }

    @Test func settingsThatCannotBeRestoredAfterACommitAreAnErrorThatSaysTheMigrationCommitted() throws {
        let db = TemporaryDatabase()
        let app = try db.connect()
        try app.execute("PRAGMA foreign_keys = ON")
        var error: MigrationError?
        try Self.refusingForeignKeysOn(app) {
            error = #expect(throws: MigrationError.self) {
                try Migrator(plan: TripsPlan.self).migrate(connection: app.handle)
            }
        }
        let failure = try #require(error)
        #expect(
            failure.message
                == "the migration to 3.0.0 committed, but the connection's foreign_keys could not be set back to 1 (PRAGMA foreign_keys = 1 failed); it is still OFF"
        )
        #expect(failure.sqliteError?.resultCode == .notAuthorized)
        #expect(failure.version == Schema.Version(3, 0, 0))
        // The migration itself is done, and the connection says what the error said.
        #expect(try db.recordedVersion() == "3.0.0")
        #expect(try app.pragmaInteger("foreign_keys") == 0)
        // The other settings were still set back.
        #expect(try app.pragmaInteger("legacy_alter_table") == 0)
    }

    @Test func aFailedMigrationWhoseSettingsCannotBeRestoredSaysBothAndChangesNothing() throws {
        let db = TemporaryDatabase()
        try Migrator(plan: TripsV1OnlyPlan.self).migrate(databaseAt: db.url)
        try db.execute(
            "INSERT INTO Trip (name, destination, start_date, end_date) VALUES ('Rome', 'IT', 0, 0), ('Rome', 'IT', 1, 1)"
        )
        let before = try db.bytes()
        let app = try db.connect()
        try app.execute("PRAGMA foreign_keys = ON")
        var error: MigrationError?
        try Self.refusingForeignKeysOn(app) {
            // V2 makes the name unique: the lightweight plan refuses the duplicates.
            error = #expect(throws: MigrationError.self) {
                try Migrator(plan: TripsLightweightPlan.self).migrate(connection: app.handle)
            }
        }
        let failure = try #require(error)
        #expect(failure.code == .dataViolation)
        #expect(
            failure.details.last
                == "after the failure, the connection's foreign_keys could not be set back to 1 (PRAGMA foreign_keys = 1 failed); it is still OFF"
        )
        #expect(try db.bytes() == before)
        #expect(try db.recordedVersion() == "1.0.0")
    }

    @Test func restoredSettingsAreNotAnError() throws {
        let db = TemporaryDatabase()
        let app = try db.connect()
        try app.execute("PRAGMA foreign_keys = ON")
        try Migrator(plan: TripsPlan.self).migrate(connection: app.handle)
        #expect(try app.pragmaInteger("foreign_keys") == 1)
        #expect(try db.recordedVersion() == "3.0.0")
    }

    enum TripsV1OnlyPlan: SchemaMigrationPlan {
        static let schemas: [any VersionedSchema.Type] = [TripsV1.self]
    }
}
