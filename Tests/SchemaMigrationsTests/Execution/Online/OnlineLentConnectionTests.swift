import Foundation
import Testing

@testable import SchemaMigrations

/// An online migration through a connection the application lends (`migrate(connection:)`, as
/// GRDB users call it) while another connection of the application keeps writing.
@Suite struct OnlineLentConnectionTests {
    typealias A = PlanBuilder
    static let v1 = OnlineRebuildTests.v1, v2 = OnlineRebuildTests.v2

    @Test func aLentConnectionMigratesOnlineWhileAnotherConnectionWritesAndIsGivenBackAsItWas() throws {
        let online = TemporaryDatabase()
        let offline = TemporaryDatabase()
        try OnlineRebuildTests.makeV1(online.url, rows: 3_000)
        try OnlineRebuildTests.makeV1(offline.url, rows: 3_000)

        // The application's connection, with its own settings: foreign keys on, a busy timeout.
        let app = try SQLiteConnection(path: online.path, busyTimeout: 10)
        try app.execute("PRAGMA foreign_keys = ON")
        let writer = OnlineFixture.Writer(url: online.url, seed: 11, statements: OnlineRebuildTests.personWrites)
        let events = EventLog()
        var options = OnlineRebuildEdgeTests.options(OnlineRebuildOptions(chunkTargetMilliseconds: 1))
        options.progress = { event in
            events.append(event)
            if event.activity == .cuttingOver { writer.stop() }  // the writes in V1's terms end before the swap
        }
        writer.start()
        Thread.sleep(forTimeInterval: 0.05)
        let result = try A.migrator([Self.v1, Self.v2], options: options).migrate(connection: app.handle)
        let writes = writer.finish()
        #expect(result.toVersion == Schema.Version(2, 0, 0))
        #expect(writes.count > 10, "the other connection wrote during the copy")
        #expect(
            events.copyEvents > 1 && events.activities.contains(.cuttingOver),
            "the table was rebuilt online, in several chunks")

        // Given back as it was lent: outside any transaction, its settings restored, usable.
        #expect(app.isAutocommit)
        #expect(try app.pragmaInteger("foreign_keys") == 1)
        try app.execute("INSERT INTO Person (name) VALUES ('after')")

        // The result is the offline migration's plus the other connection's writes.
        let db = try offline.connect()
        for sql in writes { try db.execute(sql) }
        try A.migrator([Self.v1, Self.v2]).migrate(databaseAt: offline.url)
        try offline.execute("INSERT INTO Person (name) VALUES ('after')")
        #expect(try OnlineFixture.dump(online.url) == OnlineFixture.dump(offline.url))
        #expect(try online.rows("PRAGMA integrity_check") == [["'ok'"]])
        #expect(
            try online.rows(
                "SELECT name FROM sqlite_schema WHERE name LIKE '_sm_%' OR name = '_schema_migrations_online'"
            ).isEmpty)
    }
}
