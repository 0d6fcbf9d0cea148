import Foundation
import Testing

@testable import SchemaMigrations

/// Online rebuilds: the application keeps writing while a table is rebuilt, and the result is
/// the offline result plus the application's writes.
@Suite struct OnlineRebuildTests {
    typealias A = PlanBuilder

    static let v1 = A.schema(1, [PersonFixture.person])
    /// V2 changes the default of `name`: a rebuild, with no data check.
    static let v2 = A.schema(
        2, [PersonFixture.person { $0.attributes[0] = A.attribute("name", .string, default: "'unknown'") }])

    /// A V1 database with `rows` people, a view and a trigger over Person, in WAL mode.
    static func makeV1(_ url: URL, rows: Int) throws {
        try A.migrator([v1]).migrate(databaseAt: url)
        let db = try SQLiteConnection(path: url.path)
        try db.execute("PRAGMA journal_mode = WAL")
        try db.execute("CREATE TABLE Audit (personID INTEGER, what TEXT)")
        try db.execute("CREATE VIEW Adult AS SELECT id, name FROM Person WHERE age >= 18")
        try db.execute(
            "CREATE TRIGGER PersonDeleted AFTER DELETE ON Person BEGIN INSERT INTO Audit VALUES (OLD.id, 'deleted'); END"
        )
        try db.execute(
            """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(rows))
            INSERT INTO Person (id, name, age, email) SELECT i * 3, 'p' || i, i % 90, CASE WHEN i % 4 = 0 THEN NULL ELSE 'p' || i || '@example.com' END FROM n
            """)
    }

    /// Random inserts, updates and deletes on Person, valid in V1 and V2.
    static let personWrites: @Sendable (inout SeededGenerator) -> String = { random in
        let id = Int.random(in: 1...9_000, using: &random)
        switch Int.random(in: 0..<3, using: &random) {
        case 0: return "INSERT INTO Person (name, age, email) VALUES ('w\(id)', \(id % 100), NULL)"
        case 1: return "UPDATE Person SET age = \(id % 77), email = 'u\(id)' WHERE id = \(id)"
        default: return "DELETE FROM Person WHERE id = \(id)"
        }
    }

    @Test func theApplicationWritesDuringTheCopyAndTheResultIsTheOfflineOnePlusThoseWrites() throws {
        let online = TemporaryDatabase()
        let offline = TemporaryDatabase()
        try Self.makeV1(online.url, rows: 3_000)
        try Self.makeV1(offline.url, rows: 3_000)

        let writer = OnlineFixture.Writer(url: online.url, seed: 7, statements: Self.personWrites)
        let events = EventLog()
        var options = MigrationOptions()
        options.online = OnlineRebuildOptions(chunkTargetMilliseconds: 1)
        options.progress = { event in
            events.append(event)
            if event.activity == .cuttingOver { writer.stop() }  // the writes in V1's terms end before the swap
        }
        writer.start()
        Thread.sleep(forTimeInterval: 0.05)
        let result = try A.migrator([Self.v1, Self.v2], options: options).migrate(databaseAt: online.url)
        let writes = writer.finish()
        #expect(result.toVersion == Schema.Version(2, 0, 0))
        #expect(writes.count > 10, "the application wrote during the copy")
        #expect(
            events.activities.contains(.copyingOnline) && events.activities.contains(.cuttingOver)
                && events.activities.contains(.releasingOldTable))
        #expect(events.copyEvents > 1, "the copy ran in several chunks")

        let db = try offline.connect()
        for sql in writes { try db.execute(sql) }
        try A.migrator([Self.v1, Self.v2]).migrate(databaseAt: offline.url)
        #expect(try OnlineFixture.dump(online.url) == OnlineFixture.dump(offline.url))
        #expect(try online.recordedVersion() == "2.0.0")
        #expect(try online.rows("PRAGMA integrity_check") == [["'ok'"]])
        #expect(try online.rows("PRAGMA foreign_key_check").isEmpty)
        #expect(
            try online.rows(
                "SELECT name FROM sqlite_schema WHERE name LIKE '_sm_%' OR name = '_schema_migrations_online'"
            ).isEmpty)
    }
}

/// Progress events, collected from the migrating thread.
final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [MigrationProgress] = []
    func append(_ event: MigrationProgress) {
        lock.lock()
        events.append(event)
        lock.unlock()
    }
    var all: [MigrationProgress] {
        lock.lock()
        defer { lock.unlock() }
        return events
    }
    var activities: Set<MigrationProgress.Activity> { Set(all.map(\.activity)) }
    var copyEvents: Int { all.filter { $0.activity == .copyingOnline }.count }
}
