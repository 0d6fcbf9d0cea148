import Foundation
import Testing

@testable import SchemaMigrations

/// Online rebuilds against hostile options and unusual tables: every refusal leaves the file
/// byte-identical; every table the online path takes ends as the offline path leaves it.
@Suite struct OnlineRebuildEdgeTests {
    typealias A = PlanBuilder
    static let v1 = OnlineRebuildTests.v1, v2 = OnlineRebuildTests.v2

    static func options(_ online: OnlineRebuildOptions = OnlineRebuildOptions(chunkTargetMilliseconds: 2))
        -> MigrationOptions
    {
        var options = MigrationOptions()
        options.online = online
        return options
    }

    /// Sets up the same V1 database twice (by `setup`, then adopted or created as V1), migrates one
    /// online and one offline, and returns both dumps.
    static func bothWays(
        to target: Schema = v2, online expectOnline: Bool = true, _ setup: (SQLiteConnection) throws -> Void
    ) throws -> (online: [String], offline: [String], db: TemporaryDatabase) {
        let online = TemporaryDatabase()
        let offline = TemporaryDatabase()
        for db in [online, offline] {
            try setup(try db.connect())
            try A.migrator([v1]).migrate(databaseAt: db.url)
        }
        let events = EventLog()
        var options = options()
        options.progress = { events.append($0) }
        try A.migrator([v1, target], options: options).migrate(databaseAt: online.url)
        #expect(events.activities.contains(.cuttingOver) == expectOnline, "ran \(expectOnline ? "offline" : "online")")
        try A.migrator([v1, target]).migrate(databaseAt: offline.url)
        #expect(try online.recordedVersion() == target.version.description)
        #expect(try online.rows("PRAGMA integrity_check") == [["'ok'"]])
        return (try OnlineFixture.dump(online.url), try OnlineFixture.dump(offline.url), online)
    }

    static let personSQL =
        "CREATE TABLE Person (id INTEGER PRIMARY KEY, name TEXT NOT NULL DEFAULT '', age INTEGER, email TEXT); CREATE INDEX Person_name ON Person (name);"

    @Test(arguments: [0, -1, Double.nan, Double.infinity, -Double.infinity])
    func aChunkTargetThatIsNoDurationIsRefusedAndTheFileIsUntouched(_ target: Double) throws {
        let db = TemporaryDatabase()
        try OnlineRebuildTests.makeV1(db.url, rows: 10)
        let before = try db.bytes()
        let error = try #require(throws: MigrationError.self) {
            try A.migrator(
                [Self.v1, Self.v2], options: Self.options(OnlineRebuildOptions(chunkTargetMilliseconds: target))
            ).migrate(databaseAt: db.url)
        }
        #expect(error.code == .invalidOption)
        #expect(
            error.message
                == "the online chunk target must be a number of milliseconds above 0, not \(target); nothing was done")
        #expect(try db.bytes() == before)
    }

    @Test func aHugeChunkTargetCopiesInLargeChunksAndStillSwaps() throws {
        let db = TemporaryDatabase()
        try OnlineRebuildTests.makeV1(db.url, rows: 500)
        try A.migrator([Self.v1, Self.v2], options: Self.options(OnlineRebuildOptions(chunkTargetMilliseconds: 1e300)))
            .migrate(databaseAt: db.url)
        #expect(try db.recordedVersion() == "2.0.0")
        #expect(try db.rows("SELECT count(*) FROM Person") == [["500"]])
    }

    @Test func aCustomStageIsRefusedOnlineBeforeAnythingIsWritten() throws {
        let db = TemporaryDatabase()
        try OnlineRebuildTests.makeV1(db.url, rows: 10)
        let before = try db.bytes()
        let migrator = try A.migrator([Self.v1, Self.v2], kind: .custom, didMigrate: { _ in }, options: Self.options())
        let error = try #require(throws: MigrationError.self) { try migrator.migrate(databaseAt: db.url) }
        #expect(error.code == .onlineRefused)
        #expect(error.message == "the stage 1.0.0 → 2.0.0 runs custom code, which cannot run online; nothing was done")
        #expect(try db.bytes() == before)
    }

    /// A V1 database of 2,000 people whose online migration to V2 runs on a thread of its own and
    /// is paused (holding no lock) once its change is recorded; opening the gate lets it go on.
    static func startPausedOnlineMigration() throws -> (TemporaryDatabase, Gate) {
        let db = TemporaryDatabase()
        try OnlineRebuildTests.makeV1(db.url, rows: 2_000)
        let gate = Gate()
        var online = OnlineRebuildOptions(chunkTargetMilliseconds: 1)
        online.shouldPause = { gate.isClosed }
        let url = db.url
        let migrator = try A.migrator([Self.v1, Self.v2], options: Self.options(online))
        Thread {
            gate.result = Result { try migrator.migrate(databaseAt: url) }
            gate.finished.signal()
        }.start()
        while try db.scalar("SELECT count(*) FROM sqlite_schema WHERE name = '_schema_migrations_online'")?.int64Value
            != 1
        { usleep(1_000) }
        return (db, gate)
    }

    /// An owner row naming a process of this host that runs (pid 1 always does) but has not
    /// beaten its heart for longer than ``OnlineState/staleAfter``: after a container restart its
    /// pid is another program's. It is taken over; with a fresh heartbeat it is refused.
    @Test func anOwnerWhosePidLivesButWhoseHeartbeatIsStaleIsTakenOver() throws {
        let db = TemporaryDatabase()
        try OnlineRebuildTests.makeV1(db.url, rows: 500)
        let owner = "\(ProcessInfo.processInfo.hostName):1"
        func record(heartbeat: Double) throws {
            try db.execute(
                """
                \(OnlineState.createSQL);
                INSERT OR REPLACE INTO _schema_migrations_online (id, plan, fromVersion, toVersion, phase, tables, highWater, copied, startedAt, heartbeat, owner)
                VALUES (1, 'default', '1.0.0', '2.0.0', 'copying', '_sm_online_Person', NULL, 0, \(heartbeat), \(heartbeat), '\(owner)')
                """)
        }
        try record(heartbeat: Date().timeIntervalSince1970)
        let error = try #require(throws: MigrationError.self) {
            try A.migrator([Self.v1, Self.v2], options: Self.options()).migrate(databaseAt: db.url)
        }
        #expect(error.code == .onlineChangeInProgress)
        #expect(error.message.contains("(owner \(owner), copying, started "))
        #expect(try db.recordedVersion() == "1.0.0")

        try record(heartbeat: Date().timeIntervalSince1970 - OnlineState.staleAfter - 1)
        try A.migrator([Self.v1, Self.v2], options: Self.options()).migrate(databaseAt: db.url)
        #expect(try db.recordedVersion() == "2.0.0")
        #expect(try db.rows("SELECT count(*) FROM Person") == [["500"]])
        #expect(try db.rows("SELECT name FROM sqlite_schema WHERE name LIKE '_s%_online%'").isEmpty)
    }

    @Test func aRunWhoseChangeAnotherLiveRunTookStopsAtItsNextChunk() throws {
        let (db, gate) = try Self.startPausedOnlineMigration()
        // Another live run (on another host) took the change over while this one was paused.
        try db.execute(
            "UPDATE _schema_migrations_online SET owner = 'elsewhere:1', heartbeat = \(Date().timeIntervalSince1970 + 60)"
        )
        gate.isClosed = false
        gate.finished.wait()
        let error = try #require(throws: MigrationError.self) { try gate.result?.get() }
        #expect(error.code == .onlineChangeInProgress)
        #expect(error.message.contains("(owner elsewhere:1, copying, started "))
        #expect(try db.recordedVersion() == "1.0.0")
        #expect(try db.rows("SELECT count(*) FROM Person") == [["2000"]])
        #expect(try db.rows("SELECT owner FROM _schema_migrations_online") == [["'elsewhere:1'"]])
    }

    @Test func aSecondMigrationWhileAnOnlineChangeIsPausedIsRefusedThenTheFirstFinishes() throws {
        // While the first is paused (holding no lock), the application writes, and a second change is refused.
        let (db, gate) = try Self.startPausedOnlineMigration()
        try db.execute("INSERT INTO Person (name) VALUES ('written while paused')")
        // Another process would be told the same; in this process, the owner check sees another owner only through the row.
        let connection = try db.connect()
        try connection.execute(
            "UPDATE _schema_migrations_online SET owner = 'elsewhere:1', heartbeat = \(Date().timeIntervalSince1970)")
        for options in [Self.options(), MigrationOptions()] {
            let error = try #require(throws: MigrationError.self) {
                try A.migrator([Self.v1, Self.v2], options: options).migrate(databaseAt: db.url)
            }
            #expect(error.code == .onlineChangeInProgress)
            #expect(
                error.message.hasPrefix(
                    "another online change of plan 'default' from 1.0.0 to 2.0.0 is running on this database (owner elsewhere:1, copying, started "
                ))
        }
        #expect(try db.recordedVersion() == "1.0.0")
        // The row given back to its owner: a run whose change another live run holds stops instead
        // (``aRunWhoseChangeAnotherLiveRunTookStopsAtItsNextChunk``).
        try connection.execute("UPDATE _schema_migrations_online SET owner = '\(OnlineState.thisOwner)'")
        gate.isClosed = false
        gate.finished.wait()
        #expect(throws: Never.self) { try gate.result?.get() }
        #expect(try db.recordedVersion() == "2.0.0")
        #expect(try db.rows("SELECT count(*) FROM Person WHERE name = 'written while paused'") == [["1"]])
    }

    @Test func aDatabaseMadeElsewhereIsAdoptedThenItsFirstStageRunsOnline() throws {
        // Adoption records the version found in one short transaction; the first stage used to
        // run in that same transaction, offline, holding the write lock for the table's size
        // although the dry run said online.
        let online = TemporaryDatabase()
        let offline = TemporaryDatabase()
        for db in [online, offline] {
            try db.execute(Self.personSQL)
            try db.execute(
                "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 500) INSERT INTO Person (name, age) SELECT 'p' || i, i FROM n"
            )
        }
        // V2 drops a column: a rebuild online. (A change of default alone would be adopted as V2:
        // adoption does not compare defaults.)
        let v2 = A.schema(
            2, [PersonFixture.person { $0.attributes.removeAll { $0.name == "email" } }])
        let events = EventLog()
        var options = Self.options()
        options.progress = { events.append($0) }
        let migrator = try A.migrator([Self.v1, v2], options: options)
        #expect(try migrator.plan(databaseAt: online.url).online?.stages.map(\.runsOnline) == [true])
        let result = try migrator.migrate(databaseAt: online.url)
        #expect(result.adopted && result.outcome == .migrated)
        #expect(result.fromVersion == Schema.Version(1, 0, 0) && result.toVersion == Schema.Version(2, 0, 0))
        #expect(events.activities.contains(.cuttingOver), "the stage ran offline in the adoption's transaction")
        #expect(events.copyEvents > 1)
        try A.migrator([Self.v1, v2]).migrate(databaseAt: offline.url)
        // The rows and indexes are the offline ones; the table's text is the rebuild's (as on SQLite before 3.35).
        #expect(
            try OnlineFixture.dump(online.url).filter { !$0.hasPrefix("table | Person") }
                == OnlineFixture.dump(offline.url).filter { !$0.hasPrefix("table | Person") })
        #expect(try online.columns("Person") == offline.columns("Person"))
        #expect(
            try online.rows(#"SELECT "version", "kind" FROM "_schema_migrations" ORDER BY "seq""#) == [
                ["'1.0.0'", "'adopt'"], ["'2.0.0'", "'lightweight'"],
            ])
    }

    @Test func aDatabaseMadeElsewhereWhoseFirstStageIsRefusedStaysUnadopted() throws {
        // The first stage runs offline (its data check reads the whole table): the adoption
        // shares its transaction, and the refusal leaves the file as it was.
        let db = TemporaryDatabase()
        try db.execute(Self.personSQL)
        try db.execute("INSERT INTO Person (name, age) VALUES ('a', 1), ('b', NULL)")
        let v2 = A.schema(
            2,
            [
                PersonFixture.person {
                    $0.attributes.removeAll { $0.name == "email" }
                    $0.attributes[1].isOptional = false
                }
            ])
        let before = try db.bytes()
        let error = try #require(throws: MigrationError.self) {
            try A.migrator([Self.v1, v2], options: Self.options()).migrate(databaseAt: db.url)
        }
        #expect(error.code == .dataViolation)
        #expect(try db.bytes() == before)
    }

    @Test func anIndexTheStageAddsIsCreatedBesideOneMadeByHandOverTheSameColumn() throws {
        // Offline, CREATE INDEX adds the declared index; online it is built in the shadow, whose
        // rebuild took the index made by hand for it and left the declared one out.
        let v2 = A.schema(2, [PersonFixture.person { $0.indexes.append(Schema.Index(["age"])) }])
        let result = try Self.bothWays(to: v2) {
            try $0.execute(
                #"CREATE TABLE "Person" ("id" INTEGER PRIMARY KEY, "name" TEXT NOT NULL DEFAULT '', "age" INTEGER, "email" TEXT); CREATE INDEX "Person_name" ON "Person" ("name"); CREATE INDEX "age_by_hand" ON "Person" ("age")"#
            )
            try $0.execute("INSERT INTO Person (name, age) VALUES ('a', 1), ('b', 2)")
        }
        #expect(result.online == result.offline)
        #expect(result.online.contains { $0.hasPrefix("index | Person_age | Person |") })
        #expect(result.online.contains { $0.hasPrefix("index | age_by_hand | Person |") })
    }

    @Test func anEmptyTableIsRebuiltOnline() throws {
        let result = try Self.bothWays { try $0.execute(Self.personSQL) }
        #expect(result.online == result.offline)
    }

    @Test func rowidGapsAndTheLargestRowidAreCopied() throws {
        let result = try Self.bothWays {
            try $0.execute(Self.personSQL)
            try $0.execute(
                "INSERT INTO Person (id, name) VALUES (-9223372036854775808, 'min'), (-5, 'neg'), (7, 'a'), (1000000, 'b'), (9223372036854775807, 'max')"
            )
        }
        #expect(result.online == result.offline)
        #expect(result.online.contains("Person: 9223372036854775807, 9223372036854775807, 'max', NULL, NULL"))
        #expect(result.online.contains("Person: -9223372036854775808, -9223372036854775808, 'min', NULL, NULL"))
    }

    @Test func theAutoincrementCounterIsCarriedOver() throws {
        let result = try Self.bothWays {
            try $0.execute(
                "CREATE TABLE Person (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL DEFAULT '', age INTEGER, email TEXT); CREATE INDEX Person_name ON Person (name);"
            )
            try $0.execute("INSERT INTO Person (name) VALUES ('a'), ('b'), ('c'); DELETE FROM Person WHERE name = 'c'")
        }
        #expect(result.online == result.offline)
        #expect(result.online.contains("sequence Person 3"))
    }

    /// `sqlite_sequence` is writable: a counter below the largest id present stays as it is,
    /// online and offline, rebuilt or altered, as `ALTER TABLE` keeps it (the copy alone would
    /// raise it to the largest id).
    @Test func aCounterBelowTheLargestIdIsKeptAsItIs() throws {
        let result = try Self.bothWays {
            try $0.execute(
                "CREATE TABLE Person (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL DEFAULT '', age INTEGER, email TEXT); CREATE INDEX Person_name ON Person (name);"
            )
            try $0.execute(
                "INSERT INTO Person (id, name) VALUES (1, 'a'), (40, 'b'); UPDATE sqlite_sequence SET seq = 7 WHERE name = 'Person'"
            )
        }
        #expect(result.online == result.offline)
        #expect(result.online.contains("sequence Person 7"), "\(result.online)")
    }

    @Test func aParentWithCascadingChildrenKeepsItsChildrenAndTheirReferences() throws {
        let result = try Self.bothWays {
            try $0.execute(Self.personSQL)
            try $0.execute(
                "CREATE TABLE Pet (id INTEGER PRIMARY KEY, owner INTEGER REFERENCES Person(id) ON DELETE CASCADE)")
            try $0.execute(
                "INSERT INTO Person (id, name) VALUES (1, 'a'), (2, 'b'); INSERT INTO Pet VALUES (10, 1), (11, 2)")
        }
        #expect(result.online == result.offline)
        #expect(
            result.online.contains {
                $0.hasPrefix(
                    "table | Pet | Pet | CREATE TABLE Pet (id INTEGER PRIMARY KEY, owner INTEGER REFERENCES Person(id) ON DELETE CASCADE)"
                )
            })
        let db = try result.db.connect()
        try db.execute("PRAGMA foreign_keys = ON; DELETE FROM Person WHERE id = 1")
        #expect(try result.db.rows("SELECT id FROM Pet") == [["11"]])
    }

    @Test func aWithoutRowidTableRunsOfflineWithTheSameResult() throws {
        let result = try Self.bothWays(online: false) {
            try $0.execute(
                "CREATE TABLE Person (id INTEGER PRIMARY KEY, name TEXT NOT NULL DEFAULT '', age INTEGER, email TEXT) WITHOUT ROWID; CREATE INDEX Person_name ON Person (name);"
            )
            try $0.execute("INSERT INTO Person (id, name) VALUES (1, 'a'), (2, 'b')")
        }
        #expect(result.online == result.offline)
    }

    @Test func aStrictTableIsRebuiltOnline() throws {
        let result = try Self.bothWays {
            try $0.execute(
                "CREATE TABLE Person (id INTEGER PRIMARY KEY, name TEXT NOT NULL DEFAULT '', age INTEGER, email TEXT) STRICT; CREATE INDEX Person_name ON Person (name);"
            )
            try $0.execute("INSERT INTO Person (id, name, age) VALUES (1, 'a', 3), (2, 'b', NULL)")
        }
        #expect(result.online == result.offline)
    }

    @Test func aPlanWithNoRebuildRunsAsOffline() throws {
        let v2 = A.schema(
            2, [PersonFixture.person { $0.attributes.append(A.attribute("nickname", .string, optional: true)) }])
        let result = try Self.bothWays(to: v2, online: false) {
            try $0.execute(Self.personSQL)
            try $0.execute("INSERT INTO Person (name) VALUES ('a')")
        }
        #expect(result.online == result.offline)
    }

    @Test func aColumnRenamedInTheStageIsCopiedFromItsOldNameUntilTheCutOver() throws {
        // The rename runs in the cut-over: until then the copy and the triggers read the old name.
        let v2 = A.schema(
            2,
            [
                Schema.Entity(
                    name: "Person",
                    attributes: [
                        A.attribute("name", .string, default: "'unknown'"),
                        A.attribute("years", .integer, optional: true, originalName: "age"),
                        A.attribute("email", .string, optional: true),
                    ],
                    indexes: [Schema.Index(["name"]), Schema.Index(["years"])])
            ])
        let result = try Self.bothWays(to: v2) {
            try $0.execute(Self.personSQL)
            try $0.execute(
                "INSERT INTO Person (id, name, age, email) VALUES (1, 'a', 36, 'x'), (2, 'b', NULL, NULL), (3, 'c', 85, 'z')"
            )
        }
        #expect(
            result.online.filter { !$0.hasPrefix("table | Person") }
                == result.offline.filter { !$0.hasPrefix("table | Person") })
        #expect(
            try result.db.rows("SELECT id, years FROM Person ORDER BY id") == [
                ["1", "36"], ["2", "NULL"], ["3", "85"],
            ])
    }

    @Test func aDroppedColumnAndAnAddedIndexAreBuiltInTheShadow() throws {
        let v2 = A.schema(
            2,
            [
                Schema.Entity(
                    name: "Person",
                    attributes: [
                        A.attribute("name", .string, default: "''"), A.attribute("age", .integer, optional: true),
                    ],
                    indexes: [Schema.Index(["name"]), Schema.Index(["age"])])
            ])
        let result = try Self.bothWays(to: v2) {
            try $0.execute(Self.personSQL)
            try $0.execute("INSERT INTO Person (name, age, email) VALUES ('a', 1, 'x'), ('b', 2, NULL)")
        }
        // The rows and indexes are the offline ones; the table's text is the rebuild's (as on SQLite before 3.35).
        #expect(
            result.online.filter { !$0.hasPrefix("table | Person") }
                == result.offline.filter { !$0.hasPrefix("table | Person") })
        #expect(try result.db.columns("Person").keys.sorted() == ["age", "id", "name"])
        #expect(try result.db.indexes("Person").count == 2)
    }
}

/// A pause switch and the outcome of a migration run on another thread.
final class Gate: @unchecked Sendable {
    private let lock = NSLock()
    private var closed = true
    var isClosed: Bool {
        get {
            lock.lock()
            defer { lock.unlock() }
            return closed
        }
        set {
            lock.lock()
            closed = newValue
            lock.unlock()
        }
    }
    var result: Result<MigrationResult, any Error>?
    let finished = DispatchSemaphore(value: 0)
}
