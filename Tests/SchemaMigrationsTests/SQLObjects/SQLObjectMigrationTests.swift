import Foundation
import Testing

@testable import SchemaMigrations

/// Views, triggers and virtual tables declared on a version: a new install has them, a stage
/// drops, changes and makes them, and a database created at a version equals one migrated to it.
@Suite struct SQLObjectMigrationTests {
    typealias A = PlanBuilder
    typealias B = BlogObjects

    /// Rows a user has at V1: two authors, three posts, their text.
    static func fill(_ db: TemporaryDatabase) throws {
        try db.execute(
            """
            INSERT INTO Author (name) VALUES ('ada'), ('bob');
            INSERT INTO Post (title, author, score) VALUES ('hello', 1, 3), ('again', 1, 4), ('hi', 2, 5);
            INSERT INTO PostText (rowid, title, body) VALUES (1, 'hello', 'first words'), (3, 'hi', 'short');
            """)
    }

    @Test func aNewInstallHasEveryDeclaredObjectInOrder() throws {
        let db = TemporaryDatabase()
        try A.migrator([B.v1]).migrate(databaseAt: db.url)
        let objects = try db.rows(
            "SELECT type, name FROM sqlite_schema WHERE type IN ('view', 'trigger') OR sql LIKE 'CREATE VIRTUAL%'")
        #expect(
            objects == [
                ["'view'", "'PostCount'"], ["'view'", "'TopAuthors'"], ["'trigger'", "'Post_audit'"],
                ["'table'", "'PostText'"],
            ])
        try Self.fill(db)
        #expect(try db.rows("SELECT note FROM Audit") == [["'post hello'"], ["'post again'"], ["'post hi'"]])
        #expect(try db.rows("SELECT author FROM TopAuthors") == [["1"]])
    }

    @Test func createdAtEachVersionEqualsMigratedToIt() throws {
        for (index, target) in [B.v2, B.v3].enumerated() {
            let versions = Array([B.v1, B.v2, B.v3].prefix(index + 2))
            let migrated = TemporaryDatabase()
            try A.migrator([B.v1]).migrate(databaseAt: migrated.url)
            try Self.fill(migrated)
            try A.migrator(versions).migrate(databaseAt: migrated.url)
            let created = TemporaryDatabase()
            try A.migrator(versions).migrate(databaseAt: created.url)
            #expect(try created.recordedVersion() == "\(target.version)")
            let (fresh, upgraded) = (try B.semanticSchema(created), try B.semanticSchema(migrated))
            #expect(
                fresh == upgraded,
                "at \(target.version): created only \(fresh.filter { !upgraded.contains($0) }), migrated only \(upgraded.filter { !fresh.contains($0) })"
            )
        }
    }

    @Test func aStageRemakesWhatChangedAndWhatReadsItKeepingTheTextTablesRows() throws {
        let db = TemporaryDatabase()
        try A.migrator([B.v1]).migrate(databaseAt: db.url)
        try Self.fill(db)
        let migrator = try A.migrator([B.v1, B.v2])
        let report = try migrator.plan(databaseAt: db.url)
        let summaries = report.stages.flatMap { $0.steps.map(\.step.summary) }
        #expect(
            summaries == [
                "Drop trigger Post_audit to recreate it (its SQL changed)",
                "Drop view TopAuthors to recreate it (it reads PostCount, which changes)",
                "Drop view PostCount to recreate it (its SQL changed)",
                "Rebuild table Post (copies every row): score: integer to double",
                "Rebuild virtual table PostText (its SQL changed), copying its rows",
                "Recreate view PostCount (its SQL changed)",
                "Recreate view TopAuthors (it reads PostCount, which changes)",
                "Recreate trigger Post_audit (its SQL changed)",
                "Create trigger Post_text",
            ], "\(summaries)")
        let ops = report.stages.flatMap { $0.steps.map(\.step.op.rawValue) }
        #expect(ops.contains("rebuildVirtualTable") && ops.contains("dropView") && ops.contains("createTrigger"))
        let rebuild = try #require(report.stages[0].steps.first { $0.step.op == .rebuildVirtualTable })
        #expect(
            rebuild.sql == [
                #"CREATE VIRTUAL TABLE "_sm_new_PostText" USING fts5(title, body, tags)"#,
                #"INSERT INTO "_sm_new_PostText" (rowid, "title", "body") SELECT rowid, "title", "body" FROM "PostText""#,
                #"DROP TABLE "PostText""#,
                #"ALTER TABLE "_sm_new_PostText" RENAME TO "PostText""#,
            ], "\(rebuild.sql)")
        let result = try migrator.migrate(databaseAt: db.url)
        #expect(result.toVersion == Schema.Version(2, 0, 0))
        #expect(
            try db.rows(
                "SELECT rowid, title, body, tags FROM PostText WHERE PostText MATCH 'words OR short' ORDER BY rowid")
                == [["1", "'hello'", "'first words'", "NULL"], ["3", "'hi'", "'short'", "NULL"]])
        #expect(
            try db.rows("SELECT author, posts, score FROM PostCount ORDER BY author") == [
                ["1", "2", "7.0"], ["2", "1", "5.0"],
            ])
        #expect(try db.rows("SELECT author FROM TopAuthors") == [["1"]])
        try db.execute("INSERT INTO Post (title, author, score) VALUES ('new', 2, 1)")
        #expect(try db.rows("SELECT note FROM Audit ORDER BY id DESC LIMIT 1") == [["'post new by 2'"]])
        #expect(try db.rows("SELECT title FROM PostText WHERE PostText MATCH 'new'") == [["'new'"]])
        #expect(try db.scalar("PRAGMA integrity_check")?.stringValue == "ok")
    }

    @Test func objectsTheNextVersionLeavesOutAreDroppedAndTheAppsOwnKept() throws {
        let db = TemporaryDatabase()
        try A.migrator([B.v1, B.v2]).migrate(databaseAt: db.url)
        try db.execute("CREATE VIEW AppOwn AS SELECT title FROM Post")
        try A.migrator([B.v1, B.v2, B.v3]).migrate(databaseAt: db.url)
        let names = try db.rows(
            "SELECT name FROM sqlite_schema WHERE type IN ('view', 'trigger') OR sql LIKE 'CREATE VIRTUAL%' ORDER BY name"
        )
        #expect(names == [["'AppOwn'"], ["'PostCount'"]])
        #expect(try db.rows("SELECT count(*) FROM sqlite_schema WHERE name LIKE 'PostText%'") == [["0"]])
    }

    @Test func aDeclaredObjectTheFileLacksIsADifferenceAndAChangedOneShowsItsSQL() throws {
        let db = TemporaryDatabase()
        try A.migrator([B.v1]).migrate(databaseAt: db.url)
        try db.execute("DROP VIEW TopAuthors; DROP VIEW PostCount; CREATE VIEW PostCount AS SELECT 1 AS author")
        let live = try LiveSchema.read(from: db.connect())
        let differences = SchemaComparison(checksDefaults: true).differences(declared: B.v1, live: live).map(
            \.description)
        #expect(
            differences == [
                "view PostCount is `CREATE VIEW PostCount AS SELECT 1 AS author`, declared `CREATE VIEW PostCount AS SELECT author, count(*) AS posts FROM Post GROUP BY author`",
                "view TopAuthors is missing",
            ])
        let stored = try SchemaDifference.sqlObject(name: "TopAuthors", declared: B.topAuthors, live: nil).encoded()
        #expect(SchemaDifference(encoded: stored) == .sqlObject(name: "TopAuthors", declared: B.topAuthors, live: nil))
    }

    @Test func theHashAndSnapshotCarryTheObjectsAndIgnoreSpelling() throws {
        var respelled = B.v1
        respelled.sqlObjects[0] = .view(
            "create view \"PostCount\" as select author, COUNT(*) as posts from post group by author;")
        #expect(respelled.versionHash == B.v1.versionHash)
        #expect(Schema(version: B.v1.version, entities: B.v1.entities).versionHash != B.v1.versionHash)
        let json = try B.v1.snapshotJSON()
        #expect(json.contains(#""kind": "virtualTable""#), "\(json)")
        #expect(try Schema(snapshotJSON: Data(json.utf8)) == B.v1)
        // The strict reader and the Codable one agree.
        #expect(Snapshot(scanning: Data(json.utf8))?.schema == B.v1)
        let bare = try Schema(version: B.v1.version, entities: B.v1.entities).snapshotJSON()
        #expect(!bare.contains("sqlObjects"), "a version without objects keeps its snapshot's form")
    }
}

/// The blog's stage run online: Post is rebuilt through a shadow while the objects are dropped,
/// rebuilt and made around the cut-over; the result equals the offline migration's.
@Suite struct SQLObjectOnlineTests {
    /// V2's objects over a Post whose rebuild needs no data check (a new default), which runs online.
    static let v2: Schema = {
        var v2 = BlogObjects.v2
        v2.entities[2] = BlogObjects.post(score: .integer)
        v2.entities[2].attributes[2].defaultValue = "0"
        return v2
    }()

    @Test func onlineEqualsOfflineWithDeclaredObjects() throws {
        let offline = TemporaryDatabase()
        let online = TemporaryDatabase()
        for db in [offline, online] {
            try PlanBuilder.migrator([BlogObjects.v1]).migrate(databaseAt: db.url)
            try SQLObjectMigrationTests.fill(db)
            try db.execute(
                "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000) INSERT INTO Post (title, author, score) SELECT 'p' || i, i % 7, i FROM n"
            )
        }
        try PlanBuilder.migrator([BlogObjects.v1, Self.v2]).migrate(databaseAt: offline.url)
        var options = MigrationOptions()
        options.online = OnlineRebuildOptions(chunkTargetMilliseconds: 1)
        let events = EventLog()
        options.progress = { events.append($0) }
        let planned = try PlanBuilder.migrator([BlogObjects.v1, Self.v2], options: options).plan(
            databaseAt: online.url)
        let result = try PlanBuilder.migrator([BlogObjects.v1, Self.v2], options: options).migrate(
            databaseAt: online.url)
        #expect(result.toVersion == Self.v2.version)
        #expect(
            events.activities.contains(.copyingOnline) && events.activities.contains(.cuttingOver),
            "\(String(describing: planned.online?.stages.map(\.offlineReasons)))")
        #expect(try BlogObjects.semanticSchema(online) == BlogObjects.semanticSchema(offline))
        #expect(
            try online.rows("SELECT rowid, title, body FROM PostText ORDER BY rowid")
                == offline.rows("SELECT rowid, title, body FROM PostText ORDER BY rowid"))
        #expect(
            try online.rows("SELECT * FROM PostCount ORDER BY author")
                == offline.rows("SELECT * FROM PostCount ORDER BY author"))
        #expect(try online.rows("PRAGMA integrity_check") == [["'ok'"]])
    }
}
