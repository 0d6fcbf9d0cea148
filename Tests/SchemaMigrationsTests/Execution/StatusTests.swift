import Foundation
import Testing

@testable import SchemaMigrations

/// `status` tells where a database stands without writing; `verify` also catches a schema change
/// that `PRAGMA schema_version` does not show.
@Suite struct StatusTests {
    @Test func aDatabaseAtV1HasTwoStagesPendingAndIsNotWritten() throws {
        let db = TemporaryDatabase()
        try Migrator(plan: TripsPlan.self, options: MigrationOptions(targetVersion: Schema.Version(1, 0, 0))).migrate(
            databaseAt: db.url)
        let before = try db.bytes()
        let status = try Migrator(plan: TripsPlan.self).status(databaseAt: db.url)
        #expect(status.currentVersion == Schema.Version(1, 0, 0))
        #expect(status.isRecorded)
        #expect(status.targetVersion == Schema.Version(3, 0, 0))
        #expect(status.pendingStages.map(\.description) == ["1.0.0 → 2.0.0 (custom)", "2.0.0 → 3.0.0 (lightweight)"])
        #expect(!status.isUpToDate)
        #expect(try db.bytes() == before)
    }

    /// A pipeline that gates a deploy on `status` must not pass a plan that `plan` and `apply`
    /// refuse: a pending stage whose `originalName` names nothing is refused by all three, in the
    /// same words; a database already at the latest version is not planned at all.
    @Test func aPendingStageThePlannerRefusesIsRefusedByStatusAsByPlanAndApply() throws {
        let db = TemporaryDatabase()
        let v1 = PlanBuilder.schema(1, [PersonFixture.person])
        let v2 = PlanBuilder.schema(
            2,
            [
                PersonFixture.person {
                    $0.attributes[2] = PlanBuilder.attribute("mail", .string, optional: true, originalName: "emial")
                }
            ])
        try PlanBuilder.migrator([v1]).migrate(databaseAt: db.url)
        let before = try db.bytes()
        let migrator = try PlanBuilder.migrator([v1, v2])
        let refused = try #require(throws: MigrationError.self) { try migrator.status(databaseAt: db.url) }
        let planned = try #require(throws: MigrationError.self) { try migrator.plan(databaseAt: db.url) }
        let applied = try #require(throws: MigrationError.self) { try migrator.migrate(databaseAt: db.url) }
        #expect(refused.code == .unsupportedChange)
        #expect(refused.message.contains("says it was renamed from 'emial'"))
        #expect(refused.message == planned.message && refused.message == applied.message)
        #expect(try db.bytes() == before)
        // Up to date: nothing is planned, so the check costs nothing.
        #expect(try PlanBuilder.migrator([v1]).status(databaseAt: db.url).isUpToDate)
    }

    @Test func aTargetVersionLimitsThePendingStages() throws {
        let db = TemporaryDatabase()
        try Migrator(plan: TripsPlan.self, options: MigrationOptions(targetVersion: Schema.Version(1, 0, 0))).migrate(
            databaseAt: db.url)
        let status = try Migrator(
            plan: TripsPlan.self, options: MigrationOptions(targetVersion: Schema.Version(2, 0, 0))
        ).status(databaseAt: db.url)
        #expect(status.pendingStages.map(\.description) == ["1.0.0 → 2.0.0 (custom)"])
        let error = try #require(throws: MigrationError.self) {
            try Migrator(plan: TripsPlan.self, options: MigrationOptions(targetVersion: Schema.Version(9, 0, 0)))
                .status(databaseAt: db.url)
        }
        #expect(error.message == "the target version 9.0.0 is not declared by the plan 'default'")
    }

    @Test func aMigratedDatabaseIsUpToDate() throws {
        let db = TemporaryDatabase()
        try Migrator(plan: TripsPlan.self).migrate(databaseAt: db.url)
        let status = try Migrator(plan: TripsPlan.self).status(databaseAt: db.url)
        #expect(status.isUpToDate && status.pendingStages.isEmpty)
    }

    @Test func anEmptyDatabaseWouldBeCreatedAndAnUnversionedOneRecorded() throws {
        let db = TemporaryDatabase()
        var status = try Migrator(plan: TripsPlan.self).status(databaseAt: db.url)
        #expect(status.currentVersion == nil && status.pendingStages.map(\.description) == ["create 3.0.0"])

        // Created by hand at V3's shape: recognised, and a migration would record its version.
        try db.execute(
            "CREATE TABLE Trip (id INTEGER PRIMARY KEY, name TEXT NOT NULL, destination TEXT NOT NULL, startDate REAL NOT NULL, endDate REAL NOT NULL, notes TEXT); CREATE UNIQUE INDEX n ON Trip(name)"
        )
        status = try Migrator(plan: TripsPlan.self).status(databaseAt: db.url)
        #expect(status.currentVersion == Schema.Version(3, 0, 0))
        #expect(!status.isRecorded && !status.isUpToDate && status.pendingStages.isEmpty)
    }

    @Test func aTargetOlderThanTheDatabaseIsAWayBackOrARefusal() throws {
        let db = TemporaryDatabase()
        try Migrator(plan: TripsPlan.self).migrate(databaseAt: db.url)
        let status = try Migrator(
            plan: TripsPlan.self, options: MigrationOptions(targetVersion: Schema.Version(2, 0, 0))
        )
        .status(databaseAt: db.url)
        #expect(status.pendingStages.map(\.description) == ["3.0.0 → 2.0.0 (revert)"])
        // The custom stage 1.0.0 → 2.0.0 declares no way back: refused, naming it.
        let error = try #require(throws: MigrationError.self) {
            try Migrator(plan: TripsPlan.self, options: MigrationOptions(targetVersion: Schema.Version(1, 0, 0)))
                .status(databaseAt: db.url)
        }
        #expect(error.code == .unsupportedChange)
        #expect(
            error.message
                == "cannot take the database back from 3.0.0 to 1.0.0: the custom stage 1.0.0 → 2.0.0 declares no way back"
        )
    }

    @Test func verifyCatchesAChangeThatHidItsSchemaCookie() throws {
        let db = TemporaryDatabase()
        try Migrator(plan: TripsPlan.self).migrate(databaseAt: db.url)
        #expect(try Migrator(plan: TripsPlan.self).verify(databaseAt: db.url).isUpToDate)
        // A change made by hand, with the schema cookie put back: status trusts the cookie, verify does not.
        let cookie = try db.scalar("PRAGMA schema_version")!.int64Value!
        try db.execute("ALTER TABLE Trip ADD COLUMN rating INTEGER; PRAGMA schema_version = \(cookie)")
        let before = try db.bytes()
        #expect(try Migrator(plan: TripsPlan.self).status(databaseAt: db.url).isUpToDate)
        let error = try #require(throws: MigrationError.self) {
            try Migrator(plan: TripsPlan.self).verify(databaseAt: db.url)
        }
        #expect(error.code == .drift)
        #expect(error.details == ["column Trip.rating is not declared"])
        #expect(try db.bytes() == before)
    }
}
