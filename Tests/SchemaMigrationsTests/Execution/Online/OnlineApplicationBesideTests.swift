import CSQLite
import Foundation
import Testing

@testable import SchemaMigrations

/// What an application does beside an online copy that the copy's triggers cannot see (a VACUUM,
/// a table dropped and made again, an index added, incremental blob I/O): each is handled (the
/// copy starts over or carries on) or made to fail loudly, and never is a row lost or changed.
@Suite struct OnlineApplicationBesideTests {
    typealias A = PlanBuilder

    /// `Log`, keyed by SQLite's hidden rowid (no `INTEGER PRIMARY KEY`): a VACUUM renumbers it.
    static let log = Schema.Entity(
        name: "Log",
        attributes: [A.attribute("line", .string, default: "''"), A.attribute("level", .integer, optional: true)],
        primaryKey: [])
    static let v1 = A.schema(1, [log])
    /// V2 changes the default of `line` and indexes `level`: a rebuild with no data check, online,
    /// whose shadow builds the new index as the rows arrive.
    static let v2 = A.schema(
        2,
        [
            Schema.Entity(
                name: "Log",
                attributes: [A.attribute("line", .string, default: "'?'"), log.attributes[1]],
                indexes: [Schema.Index(["level"])], primaryKey: [])
        ])

    /// A V1 database with `rows` log lines, every third one deleted so that rowids have gaps (which
    /// is what lets a VACUUM renumber them).
    static func makeV1(_ url: URL, rows: Int) throws {
        try A.migrator([v1]).migrate(databaseAt: url)
        let db = try SQLiteConnection(path: url.path)
        try db.execute(
            """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(rows))
            INSERT INTO Log (line, level) SELECT 'line ' || i, i % 7 FROM n
            """)
        try db.execute("DELETE FROM Log WHERE rowid % 3 = 0")
    }

    /// Online options with small chunks, and `beside` run on the application's connection after
    /// the copy's `chunk`-th chunk (0 for the first).
    static func options(after chunk: Int, _ beside: @escaping @Sendable () throws -> Void) -> (
        MigrationOptions, EventLog
    ) {
        var options = MigrationOptions()
        options.online = OnlineRebuildOptions(chunkTargetMilliseconds: 0.05)
        let events = EventLog()
        let count = Counter()
        options.progress = { event in
            events.append(event)
            if event.activity == .copyingOnline, count.next() == chunk { try? beside() }
        }
        return (options, events)
    }

    /// The table's rows with their rowids, as the application reads them.
    static func lines(_ db: SQLiteConnection) throws -> [String] {
        try db.rows("SELECT rowid, line, level FROM Log ORDER BY rowid").map { row in
            row.map(\.description).joined(separator: "|")
        }
    }

    @Test func aVacuumDuringTheCopyOfARowidTableLosesNoRow() throws {
        let db = TemporaryDatabase()
        try Self.makeV1(db.url, rows: 3_000)
        nonisolated(unsafe) let app = try db.connect()
        let vacuumed = Box<[String]>([])
        let (options, events) = Self.options(after: 1) {
            try app.execute("VACUUM")
            vacuumed.value = try Self.lines(app)
        }
        try A.migrator([Self.v1, Self.v2], options: options).migrate(databaseAt: db.url)
        #expect(events.activities.contains(.cuttingOver), "ran online")
        #expect(try db.recordedVersion() == "2.0.0")
        #expect(vacuumed.value.count == 2_000)
        #expect(vacuumed.value.first == "1|line 1|1", "the VACUUM renumbered the rows")
        #expect(try Self.lines(app) == vacuumed.value)
        #expect(try db.rows("PRAGMA integrity_check") == [["'ok'"]])
    }

    @Test func aVacuumAfterTheLastChunkIsSeenByTheCutOver() throws {
        let db = TemporaryDatabase()
        try Self.makeV1(db.url, rows: 3_000)
        nonisolated(unsafe) let app = try db.connect()
        var options = MigrationOptions()
        options.online = OnlineRebuildOptions(chunkTargetMilliseconds: 0.05)
        let vacuumed = Box<[String]>([])
        options.progress = { event in
            // The copy's last chunk has ended: the cut-over comes next.
            if event.activity == .copyingOnline, event.secondsLeft == 0, vacuumed.value.isEmpty {
                try? app.execute("VACUUM")
                vacuumed.value = (try? Self.lines(app)) ?? []
            }
        }
        try A.migrator([Self.v1, Self.v2], options: options).migrate(databaseAt: db.url)
        #expect(vacuumed.value.count == 2_000)
        #expect(try Self.lines(app) == vacuumed.value)
    }

    @Test func aTableDroppedAndMadeAgainDuringTheCopyEndsWithTheNewTablesRowsOnly() throws {
        let db = TemporaryDatabase()
        try Self.makeV1(db.url, rows: 3_000)
        nonisolated(unsafe) let app = try db.connect()
        let create = try #require(try app.scalar("SELECT sql FROM sqlite_schema WHERE name = 'Log'")?.stringValue)
        let (options, events) = Self.options(after: 1) {
            try app.execute(
                "BEGIN; DROP TABLE Log; \(create); INSERT INTO Log (line, level) VALUES ('new 1', 1), ('new 2', 2); COMMIT"
            )
        }
        try A.migrator([Self.v1, Self.v2], options: options).migrate(databaseAt: db.url)
        #expect(events.activities.contains(.cuttingOver), "ran online")
        #expect(try Self.lines(app) == ["1|new 1|1", "2|new 2|2"])
        #expect(try db.rows("SELECT name FROM sqlite_schema WHERE name LIKE '_sm_%'").isEmpty)
    }

    /// An index added beside the copy of a table keyed by an `INTEGER PRIMARY KEY` (its rowids
    /// are its own): the copy goes on where it was, the index moves to the new table at the
    /// cut-over, and the index the stage adds, built in the shadow, keeps its place.
    @Test func anIndexTheApplicationAddsDuringTheCopyIsKeptAndTheCopyGoesOn() throws {
        let db = TemporaryDatabase()
        try OnlineRebuildTests.makeV1(db.url, rows: 3_000)
        let v2 = A.schema(
            2,
            [
                PersonFixture.person {
                    $0.attributes[0] = A.attribute("name", .string, default: "'unknown'")
                    $0.indexes.append(Schema.Index(["age"]))
                }
            ])
        nonisolated(unsafe) let app = try db.connect()
        let before = try app.rows("SELECT * FROM Person ORDER BY id")
        let (options, events) = Self.options(after: 1) {
            try app.execute("CREATE INDEX Person_email ON Person (email)")
        }
        try A.migrator([OnlineRebuildTests.v1, v2], options: options).migrate(databaseAt: db.url)
        #expect(events.activities.contains(.cuttingOver), "ran online")
        let done = events.all.filter { $0.activity == .copyingOnline }.compactMap(\.rowsDone)
        #expect(done == done.sorted(), "the copy went on from where it was: \(done)")
        #expect(try db.recordedVersion() == "2.0.0")
        #expect(try app.rows("SELECT * FROM Person ORDER BY id") == before)
        #expect(
            try app.rows(
                "SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'Person' ORDER BY name")
                == [
                    ["Person_age", "CREATE INDEX \"Person_age\" ON \"Person\" (\"age\")"],
                    ["Person_email", "CREATE INDEX Person_email ON Person (email)"],
                    ["Person_name", "CREATE INDEX \"Person_name\" ON \"Person\" (\"name\")"],
                ].map { $0.map(SQLiteValue.text) })
        #expect(try db.rows("PRAGMA integrity_check") == [["'ok'"]])
    }

    @Test func anyOtherSchemaChangeBesideTheCopyOfARowidTableStartsItOver() throws {
        let db = TemporaryDatabase()
        try Self.makeV1(db.url, rows: 3_000)
        nonisolated(unsafe) let app = try db.connect()
        let before = try Self.lines(app)
        let (options, events) = Self.options(after: 1) { try app.execute("CREATE TABLE Other (x)") }
        try A.migrator([Self.v1, Self.v2], options: options).migrate(databaseAt: db.url)
        let done = events.all.filter { $0.activity == .copyingOnline }.compactMap(\.rowsDone)
        #expect(done.count > 3 && done != done.sorted(), "the copy started over: \(done)")
        #expect(try Self.lines(app) == before)
    }

    /// `sqlite3_blob_write` fires no trigger: during the copy a write handle cannot be opened on the
    /// table (SQLite's own rule for an indexed column, which the copy's guard index invokes), so the
    /// application sees an error instead of a write the cut-over would lose; after it, blob I/O works.
    @Test func incrementalBlobWritesFailLoudlyDuringTheCopyAndWorkAfterIt() throws {
        let db = TemporaryDatabase()
        try Self.makeV1(db.url, rows: 3_000)
        nonisolated(unsafe) let app = try db.connect()
        let opened = Box<Int32>(SQLITE_OK)
        let message = Box<String>("")
        let (options, _) = Self.options(after: 2) {
            let outcome = Self.blobWrite(app, rowid: 1, bytes: "LINE")
            opened.value = outcome.code
            message.value = outcome.message
        }
        try A.migrator([Self.v1, Self.v2], options: options).migrate(databaseAt: db.url)
        #expect(opened.value == SQLITE_ERROR)
        #expect(message.value == "cannot open indexed column for writing")
        #expect(try db.rows("SELECT line FROM Log WHERE rowid = 1") == [["'line 1'"]])
        // sqlite3_blob_open checks columns against the connection's cached schema, which still has
        // the guard until the connection runs a statement after the cut-over.
        #expect(try app.scalar("SELECT count(*) FROM Log")?.int64Value == 2_000)
        let after = Self.blobWrite(app, rowid: 1, bytes: "LINE")
        #expect(after.code == SQLITE_OK, "\(after.message)")
        #expect(try db.rows("SELECT line FROM Log WHERE rowid = 1") == [["'LINE 1'"]])
        #expect(try db.rows("SELECT name FROM sqlite_schema WHERE name LIKE '_sm_%'").isEmpty)
    }

    /// Overwrites the first bytes of row `rowid`'s `line` with `bytes` through incremental blob I/O.
    static func blobWrite(_ db: SQLiteConnection, rowid: Int64, bytes: String) -> (code: Int32, message: String) {
        var blob: OpaquePointer?
        let code = sqlite3_blob_open(db.handle, "main", "Log", "line", rowid, 1, &blob)
        guard code == SQLITE_OK, let blob else {
            return (code, String(cString: sqlite3_errmsg(db.handle)))
        }
        defer { sqlite3_blob_close(blob) }
        let written = Array(bytes.utf8).withUnsafeBytes { sqlite3_blob_write(blob, $0.baseAddress, Int32($0.count), 0) }
        return (written, "")
    }
}

/// A value shared with a `@Sendable` closure.
final class Box<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: T
    init(_ value: T) { stored = value }
    var value: T {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
