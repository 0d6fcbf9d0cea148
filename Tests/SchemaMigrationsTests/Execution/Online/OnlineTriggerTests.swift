import Foundation
import Testing

@testable import SchemaMigrations

/// The application's writes during an online copy, as the shadow's triggers carry them over: each
/// one succeeds or fails as it would without the migration, and the result is the offline one
/// plus those writes, whatever conflict policy the write has or a foreign key's action gives it.
@Suite struct OnlineTriggerTests {
    typealias A = PlanBuilder

    /// Person, and Pet referencing it (`ON DELETE SET NULL`), with a unique name.
    static let sql = """
        CREATE TABLE Person (id INTEGER PRIMARY KEY, name TEXT NOT NULL DEFAULT '');
        CREATE TABLE Pet (id INTEGER PRIMARY KEY, name TEXT NOT NULL DEFAULT '', age INTEGER, owner INTEGER REFERENCES Person (id) ON DELETE SET NULL);
        CREATE UNIQUE INDEX Pet_name_unique ON Pet (name);
        """
    static let person = Schema.Entity(name: "Person", attributes: [A.attribute("name", .string, default: "''")])
    static let owner = Schema.Attribute(
        name: "owner", valueType: .integer, isOptional: true,
        references: Schema.ForeignKey(table: "Person", onDelete: "SET NULL"))
    static let v1 = A.schema(
        1,
        [
            person,
            Schema.Entity(
                name: "Pet",
                attributes: [
                    A.attribute("name", .string, default: "''"), A.attribute("age", .integer, optional: true), owner,
                ], indexes: [Schema.Index(["name"], isUnique: true)]),
        ])

    /// V1 with `rows` pets, every third one without an owner, set up identically twice.
    static func makeV1(_ db: TemporaryDatabase, rows: Int = 600) throws {
        try db.execute(sql)
        try db.execute(
            """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 50)
            INSERT INTO Person (id, name) SELECT i, 'p' || i FROM n;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(rows))
            INSERT INTO Pet (id, name, age, owner) SELECT i, 'pet' || i, i % 20, CASE WHEN i % 3 = 0 THEN NULL ELSE i % 50 + 1 END FROM n;
            """)
        try A.migrator([v1]).migrate(databaseAt: db.url)
    }

    /// Migrates one copy online, running `writes` through the application's connection (foreign
    /// keys on) before the copy's second chunk, when the first chunk's rows are in the shadow; the
    /// other offline, after the same writes. Returns each write's error online and offline, and both dumps.
    static func bothWays(to v2: Schema, writes: [String]) throws -> (
        online: [String?], offline: [String?], onlineDump: [String], offlineDump: [String], ranOnline: Bool
    ) {
        let online = TemporaryDatabase()
        let offline = TemporaryDatabase()
        try makeV1(online)
        try makeV1(offline)
        let app = try Application(online)
        let outcomes = Outcomes()
        let calls = Outcomes()
        let events = EventLog()
        var options = MigrationOptions()
        options.progress = { events.append($0) }
        options.online = OnlineRebuildOptions(
            chunkTargetMilliseconds: 1,
            shouldPause: {
                calls.append(nil)
                guard calls.count == 2 else { return false }
                for sql in writes { outcomes.append(Self.error(of: sql, on: app.db)) }
                return false
            })
        try A.migrator([v1, v2], options: options).migrate(databaseAt: online.url)
        let db = try offline.connect()
        try db.execute("PRAGMA foreign_keys = ON")
        let offlineOutcomes = writes.map { Self.error(of: $0, on: db) }
        try A.migrator([v1, v2]).migrate(databaseAt: offline.url)
        return (
            outcomes.all, offlineOutcomes, try OnlineFixture.dump(online.url), try OnlineFixture.dump(offline.url),
            events.activities.contains(.cuttingOver)
        )
    }

    static func error(of sql: String, on db: SQLiteConnection) -> String? {
        do {
            try db.execute(sql)
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// V2 rebuilds Pet: `age` gets a default.
    static let v2 = A.schema(
        2,
        [
            person,
            Schema.Entity(
                name: "Pet",
                attributes: [
                    A.attribute("name", .string, default: "''"),
                    A.attribute("age", .integer, optional: true, default: "0"),
                    owner,
                ], indexes: [Schema.Index(["name"], isUnique: true)]),
        ])

    @Test func aParentDeletedWhileItsChildrenAreCopiedSetsTheirReferencesToNull() throws {
        // SQLite runs a foreign key's action as `OR ABORT`, which a statement in a trigger takes
        // over its own `OR REPLACE`: the shadow's row already there made the parent's DELETE fail.
        let result = try Self.bothWays(
            to: Self.v2, writes: ["DELETE FROM Person WHERE id = 2", "DELETE FROM Person WHERE id = 50"])
        #expect(result.ranOnline)
        #expect(result.online == [nil, nil])
        #expect(result.online == result.offline)
        #expect(result.onlineDump == result.offlineDump)
    }

    @Test(arguments: ["OR IGNORE", "OR ABORT", "OR FAIL", "OR ROLLBACK", ""])
    func anUpdateWithAConflictPolicyIsCarriedOver(_ policy: String) throws {
        // `UPDATE OR IGNORE` made the shadow's `INSERT OR REPLACE` an `INSERT OR IGNORE`, which kept
        // the row's old values there: the update was lost at the cut-over. The others failed.
        let result = try Self.bothWays(
            to: Self.v2,
            writes: [
                "UPDATE \(policy) Pet SET age = 99 WHERE id = 1",
                "UPDATE \(policy) Pet SET age = 98 WHERE id BETWEEN 2 AND 599",
                "INSERT \(policy) INTO Pet (id, name) VALUES (1000, 'new')",
                "UPDATE \(policy) Pet SET id = 2000 WHERE id = 3",
            ])
        #expect(result.ranOnline)
        #expect(result.online == [nil, nil, nil, nil])
        #expect(result.online == result.offline)
        #expect(result.onlineDump == result.offlineDump)
    }

    @Test func writesThatConflictFailOrAreIgnoredAsOffline() throws {
        let result = try Self.bothWays(
            to: Self.v2,
            writes: [
                "INSERT OR IGNORE INTO Pet (id, name) VALUES (5, 'taken id')",
                "INSERT OR IGNORE INTO Pet (id, name) VALUES (1001, 'pet7')",
                "UPDATE OR IGNORE Pet SET name = 'pet9' WHERE id = 8",
                "UPDATE Pet SET name = 'pet9' WHERE id = 8",
                "INSERT OR REPLACE INTO Pet (id, name, age) VALUES (1002, 'pet10', 5)",
                "UPDATE OR REPLACE Pet SET name = 'pet12' WHERE id = 11",
            ])
        #expect(result.ranOnline)
        #expect(result.online == result.offline)
        #expect(result.online.map { $0 == nil } == [true, true, true, false, true, true])
        #expect(result.onlineDump == result.offlineDump)
    }

    @Test func aRebuildDroppingAUniqueIndexRunsOffline() throws {
        // SQLite fires no delete trigger for the rows an `OR REPLACE` deletes through a unique
        // index (unless the connection turns recursive_triggers on): a shadow without the index
        // kept them, and they came back at the cut-over. (With the index, the triggers' INSERT
        // deletes them there too: `writesThatConflictFailOrAreIgnoredAsOffline`.)
        var v2 = Self.v2
        v2.entities[1].indexes = []
        let db = TemporaryDatabase()
        try Self.makeV1(db)
        let events = EventLog()
        var options = MigrationOptions()
        options.online = OnlineRebuildOptions(chunkTargetMilliseconds: 1)
        options.progress = { events.append($0) }
        let migrator = try A.migrator([Self.v1, v2], options: options)
        let stage = try #require(try migrator.plan(databaseAt: db.url).online?.stages.first)
        #expect(
            stage.offlineReasons == [
                "the rebuild of Pet drops or changes the unique index Pet_name_unique, through which an application's OR REPLACE deletes rows that the shadow would keep"
            ])
        try migrator.migrate(databaseAt: db.url)
        #expect(!events.activities.contains(.copyingOnline))
    }

    @Test func aRebuildGivingNullReferencesADefaultRunsOffline() throws {
        // NULL owners taking the default 0 point at no Person: online, the cut-over never checked
        // them (it reads no table rebuilt online) and the stage was recorded with 200 dangling
        // references; the shadow's triggers failed the application's writes of a NULL owner.
        var v2 = Self.v2
        v2.entities[1].attributes[2].isOptional = false
        v2.entities[1].attributes[2].defaultValue = "0"
        let online = TemporaryDatabase()
        try Self.makeV1(online)
        let before = try online.bytes()
        let events = EventLog()
        var options = MigrationOptions()
        options.online = OnlineRebuildOptions(chunkTargetMilliseconds: 1)
        options.progress = { events.append($0) }
        let migrator = try A.migrator([Self.v1, v2], options: options)
        let stage = try #require(try migrator.plan(databaseAt: online.url).online?.stages.first)
        #expect(!stage.runsOnline)
        #expect(
            stage.offlineReasons == [
                "the rebuild of Pet changes the values of owner, a foreign key, which must be checked over the whole table at once"
            ])
        let error = try #require(throws: MigrationError.self) { try migrator.migrate(databaseAt: online.url) }
        #expect(error.code == .dataViolation)
        #expect(!events.activities.contains(.copyingOnline))
        #expect(try online.bytes() == before)
    }
}

/// The application's connection, foreign keys on, used from the migrating thread.
final class Application: @unchecked Sendable {
    let db: SQLiteConnection
    init(_ database: TemporaryDatabase) throws {
        db = try database.connect()
        try db.execute("PRAGMA foreign_keys = ON")
    }
}

/// Values appended from the migrating thread.
final class Outcomes: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [String?] = []
    func append(_ value: String?) { lock.withLock { values.append(value) } }
    var all: [String?] { lock.withLock { values } }
    var count: Int { lock.withLock { values.count } }
}
