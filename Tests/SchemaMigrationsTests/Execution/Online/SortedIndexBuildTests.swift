import Foundation
import Testing

@testable import SchemaMigrations

/// An index an online rebuild adds over NOT NULL columns of a table without unique constraints
/// is built after the copy in key order (``SortedIndexBuild``) instead of row by row in the
/// shadow: the result is the offline result with the application's writes, the index answers
/// as a scan does, an interrupted build is resumed or cleaned up, and one the application
/// tampers with starts over.
@Suite struct SortedIndexBuildTests {
    typealias A = PlanBuilder

    static let trip = Schema.Entity(
        name: "Trip",
        attributes: [
            A.attribute("name", .string, default: "''"),
            A.attribute("city", .string, default: "''"),
            A.attribute("score", .double, default: "0"),
            A.attribute("note", .string, optional: true),
        ], indexes: [Schema.Index(["name"])])
    static let v1 = A.schema(1, [trip])
    /// V2 adds an index over `city COLLATE NOCASE, score DESC` (NOT NULL columns: built in key
    /// order) and one over the optional `note` (built in the shadow as the rows arrive).
    static let v2 = A.schema(
        2,
        [
            {
                var entity = trip
                entity.indexes += [
                    Schema.Index(
                        elements: [.column("city", collation: "NOCASE"), .column("score", descending: true)],
                        name: "Trip_city_score"),
                    Schema.Index(["note"], name: "Trip_note"),
                ]
                return entity
            }()
        ])

    /// V1 with `rows` trips: cities in mixed case (equal under NOCASE), scores integral,
    /// fractional and negative (a REAL column stores integral values as integers), some notes.
    static func makeV1(_ url: URL, rows: Int = 4_000, wal: Bool = true) throws {
        try A.migrator([v1]).migrate(databaseAt: url)
        let db = try SQLiteConnection(path: url.path)
        if wal { try db.execute("PRAGMA journal_mode = WAL") }
        try db.execute(
            """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(rows))
            INSERT INTO Trip (id, name, city, score, note)
            SELECT i, 'trip ' || i, CASE i % 3 WHEN 0 THEN 'paris' WHEN 1 THEN 'PARIS' ELSE 'Oslo ' || (i % 17) END,
                   CASE i % 4 WHEN 0 THEN i WHEN 1 THEN i / 7.0 WHEN 2 THEN -i ELSE 0.5 END,
                   CASE WHEN i % 5 = 0 THEN NULL ELSE 'n' || (i % 11) END
            FROM n
            """)
    }

    static let writes: @Sendable (inout SeededGenerator) -> String = { random in
        let id = Int.random(in: 1...4_500, using: &random)
        switch Int.random(in: 0..<6, using: &random) {
        case 0: return "INSERT INTO Trip (name, city, score) VALUES ('w\(id)', 'Rome', \(id % 9))"
        case 1: return "UPDATE Trip SET city = 'rome', score = \(id) * 1.5 WHERE id = \(id)"
        case 2: return "DELETE FROM Trip WHERE id = \(id)"
        case 3: return "INSERT OR REPLACE INTO Trip (id, name, city, score) VALUES (\(id), 'r\(id)', 'PARIS', -\(id))"
        case 4: return "UPDATE Trip SET note = 'x' WHERE id = \(id)"
        default: return "UPDATE OR IGNORE Trip SET score = score + 1 WHERE id BETWEEN \(id) AND \(id + 20)"
        }
    }

    static func migrator(_ options: MigrationOptions = MigrationOptions()) throws -> Migrator {
        try A.migrator([v1, v2], options: options)
    }

    /// The checks every finished database passes: the index answers as a scan does, the file is
    /// sound, nothing of the online change is left.
    static func expectSound(_ database: TemporaryDatabase, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(try database.rows("PRAGMA integrity_check") == [["'ok'"]], sourceLocation: sourceLocation)
        for condition in ["city = 'paris'", "city >= 'OSLO 3'", "city = 'Rome' AND score > 10", "score < 0"] {
            #expect(
                try database.rows(
                    "SELECT id FROM Trip INDEXED BY Trip_city_score WHERE \(condition) ORDER BY city COLLATE NOCASE, score DESC, id"
                )
                    == database.rows(
                        "SELECT id FROM Trip NOT INDEXED WHERE \(condition) ORDER BY city COLLATE NOCASE, score DESC, id"
                    ),
                "\(condition)", sourceLocation: sourceLocation)
        }
        #expect(
            try database.rows("SELECT name FROM sqlite_schema WHERE name LIKE '\\_sm\\_%' ESCAPE '\\'").isEmpty,
            sourceLocation: sourceLocation)
    }

    /// The entries are read in short reads: back to back in WAL mode, otherwise with gaps.
    @Test(arguments: [true, false])
    func theIndexIsBuiltInKeyOrderAndTheResultIsTheOfflineOne(wal: Bool) throws {
        let online = TemporaryDatabase()
        let offline = TemporaryDatabase()
        try Self.makeV1(online.url, wal: wal)
        try Self.makeV1(offline.url, wal: wal)

        let events = BuildEvents()
        let writer = OnlineFixture.Writer(url: online.url, seed: 7, statements: Self.writes)
        var options = MigrationOptions()
        options.online = OnlineRebuildOptions(chunkTargetMilliseconds: 1)
        options.progress = { event in
            events.append(event)
            if event.activity == .cuttingOver { writer.stop() }
        }
        let report = try Self.migrator(options).plan(databaseAt: online.url).online?.stages.first
        #expect(report?.indexesInKeyOrder == ["Trip": ["Trip_city_score"]])
        #expect(report?.indexesBuilt == ["Trip": ["Trip_note"]])
        writer.start()
        defer { writer.stop() }  // a failing migration must not leave the writer running
        Thread.sleep(forTimeInterval: 0.05)
        try Self.migrator(options).migrate(databaseAt: online.url)
        let writes = writer.finish()
        #expect(writes.count > 10, "the application wrote during the copy")
        let built = events.all.filter { $0.summary == "Build the index Trip_city_score of Trip in key order" }
        #expect(built.count > 1, "the entries were written in several chunks")
        #expect(built.last?.rowsDone == built.last?.rowsTotal)

        let db = try offline.connect()
        for sql in writes { try db.execute(sql) }
        try Self.migrator().migrate(databaseAt: offline.url)
        #expect(try OnlineFixture.dump(online.url) == OnlineFixture.dump(offline.url))
        try Self.expectSound(online)
    }

    /// The build stops halfway (the application holds the write lock past the busy timeout): the
    /// application's writes still reach the shadow and its entries; the next online run releases
    /// the half-built entries in chunks and builds them again; an offline run instead abandons
    /// the change and leaves nothing of it.
    @Test(arguments: [true, false])
    func anInterruptedBuildIsBuiltAgainOrCleanedUp(resumeOnline: Bool) throws {
        let online = TemporaryDatabase()
        let offline = TemporaryDatabase()
        try Self.makeV1(online.url)
        try Self.makeV1(offline.url)
        let building = Flag()
        let blocker = Blocker(try SQLiteConnection(path: online.url.path))
        var options = MigrationOptions()
        options.busyTimeout = 0.2
        options.online = OnlineRebuildOptions(chunkTargetMilliseconds: 1)
        options.online?.shouldPause = {
            if building.count == 2 { blocker.hold() }
            return false
        }
        options.progress = { event in if event.summary.hasPrefix("Build the index") { building.increment() } }
        #expect(throws: MigrationError.self) { try Self.migrator(options).migrate(databaseAt: online.url) }
        try blocker.release()
        let entries = try #require(
            try online.connect().rows(
                "SELECT name FROM sqlite_schema WHERE type = 'table' AND name LIKE '\\_sm\\_online\\_ix%' ESCAPE '\\' AND name <> '_sm_online_ix0_Trip'"
            ).first?.first?.stringValue)
        #expect(
            try online.rows("SELECT count(*) > 0 FROM \(SQL.quoteIdentifier(entries))") == [["1"]],
            "the build stopped with entries written")

        let writes = [
            "UPDATE Trip SET city = 'Lima', score = 3 WHERE id BETWEEN 10 AND 400",
            "DELETE FROM Trip WHERE id % 7 = 0", "INSERT INTO Trip (name, city, score) VALUES ('late', 'lima', 2.5)",
        ]
        for sql in writes {
            try online.execute(sql)
            try offline.execute(sql)
        }
        var again = MigrationOptions()
        if resumeOnline { again.online = OnlineRebuildOptions(chunkTargetMilliseconds: 1) }
        try Self.migrator(again).migrate(databaseAt: online.url)
        try Self.migrator().migrate(databaseAt: offline.url)
        #expect(try OnlineFixture.dump(online.url) == OnlineFixture.dump(offline.url))
        try Self.expectSound(online)
    }

    /// The application drops a table of the build (the touched rowids') while it runs: the
    /// change starts over rather than cutting over an index that no longer matches its table.
    @Test func aBuildTheApplicationTampersWithStartsOver() throws {
        let online = TemporaryDatabase()
        let offline = TemporaryDatabase()
        try Self.makeV1(online.url)
        try Self.makeV1(offline.url)
        let building = Flag()
        let app = Blocker(try SQLiteConnection(path: online.url.path))
        var options = MigrationOptions()
        options.online = OnlineRebuildOptions(chunkTargetMilliseconds: 1)
        options.online?.shouldPause = {
            if building.count == 1 {
                building.increment()
                app.execute("DROP TABLE _sm_online_ix0_Trip")
            }
            return false
        }
        options.progress = { event in
            if event.summary.hasPrefix("Build the index") && building.count == 0 { building.increment() }
        }
        try Self.migrator(options).migrate(databaseAt: online.url)
        #expect(building.count == 2, "the application dropped the table during the build")
        try Self.migrator().migrate(databaseAt: offline.url)
        #expect(try OnlineFixture.dump(online.url) == OnlineFixture.dump(offline.url))
        try Self.expectSound(online)
    }

    // MARK: Which indexes are built in key order

    static func builds(_ createTable: String, _ indexes: [String]) -> [SortedIndexBuild] {
        SortedIndexBuild.builds(
            createTable: createTable, indexes: indexes, candidates: Array(indexes.indices), shadow: "_sm_online_t"
        ) { "_sm_online_ix\($0 + 1)_t" }
    }

    @Test func onlyIndexesTheTableCanBeKeptEqualToAreBuiltInKeyOrder() throws {
        let table = """
            CREATE TABLE "_sm_online_t" ("id" INTEGER PRIMARY KEY, "a" TEXT NOT NULL COLLATE NOCASE, "b" REAL NOT NULL, \
            "c" TEXT, "d" VARCHAR(10) NOT NULL, "g" INTEGER NOT NULL GENERATED ALWAYS AS (1) VIRTUAL)
            """
        let index = { (terms: String) in "CREATE INDEX \"x\" ON \"_sm_online_t\" (\(terms))" }
        let built = Self.builds(table, [index("\"a\", \"b\" DESC"), index("\"d\" COLLATE BINARY ASC")])
        #expect(
            built.map(\.terms) == [
                [
                    .init(column: "a", affinity: .text, collation: "NOCASE", descending: false),
                    .init(column: "b", affinity: .real, collation: nil, descending: true),
                ],
                [.init(column: "d", affinity: .text, collation: "BINARY", descending: false)],
            ])
        #expect(built.map(\.name) == ["_sm_online_ix1_t", "_sm_online_ix2_t"])
        #expect(built[0].indexSQL == "CREATE INDEX \"_sm_online_ix1_t\" ON \"_sm_online_t\" (\"a\", \"b\" DESC)")
        for terms in [
            "\"c\"",  // a NULL has no place in a WITHOUT ROWID key
            "\"g\"",  // generated
            "lower(\"a\")",  // an expression
            "\"a\", \"a\"",  // a column twice
            "\"missing\"",
        ] {
            #expect(Self.builds(table, [index(terms)]).isEmpty, "\(terms)")
        }
        #expect(Self.builds(table, [index("\"a\"") + " WHERE \"b\" > 0"]).isEmpty, "partial")
        #expect(Self.builds(table, ["CREATE UNIQUE INDEX \"x\" ON \"_sm_online_t\" (\"a\")"]).isEmpty, "unique")
        // A unique index or constraint anywhere on the table: an OR REPLACE deletes rows unseen.
        #expect(
            Self.builds(table, [index("\"a\""), "CREATE UNIQUE INDEX \"u\" ON \"_sm_online_t\" (\"d\")"]).isEmpty)
        for other in [
            "CREATE TABLE \"_sm_online_t\" (\"id\" INTEGER PRIMARY KEY, \"a\" TEXT NOT NULL UNIQUE)",
            "CREATE TABLE \"_sm_online_t\" (\"id\" TEXT PRIMARY KEY, \"a\" TEXT NOT NULL)",
            "CREATE TABLE \"_sm_online_t\" (\"id\" INTEGER, \"a\" TEXT NOT NULL, UNIQUE (\"a\", \"id\"))",
            "CREATE TABLE \"_sm_online_t\" (\"id\" INTEGER PRIMARY KEY DESC, \"a\" TEXT NOT NULL)",
            "CREATE TABLE \"_sm_online_t\" (\"a\" TEXT NOT NULL)",
            "CREATE TABLE \"_sm_online_t\" (\"id\" INTEGER PRIMARY KEY, \"a\" TEXT NOT NULL) WITHOUT ROWID",
        ] {
            #expect(Self.builds(other, [index("\"a\"")]).isEmpty, "\(other)")
        }
        #expect(
            Self.builds(
                "CREATE TABLE \"_sm_online_t\" (\"id\" INTEGER PRIMARY KEY, \"a\" ANY NOT NULL) STRICT",
                [index("\"a\"")]
            )
            .first?.terms.first?.affinity == .blob, "STRICT's ANY keeps values as they are")
    }

    /// Names the build makes for itself never meet the index's own columns, and a column name
    /// with quotes and spaces is written so that SQLite reads it back.
    @Test func theEntriesTableIsValidSQLWhateverTheColumnsAreCalled() throws {
        let table = """
            CREATE TABLE "_sm_online_t" ("id" INTEGER PRIMARY KEY, "_sm_rowid" TEXT NOT NULL, "we""ird col" INTEGER NOT NULL)
            """
        let built = try #require(
            Self.builds(table, ["CREATE INDEX \"x\" ON \"_sm_online_t\" (\"_sm_rowid\", \"we\"\"ird col\" DESC)"]).first
        )
        #expect(built.rowidColumn == "_sm_rowid_")
        let db = try SQLiteConnection(path: ":memory:")
        try db.execute(table)
        try db.execute(built.createTableSQL)
        try db.execute("INSERT INTO \"_sm_online_t\" VALUES (1, 'a', 2)")
        try db.execute(
            "INSERT INTO \(SQL.quoteIdentifier(built.name)) SELECT \"_sm_rowid\", \"we\"\"ird col\", id FROM \"_sm_online_t\""
        )
        try db.execute("PRAGMA writable_schema = ON")
        for sql in built.conversionStatements { try db.execute(sql) }
        try db.execute("PRAGMA writable_schema = RESET")
        #expect(try db.rows("PRAGMA integrity_check").map { $0.first?.stringValue } == ["ok"])
    }
}

/// Progress events, collected from the migration's thread.
private final class BuildEvents: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [MigrationProgress] = []
    func append(_ event: MigrationProgress) { lock.withLock { events.append(event) } }
    var all: [MigrationProgress] { lock.withLock { events } }
}

/// Another connection of the application's, used from the migration's hooks.
private final class Blocker: @unchecked Sendable {
    private let db: SQLiteConnection
    init(_ db: SQLiteConnection) { self.db = db }
    func hold() { if db.isAutocommit { try? db.execute("BEGIN IMMEDIATE") } }
    func release() throws { try db.execute("ROLLBACK") }
    func execute(_ sql: String) { try? db.execute(sql) }
}

/// A counter shared by the migration's hooks.
private final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func increment() { lock.withLock { value += 1 } }
    var count: Int { lock.withLock { value } }
}
