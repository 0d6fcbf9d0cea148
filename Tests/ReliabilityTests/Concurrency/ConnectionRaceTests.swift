import Foundation
import SchemaMigrations
import Testing

@testable import reliability_driver

extension Reliability {
    /// An app migrating through its own connection (`migrate(connection:)`) while it, or another
    /// process, holds other connections to the file: the same guarantees as `migrate(databaseAt:)`.
    @Suite struct ConnectionRaces {
        static func migrator() -> Migrator { Migrator(plan: ReliabilityPlan.self) }

        @Test(.timeLimit(.minutes(5)))
        func anotherOpenConnectionSeesTheNewSchemaAfterwards() throws {
            let fixture = try RaceFixture(wal: false)
            let url = try fixture.copy("app.sqlite")
            let other = try SQLiteConnection(path: url.path)
            #expect(try RaceFixture.columns("Item", other).contains("price"))
            let app = try SQLiteConnection(path: url.path)
            let result = try Self.migrator().migrate(connection: app.handle)
            #expect(result.outcome == .migrated)
            #expect(try RaceFixture.columns("Item", other).contains("score"))
            #expect(try Self.migrator().migrate(connection: other.handle).outcome == .upToDate)
            #expect(try DatabaseState.read(url, plan: CrashPlan.planName) == fixture.new)
        }

        @Test(.timeLimit(.minutes(5)), arguments: [false, true])
        func theAppWaitsForAnotherProcessThenFindsNothingToDo(wal: Bool) throws {
            let fixture = try RaceFixture(wal: wal)
            let url = try fixture.copy("app.sqlite")
            let driver = try fixture.startHolding(url, at: "--hold-start", seconds: 1)
            let app = try SQLiteConnection(path: url.path, busyTimeout: 20)
            let result = try Self.migrator().migrate(connection: app.handle)
            let driverResult = driver.wait()
            #expect(
                driverResult.status == 0 && driverResult.output.contains("outcome=migrated"), "\(driverResult.output)")
            #expect(result.outcome == .upToDate && result.toVersion == Schema.Version(3, 0, 0))
            #expect(try DatabaseState.read(url, plan: CrashPlan.planName) == fixture.new)
        }

        @Test(.timeLimit(.minutes(5)), arguments: [false, true])
        func theAppGivesUpAfterItsConnectionsBusyTimeout(wal: Bool) throws {
            let fixture = try RaceFixture(wal: wal)
            let url = try fixture.copy("app.sqlite")
            let driver = try fixture.startHolding(url, at: "--hold-start", seconds: 2)
            let app = try SQLiteConnection(path: url.path, busyTimeout: 0.3)
            let error = try #require(throws: MigrationError.self) {
                try Self.migrator().migrate(connection: app.handle)
            }
            #expect(error.code == .locked && error.sqliteError?.isBusy == true, "\(error)")
            #expect(error.message.contains("another connection held the database's write lock"), "\(error)")
            // It waited the 0.3 s of the app's connection, not the options' 5 s it used to claim.
            #expect(!error.message.contains("5.0 s"), "\(error)")
            #expect(app.isAutocommit)
            #expect(driver.wait().status == 0)
            #expect(try DatabaseState.read(url, plan: CrashPlan.planName) == fixture.new)
        }

        /// The app keeps a read transaction open on one connection and migrates through another.
        /// WAL: the migration commits and the reader keeps its snapshot until it ends. Rollback
        /// journal: the commit cannot get the file while the reader holds it, so the migration
        /// fails with the lock error and rolls back.
        @Test(.timeLimit(.minutes(5)), arguments: [false, true])
        func aReadTransactionOnAnotherConnection(wal: Bool) throws {
            let fixture = try RaceFixture(wal: wal)
            let url = try fixture.copy("app.sqlite")
            let reader = try SQLiteConnection(path: url.path)
            try reader.execute("BEGIN")
            _ = try reader.scalar("SELECT count(*) FROM Item")
            let app = try SQLiteConnection(path: url.path, busyTimeout: 0.3)
            if wal {
                #expect(try Self.migrator().migrate(connection: app.handle).outcome == .migrated)
                #expect(
                    try RaceFixture.columns("Item", reader).contains("price"), "the reader's snapshot is the old schema"
                )
                try reader.execute("COMMIT")
                #expect(try DatabaseState.read(url, plan: CrashPlan.planName) == fixture.new)
            } else {
                let error = try #require(throws: MigrationError.self) {
                    try Self.migrator().migrate(connection: app.handle)
                }
                #expect(error.code == .sqlite && error.sqliteError?.isBusy == true, "\(error)")
                #expect(app.isAutocommit)
                try reader.execute("COMMIT")
                #expect(try DatabaseState.read(url, plan: CrashPlan.planName) == fixture.old)
            }
            ReliabilityConfig.summary(
                "app-reader-\(wal ? "wal" : "rollback")",
                wal ? "migrated, reader kept the old snapshot" : "lock error, rolled back, database old")
        }
    }
}
