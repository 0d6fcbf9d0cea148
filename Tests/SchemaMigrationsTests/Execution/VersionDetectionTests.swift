import Foundation
import Testing

@testable import SchemaMigrations

/// How a database's version is found, and what is refused: unknown, newer, drifted, not a database.
@Suite struct VersionDetectionTests {
    @Test func anUnversionedDatabaseMatchingV2IsAdoptedAndMigratedToV3() throws {
        let db = TemporaryDatabase()
        // Created by hand, the way an app did before it used SchemaMigrations: no defaults, other spelling of types.
        try db.execute(
            """
            CREATE TABLE Trip (id INTEGER PRIMARY KEY, name TEXT NOT NULL, destination VARCHAR(80) NOT NULL, start_date REAL NOT NULL, end_date DOUBLE NOT NULL);
            CREATE UNIQUE INDEX trip_name ON Trip(name);
            INSERT INTO Trip VALUES (1, 'Paris', 'France', 1, 2), (2, 'Rome', 'Italy', 3, 4);
            """)
        let result = try Migrator(plan: TripsPlan.self).migrate(databaseAt: db.url)
        #expect(result.adopted)
        #expect(result.fromVersion == Schema.Version(2, 0, 0))
        #expect(result.stages.map(\.to) == [Schema.Version(3, 0, 0)])
        #expect(
            try db.rows("SELECT id, name, startDate, endDate, notes FROM Trip ORDER BY id") == [
                ["1", "'Paris'", "1.0", "2.0", "NULL"], ["2", "'Rome'", "3.0", "4.0", "NULL"],
            ])
        let history = try Migrator.history(databaseAt: db.url, plan: "default")
        #expect(history.map(\.kind) == ["adopt", "lightweight"])
    }

    /// A hand-made file at V1 matches V3 too when V3 differs from V1 only by a default (V2 made
    /// the column required with that default, V3 optional again): it is adopted at V1, so V2's
    /// stage fills its NULLs, as it would have for a file the plan made at V1.
    @Test func anUnversionedFileMatchingTwoVersionsButForADefaultIsAdoptedAtTheOneWithoutIt() throws {
        typealias A = PlanBuilder
        let db = TemporaryDatabase()
        try db.execute(
            "CREATE TABLE Note (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO Note VALUES (1, 'a'), (2, NULL);")
        let migrator = try A.migrator([
            A.schema(1, [Schema.Entity(name: "Note", attributes: [A.attribute("body", .string, optional: true)])]),
            A.schema(2, [Schema.Entity(name: "Note", attributes: [A.attribute("body", .string, default: "'none'")])]),
            A.schema(
                3,
                [
                    Schema.Entity(
                        name: "Note", attributes: [A.attribute("body", .string, optional: true, default: "'none'")])
                ]
            ),
        ])
        let result = try migrator.migrate(databaseAt: db.url)
        #expect(result.adopted)
        #expect(result.fromVersion == Schema.Version(1, 0, 0))
        #expect(result.stages.map(\.to) == [Schema.Version(2, 0, 0), Schema.Version(3, 0, 0)])
        #expect(try db.rows("SELECT id, body FROM Note ORDER BY id") == [["1", "'a'"], ["2", "'none'"]])
    }

    /// An up-to-date check reads the recorded version, hash and schema cookie, never the schema
    /// snapshot the row keeps beside them (large for a large plan, needed only to explain a refusal).
    @Test func anUpToDateCheckDoesNotReadTheRecordedSnapshot() throws {
        let db = TemporaryDatabase()
        try Migrator(plan: TripsPlan.self).migrate(databaseAt: db.url)
        let connection = try db.connect()
        let recorder = StatementRecorder()
        connection.startRecording(into: recorder)
        let result = try Migrator(plan: TripsPlan.self).migrate(using: connection)
        connection.stopRecording()
        #expect(result.stages.isEmpty)
        let statements = recorder.entries.compactMap { entry -> String? in
            guard case .statement(let sql, _) = entry else { return nil }
            return sql
        }
        #expect(statements.contains { $0.contains("\"schemaCookie\"") }, "the record is read: \(statements)")
        #expect(!statements.contains { $0.contains("\"snapshot\"") }, "\(statements)")
    }

    @Test func anUnversionedDatabaseMatchingNoVersionIsRefusedUntouched() throws {
        let db = TemporaryDatabase()
        try db.execute(
            "CREATE TABLE Trip (id INTEGER PRIMARY KEY, name TEXT NOT NULL, budget INTEGER); INSERT INTO Trip VALUES (1, 'x', 2);"
        )
        let before = try db.bytes()
        let error = try #require(throws: MigrationError.self) {
            try Migrator(plan: TripsPlan.self).migrate(databaseAt: db.url)
        }
        #expect(error.code == .unknownVersion)
        #expect(
            error.message == "the database has no version recorded and its tables match none of the plan's 3 versions")
        #expect(error.details.contains("Trip.budget: the column is not declared: add `var budget: Int?`"))
        #expect(try db.bytes() == before)
    }

    @Test func aDatabaseNewerThanThePlanIsRefusedUntouched() throws {
        let db = TemporaryDatabase()
        try Migrator(plan: TripsPlan.self).migrate(databaseAt: db.url)
        try db.execute("UPDATE _schema_migrations SET version = '4.0.0'")
        let before = try db.bytes()
        let error = try #require(throws: MigrationError.self) {
            try Migrator(plan: TripsPlan.self).migrate(databaseAt: db.url)
        }
        #expect(error.code == .newerVersion)
        #expect(error.message == "the database is at version 4.0.0, newer than the plan's latest version 3.0.0")
        #expect(try db.bytes() == before)
    }

    /// An old build meeting a database a newer release migrated can say which version it is,
    /// while migrating it stays refused.
    @Test func currentVersionReportsANewerVersionInsteadOfThrowing() throws {
        let db = TemporaryDatabase()
        try Migrator(plan: TripsPlan.self).migrate(databaseAt: db.url)
        try db.execute("UPDATE _schema_migrations SET version = '4.0.0'")
        let before = try db.bytes()
        #expect(try Migrator(plan: TripsPlan.self).currentVersion(databaseAt: db.url) == Schema.Version(4, 0, 0))
        #expect(throws: MigrationError.self) { try Migrator(plan: TripsPlan.self).migrate(databaseAt: db.url) }
        #expect(try db.bytes() == before)
    }

    @Test func aDatabaseAtAnUndeclaredVersionIsRefused() throws {
        let db = TemporaryDatabase()
        try Migrator(plan: TripsPlan.self).migrate(databaseAt: db.url)
        try db.execute("UPDATE _schema_migrations SET version = '2.5.0'")
        let error = try #require(throws: MigrationError.self) {
            try Migrator(plan: TripsPlan.self).migrate(databaseAt: db.url)
        }
        #expect(error.code == .unknownVersion)
        #expect(error.message == "the database is at version 2.5.0, which the plan 'default' does not declare")
    }

    @Test func aReleasedVersionThatChangedIsRefused() throws {
        let db = TemporaryDatabase()
        try Migrator(plan: TripsPlan.self).migrate(databaseAt: db.url)
        try db.execute("UPDATE _schema_migrations SET hash = 'abc'")
        let error = try #require(throws: MigrationError.self) {
            try Migrator(plan: TripsPlan.self).migrate(databaseAt: db.url)
        }
        #expect(error.code == .invalidPlan)
        #expect(
            error.message.hasPrefix(
                "version 3.0.0 was applied with schema hash abc…, but the plan now declares it with hash"))
    }

    /// A released version edited by mistake: the database holds the snapshot it was applied
    /// with, so the refusal says what changed, in declaration terms, besides the two hashes.
    @Test func aReleasedVersionThatChangedIsRefusedSayingWhatChanged() throws {
        let db = TemporaryDatabase()
        let released = PlanBuilder.schema(1, [PersonFixture.person])
        try PlanBuilder.migrator([released]).migrate(databaseAt: db.url)
        let edited = PlanBuilder.schema(
            1,
            [
                PersonFixture.person {
                    $0.attributes[1].isOptional = false
                    $0.attributes[1].defaultValue = "0"
                    $0.attributes.remove(at: 2)
                    $0.attributes.append(PlanBuilder.attribute("nickname", .string, optional: true))
                }
            ])
        let before = try db.bytes()
        let error = try #require(throws: MigrationError.self) {
            try PlanBuilder.migrator([edited]).migrate(databaseAt: db.url)
        }
        #expect(error.code == .invalidPlan)
        #expect(
            error.details == [
                "changed since it was applied:", "  Person.age: isOptional true → false",
                "  Person.age: defaultValue nil → 0", "  Person.email: removed", "  Person.nickname: added",
            ])
        #expect(try db.bytes() == before)
    }

    @Test func driftFromTheRecordedVersionIsRefused() throws {
        let db = TemporaryDatabase()
        try Migrator(plan: TripsPlan.self, options: MigrationOptions(targetVersion: Schema.Version(2, 0, 0))).migrate(
            databaseAt: db.url)
        try db.execute("ALTER TABLE Trip ADD COLUMN sneaky TEXT")
        let before = try db.bytes()
        let error = try #require(throws: MigrationError.self) {
            try Migrator(plan: TripsPlan.self).migrate(databaseAt: db.url)
        }
        #expect(error.code == .drift)
        #expect(error.details == ["column Trip.sneaky is not declared"])
        #expect(try db.bytes() == before)
    }

    @Test func aFileThatIsNotADatabaseIsRefusedUntouched() throws {
        let db = TemporaryDatabase()
        let garbage = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        try garbage.write(to: db.url)
        let error = try #require(throws: MigrationError.self) {
            try Migrator(plan: TripsPlan.self).migrate(databaseAt: db.url)
        }
        #expect(error.code == .notADatabase)
        #expect(error.sqliteError?.resultCode.description == "SQLITE_NOTADB")
        #expect(try db.bytes() == garbage)
    }

    @Test func aDirectoryIsRefused() throws {
        let db = TemporaryDatabase()
        let error = try #require(throws: MigrationError.self) {
            try Migrator(plan: TripsPlan.self).migrate(databaseAt: db.directory)
        }
        #expect(error.code == .notADatabase)
    }

    @Test func aLockedDatabaseFailsWithALockMessageAndIsUnchanged() throws {
        let db = TemporaryDatabase()
        try Migrator(plan: TripsPlan.self, options: MigrationOptions(targetVersion: Schema.Version(1, 0, 0))).migrate(
            databaseAt: db.url)
        let holder = try db.connect()
        try holder.execute("BEGIN IMMEDIATE; INSERT INTO Trip (name) VALUES ('held');")
        let error = try #require(throws: MigrationError.self) {
            try Migrator(plan: TripsPlan.self, options: MigrationOptions(busyTimeout: 0.1)).migrate(databaseAt: db.url)
        }
        #expect(error.code == .locked)
        #expect(
            error.message
                == "another connection held the database's write lock for longer than the busy timeout (waited 0.1 s); nothing was done"
        )
        #expect(error.sqliteError?.isBusy == true)
        try holder.execute("ROLLBACK")
        #expect(try db.recordedVersion() == "1.0.0")
        #expect(try db.rows("SELECT count(*) FROM Trip") == [["0"]])
    }

    @Test func twoPlansShareOneFileAndMoveIndependently() throws {
        typealias A = PlanBuilder
        let db = TemporaryDatabase()
        let app1 = A.schema(1, [PersonFixture.person])
        let app2 = A.schema(
            2, [PersonFixture.person { $0.attributes.append(A.attribute("nickname", .string, optional: true)) }])
        let lib1 = A.schema(
            1, [Schema.Entity(name: "CacheEntry", attributes: [A.attribute("key", .string, default: "''")])])
        try A.migrator([app1], name: "app").migrate(databaseAt: db.url)
        try A.migrator([lib1], name: "cache").migrate(databaseAt: db.url)
        try A.migrator([app1, app2], name: "app").migrate(databaseAt: db.url)
        #expect(try db.recordedVersion(plan: "app") == "2.0.0")
        #expect(try db.recordedVersion(plan: "cache") == "1.0.0")
        let again = try A.migrator([lib1], name: "cache").migrate(databaseAt: db.url)
        #expect(again.outcome == .upToDate)
    }

    @Test func migratingThroughAConnectionTheAppOwnsRestoresItsForeignKeySetting() throws {
        let db = TemporaryDatabase()
        let connection = try db.connect()
        try connection.execute("PRAGMA foreign_keys = ON; PRAGMA threads = 0; PRAGMA legacy_alter_table = ON")
        try Migrator(plan: TripsPlan.self).migrate(connection: connection.handle)
        #expect(try connection.pragmaInteger("foreign_keys") == 1)
        #expect(try connection.pragmaInteger("threads") == 0)
        #expect(try connection.pragmaInteger("legacy_alter_table") == 1)
        #expect(try db.recordedVersion() == "3.0.0")
        try connection.execute("BEGIN")
        let error = try #require(throws: MigrationError.self) {
            try Migrator(plan: TripsPlan.self).migrate(connection: connection.handle)
        }
        #expect(error.message == "the connection is inside a transaction; a migration needs its own")
        try connection.execute("ROLLBACK")
    }

    @Test func rebuildingAParentNeverCascadesToItsChildren() throws {
        typealias A = PlanBuilder
        let db = TemporaryDatabase()
        let v1 = A.schema(1, [PersonFixture.person])
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute(
            PersonFixture.rows + """
                CREATE TABLE pet (id INTEGER PRIMARY KEY, owner INTEGER REFERENCES Person(id) ON DELETE CASCADE);
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10000) INSERT INTO pet SELECT i, 1 + i % 3 FROM n;
                """)
        let connection = try db.connect()
        try connection.execute("PRAGMA foreign_keys = ON")
        let v2 = A.schema(2, [PersonFixture.person { $0.attributes[1] = A.attribute("age", .double, optional: true) }])
        let result = try A.migrator([v1, v2]).migrate(connection: connection.handle)
        #expect(result.stages[0].steps.map(\.op) == [.rebuildTable])
        #expect(try db.rows("SELECT count(*), sum(owner) FROM pet") == [["10000", "20000"]])
        #expect(try db.rows("SELECT count(*) FROM pragma_foreign_key_check") == [["0"]])
        try connection.execute("DELETE FROM Person WHERE id = 1")
        #expect(try db.rows("SELECT count(*) FROM pet") == [["6667"]])
    }
}

extension VersionDetectionTests {
    @Test func aReadOnlyDatabaseWithAPendingMigrationIsRefusedClearly() throws {
        let db = TemporaryDatabase()
        try Migrator(plan: TripsPlan.self, options: MigrationOptions(targetVersion: Schema.Version(1, 0, 0))).migrate(
            databaseAt: db.url)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: db.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: db.directory.path)
        defer {
            try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: db.directory.path)
            try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: db.path)
        }
        let connection = try SQLiteConnection(path: db.path, mode: .readOnly)
        let before = try db.bytes()
        let error = try #require(throws: MigrationError.self) {
            try Migrator(plan: TripsPlan.self).migrate(connection: connection.handle)
        }
        #expect(error.code == .readOnly)
        #expect(try db.bytes() == before)
        // Up to date is fine read-only: nothing to write.
        #expect(
            try Migrator(plan: TripsPlan.self, options: MigrationOptions(targetVersion: Schema.Version(1, 0, 0)))
                .migrate(connection: connection.handle).outcome == .upToDate)
    }
}
