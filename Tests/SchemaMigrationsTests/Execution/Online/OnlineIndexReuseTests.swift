import Foundation
import Testing

@testable import SchemaMigrations

/// An online rebuild moves the old table's indexes that stay valid to the new table instead of
/// building them again row by row in the shadow (which costs a page write per row and index at
/// every chunk): the rowids are kept, and every column such an index reads is copied unchanged.
/// An index over a converted column is built in the shadow; the old one is released with the
/// old table. Either way the result is the offline result.
@Suite struct OnlineIndexReuseTests {
    typealias A = PlanBuilder

    static let v1 = OnlineRebuildTests.v1
    /// `name`'s default changes (a rebuild converting nothing), `age` is renamed `years`, and
    /// `email` becomes non-optional with a default (converted: `IFNULL(email, '')`).
    static let v2 = A.schema(
        2,
        [
            PersonFixture.person {
                $0.attributes = [
                    A.attribute("name", .string, default: "'unknown'"),
                    A.attribute("years", .integer, optional: true, originalName: "age"),
                    A.attribute("email", .string, default: "''"),
                ]
            }
        ])

    /// The indexes the application made by hand beside the declared one, and whether each stays
    /// valid through V1 → V2.
    static let handMade: [(name: String, sql: String, moves: Bool)] = [
        ("person_age_over_30", "CREATE INDEX person_age_over_30 ON Person(age) WHERE age > 30", true),
        ("person_name_age", "CREATE INDEX person_name_age ON Person(name, age DESC)", true),
        ("person_email_lower", "CREATE INDEX person_email_lower ON Person(lower(email))", false),
        ("person_email_age", "CREATE INDEX person_email_age ON Person(email, age, id)", false),
    ]

    static func makeV1(_ url: URL) throws {
        try OnlineRebuildTests.makeV1(url, rows: 3_000)
        let db = try SQLiteConnection(path: url.path)
        for index in handMade { try db.execute(index.sql) }
    }

    static func rootPages(_ url: URL) throws -> [String: Int64] {
        let db = try SQLiteConnection(path: url.path, mode: .readOnly)
        let rows = try db.rows("SELECT name, rootpage FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'Person'")
        return Dictionary(uniqueKeysWithValues: rows.map { ($0[0].stringValue!, $0[1].int64Value!) })
    }

    @Test func indexesOverUnchangedColumnsMoveAndTheResultIsTheOfflineOne() throws {
        let online = TemporaryDatabase()
        let offline = TemporaryDatabase()
        try Self.makeV1(online.url)
        try Self.makeV1(offline.url)
        let before = try Self.rootPages(online.url)
        let declared = try #require(before.keys.first { $0.lowercased().contains("name") && !$0.contains("age") })

        let writer = OnlineFixture.Writer(url: online.url, seed: 11, statements: OnlineRebuildTests.personWrites)
        var options = MigrationOptions()
        options.online = OnlineRebuildOptions(chunkTargetMilliseconds: 1)
        options.progress = { event in if event.activity == .cuttingOver { writer.stop() } }
        writer.start()
        Thread.sleep(forTimeInterval: 0.05)
        try A.migrator([Self.v1, Self.v2], options: options).migrate(databaseAt: online.url)
        let writes = writer.finish()
        #expect(writes.count > 10, "the application wrote during the copy")

        let db = try offline.connect()
        for sql in writes { try db.execute(sql) }
        try A.migrator([Self.v1, Self.v2]).migrate(databaseAt: offline.url)
        #expect(try OnlineFixture.dump(online.url) == OnlineFixture.dump(offline.url))
        #expect(try online.rows("PRAGMA integrity_check") == [["'ok'"]])

        let after = try Self.rootPages(online.url)
        #expect(after[declared] == before[declared], "the declared index on name moved as it was")
        for index in Self.handMade {
            #expect(after[index.name] != nil, "\(index.name) is there")
            #expect(
                (after[index.name] == before[index.name]) == index.moves,
                "\(index.name): \(index.moves ? "moved" : "built in the shadow")")
        }
        // Each index answers as a scan of the table does.
        let probes = [
            ("person_age_over_30", "years > 30"), ("person_name_age", "name >= 'p5'"),
            ("person_email_lower", "lower(email) >= 'p5'"), ("person_email_age", "email >= 'p5'"),
        ]
        for (index, condition) in probes {
            #expect(
                try online.rows("SELECT count(*) FROM Person INDEXED BY \(index) WHERE \(condition)")
                    == online.rows("SELECT count(*) FROM Person NOT INDEXED WHERE \(condition)"), "\(index)")
        }
        #expect(
            try online.rows("SELECT name FROM sqlite_schema WHERE name LIKE '_sm_%'").isEmpty,
            "the old indexes that did not move went with the old table")
    }

    /// A declared index that the stage renames over a column it renames (`Person_age` on `age`
    /// becomes `Person_by_years` on `years`) has the old index's entries: it moves under the new
    /// name instead of being built again.
    @Test func aRenamedDeclaredIndexOverARenamedColumnMovesUnderTheNewName() throws {
        let v1 = A.schema(1, [PersonFixture.person { $0.indexes = [Schema.Index(["name"]), Schema.Index(["age"])] }])
        let v2 = A.schema(
            2,
            [
                PersonFixture.person {
                    $0.attributes = [
                        A.attribute("name", .string, default: "'unknown'"),
                        A.attribute("years", .integer, optional: true, originalName: "age"),
                        A.attribute("email", .string, optional: true),
                    ]
                    $0.indexes = [Schema.Index(["name"]), Schema.Index(["years"], name: "Person_by_years")]
                }
            ])
        let online = TemporaryDatabase()
        let offline = TemporaryDatabase()
        for database in [online, offline] {
            try A.migrator([v1]).migrate(databaseAt: database.url)
            try database.connect().execute(
                """
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1500)
                INSERT INTO Person (id, name, age, email) SELECT i, 'p' || i, i % 90, NULL FROM n
                """)
        }
        let before = try Self.rootPages(online.url)
        let ageIndex = try #require(before.keys.first { $0.lowercased().contains("age") })
        var options = MigrationOptions()
        options.online = OnlineRebuildOptions(chunkTargetMilliseconds: 1)
        try A.migrator([v1, v2], options: options).migrate(databaseAt: online.url)
        try A.migrator([v1, v2]).migrate(databaseAt: offline.url)
        #expect(try OnlineFixture.dump(online.url) == OnlineFixture.dump(offline.url))
        #expect(try online.rows("PRAGMA integrity_check") == [["'ok'"]])
        let after = try Self.rootPages(online.url)
        let yearsIndex = "Person_by_years"
        #expect(after[yearsIndex] == before[ageIndex], "\(yearsIndex) is \(ageIndex)'s pages under its new name")
        #expect(after[ageIndex] == nil)
        #expect(
            try online.rows(
                "SELECT count(*) FROM Person INDEXED BY \(SQL.quoteIdentifier(yearsIndex)) WHERE years > 40")
                == online.rows("SELECT count(*) FROM Person NOT INDEXED WHERE years > 40"))
    }

    /// A unique index over unchanged columns is built in the shadow, never moved: an application's
    /// `INSERT OR REPLACE` deletes the row it conflicts with without firing a delete trigger, and
    /// only the shadow's own unique index deletes that row from the shadow too.
    @Test func aUniqueIndexIsBuiltInTheShadowSoAnApplicationsReplaceReachesIt() throws {
        let online = TemporaryDatabase()
        let offline = TemporaryDatabase()
        let replace = "INSERT OR REPLACE INTO Person (name, age, email) VALUES ('p5', 1, 'replaced')"
        for url in [online.url, offline.url] {
            try OnlineRebuildTests.makeV1(url, rows: 2_000)
            try SQLiteConnection(path: url.path).execute("CREATE UNIQUE INDEX person_name_unique ON Person(name)")
        }
        let before = try Self.rootPages(online.url)
        let app = OneWrite(connection: try SQLiteConnection(path: online.url.path), sql: replace)
        var options = MigrationOptions()
        options.online = OnlineRebuildOptions(
            chunkTargetMilliseconds: 0.5,
            shouldPause: {
                app.runOnce()
                return false
            })
        try A.migrator([OnlineRebuildTests.v1, OnlineRebuildTests.v2], options: options).migrate(
            databaseAt: online.url)
        #expect(app.ran)
        try offline.connect().execute(replace)
        try A.migrator([OnlineRebuildTests.v1, OnlineRebuildTests.v2]).migrate(databaseAt: offline.url)
        #expect(try OnlineFixture.dump(online.url) == OnlineFixture.dump(offline.url))
        #expect(try online.rows("PRAGMA integrity_check") == [["'ok'"]])
        #expect(try online.rows("SELECT count(*) FROM Person WHERE name = 'p5'") == [["1"]])
        #expect(try Self.rootPages(online.url)["person_name_unique"] != before["person_name_unique"])
    }

    /// A copy left by a run that prepared its shadow otherwise (an earlier release built every
    /// index in the shadow) is started over, not resumed: resumed, the shadow's extra index would
    /// have come along into the new table under its reserved name.
    @Test func aCopyPreparedOtherwiseStartsOverInsteadOfResuming() throws {
        let online = TemporaryDatabase()
        let offline = TemporaryDatabase()
        try OnlineRebuildTests.makeV1(online.url, rows: 500)
        try OnlineRebuildTests.makeV1(offline.url, rows: 500)
        let plan = try ResolvedPlan(
            name: "default", schemas: [OnlineRebuildTests.v1, OnlineRebuildTests.v2],
            stages: [PlannedStage(from: Schema.Version(1, 0, 0), to: Schema.Version(2, 0, 0), kind: .lightweight)])
        let stage = try #require(
            try plan.plannedStages(
                from: Schema.Version(1, 0, 0), to: Schema.Version(2, 0, 0), planner: OnlineMigration.planner
            ).first)
        let db = try online.connect()
        let live = try LiveSchema.read(from: db)
        let change = try #require(try OnlineStageDecision(stage, live: live).changes.first)
        let (table, parts) = try change.parts(in: live, renamesApplied: false, version: stage.to)
        for sql in try change.prepareStatements(live: table, parts: parts) { try db.execute(sql) }
        try db.execute("CREATE INDEX \"_sm_online_ix9_Person\" ON \"_sm_online_Person\" (name)")
        try db.execute("INSERT INTO \"_sm_online_Person\" SELECT * FROM Person WHERE id <= 300")
        let stale = Date().timeIntervalSince1970 - 600
        try db.execute(OnlineFixture.earlierStateSQL)
        try db.execute(
            "INSERT INTO _schema_migrations_online VALUES (1, 'default', '1.0.0', '2.0.0', 'copying', '_sm_online_Person', 300, 0, \(stale), \(stale), 'elsewhere:1')"
        )

        var options = MigrationOptions()
        options.online = OnlineRebuildOptions()
        try A.migrator([OnlineRebuildTests.v1, OnlineRebuildTests.v2], options: options).migrate(
            databaseAt: online.url)
        try A.migrator([OnlineRebuildTests.v1, OnlineRebuildTests.v2]).migrate(databaseAt: offline.url)
        #expect(try OnlineFixture.dump(online.url) == OnlineFixture.dump(offline.url))
        #expect(try online.rows("SELECT name FROM sqlite_schema WHERE name LIKE '_sm_%'").isEmpty)
        #expect(try online.rows("PRAGMA integrity_check") == [["'ok'"]])
    }

    /// The dry run names the indexes the shadow builds row by row, the slow kind of copy.
    @Test func theDryRunNamesTheIndexesTheShadowBuilds() throws {
        let db = TemporaryDatabase()
        try Self.makeV1(db.url)
        var options = MigrationOptions()
        options.online = OnlineRebuildOptions()
        let report = try A.migrator([Self.v1, Self.v2], options: options).plan(databaseAt: db.url)
        let stage = try #require(report.online?.stages.first)
        let built = Self.handMade.filter { !$0.moves }.map(\.name)
        #expect(stage.runsOnline)
        #expect(stage.indexesBuilt.mapValues(Set.init) == ["Person": Set(built)])
        let lines = try #require(report.online?.lines)
        #expect(
            lines.contains {
                $0.hasPrefix("     the shadow of Person builds ") && built.allSatisfy($0.contains)
                    && $0.contains("many times the offline copy")
            }, "\(lines)")
    }

    /// The key written on the column: only an ascending `INTEGER PRIMARY KEY` of a rowid table is
    /// the alias so written (a key written as a table constraint is
    /// ``TableDefinition/rowidAlias``'s other half, checked against SQLite in
    /// `TableDefinitionRowidAliasTests`). A rowid-alias key that stops being one would give the
    /// rows new rowids: nothing moves, and the text the rebuild checks is read from the
    /// definition, never assumed.
    @Test func onlyAnAscendingIntegerPrimaryKeyOnTheColumnIsTheAliasWrittenThere() throws {
        let cases: [(sql: String, keeps: Bool)] = [
            ("CREATE TABLE t (id INTEGER PRIMARY KEY, a)", true),
            ("CREATE TABLE t (id integer primary key autoincrement, a)", true),
            ("CREATE TABLE t (id INTEGER PRIMARY KEY ASC, a)", true),
            ("CREATE TABLE t (id INTEGER PRIMARY KEY DESC, a)", false),
            ("CREATE TABLE t (id INT PRIMARY KEY, a)", false),
            ("CREATE TABLE t (id INTEGER, a, PRIMARY KEY (id))", false),
            ("CREATE TABLE t (id INTEGER PRIMARY KEY, a) WITHOUT ROWID", false),
            ("CREATE TABLE t (id INTEGER, a)", false),
        ]
        for (sql, keeps) in cases {
            #expect(try TableDefinition(parsing: sql).keepsRowidAlias("ID") == keeps, "\(sql)")
        }
    }

    /// The gap after a chunk is the default busy handler's retry interval at the chunk's length,
    /// so a writer that waited all through the chunk retries inside the gap; a chunk that ends
    /// just as a writer retries counts as having made it wait for the next interval.
    @Test func theGapAfterAChunkCoversTheWaitingWritersNextRetry() {
        let gaps: [(held: Double, gap: Double)] = [
            (0.0005, 0.002), (0.001, 0.003), (0.002, 0.003), (0.007, 0.006), (0.008, 0.011), (0.009, 0.011),
            (0.018, 0.016), (0.020, 0.016), (0.400, 0.101), (60, 0.101),
        ]
        for (held, gap) in gaps {
            #expect(abs(OnlineMigration.writersGap(afterHolding: held) - gap) < 1e-9, "after \(held) s")
        }
        // Every writer's next retry after the chunk ends falls inside the gap.
        var retry = 0.0
        for delay in OnlineMigration.defaultBusyHandlerDelays {
            let next = retry + delay
            for held in stride(from: retry, to: next, by: 0.0005) {
                #expect(next - held <= OnlineMigration.writersGap(afterHolding: held / 1000) * 1000)
            }
            retry = next
        }
    }
}

/// The application's one write, made the first time a copy's hook asks, between two chunks.
final class OneWrite: @unchecked Sendable {
    // Sendable: the connection and the flag are touched only under the lock.
    private let lock = NSLock()
    private let connection: SQLiteConnection
    private let sql: String
    private var done = false
    private(set) var failure: Error?

    init(connection: SQLiteConnection, sql: String) {
        self.connection = connection
        self.sql = sql
    }

    func runOnce() {
        lock.withLock {
            guard !done else { return }
            done = true
            do { try connection.execute(sql) } catch { failure = error }
        }
    }

    var ran: Bool { lock.withLock { done && failure == nil } }
}
