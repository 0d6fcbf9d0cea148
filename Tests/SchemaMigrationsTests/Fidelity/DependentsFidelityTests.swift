import Foundation
import Testing

@testable import SchemaMigrations

/// Views and triggers around rebuilt and renamed tables keep working after the migration; what a
/// dropped column would break is refused before anything is written.
@Suite struct DependentsFidelityTests {
    typealias F = FidelityFixture
    typealias A = PlanBuilder

    static let table =
        "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL DEFAULT '', price REAL NOT NULL DEFAULT 0.0, note TEXT, deleted INTEGER NOT NULL DEFAULT 0, points INTEGER)"
    static let withPoints = A.entity(F.item, extra: [A.attribute("points", .integer, optional: true)])

    /// `points` renamed to `total` in the same stage as a rebuild of the table.
    static var renamedPoints: Schema.Entity {
        var entity = F.rebuilt(withPoints)
        entity.attributes[4] = A.attribute("total", .integer, optional: true, originalName: "points")
        return entity
    }

    @Test(arguments: F.Origin.allCases)
    func aRenameInsideARebuildKeepsViewsAndTriggersWorking(_ origin: F.Origin) throws {
        let (db, result) = try F.migrate(
            origin, table: Self.table,
            extra: """
                CREATE TABLE audit (what TEXT);
                CREATE VIEW scores AS SELECT name, points FROM item WHERE points IS NOT NULL;
                CREATE TRIGGER item_points AFTER UPDATE OF points ON item BEGIN INSERT INTO audit VALUES (new.name || ' ' || new.points); END;
                """, source: [Self.withPoints], target: [Self.renamedPoints])
        #expect(result.stages[0].steps.map(\.op) == [.renameColumn, .rebuildTable])
        try db.execute("UPDATE item SET total = 7 WHERE id = 1")
        #expect(try db.rows("SELECT what FROM audit") == [["'Swift 7'"]])
        #expect(try db.rows("SELECT * FROM scores") == [["'Swift'", "7"]])
    }

    @Test(arguments: F.Origin.allCases)
    func aViewOverARebuiltAndARenamedTableStaysValid(_ origin: F.Origin) throws {
        let tag = Schema.Entity(
            name: "tag",
            attributes: [
                A.attribute("label", .string, default: "''"), A.attribute("item_id", .integer, optional: true),
            ])
        var label = tag
        label.name = "label"
        label.originalName = "tag"
        let (db, _) = try F.migrate(
            origin, table: Self.table,
            extra: """
                INSERT INTO tag (label, item_id) VALUES ('fast', 1);
                CREATE VIEW tagged AS SELECT item.name, tag.label FROM item JOIN tag ON tag.item_id = item.id;
                """, source: [Self.withPoints, tag], target: [F.rebuilt(Self.withPoints), label],
            madeByHandFirst:
                "CREATE TABLE tag (id INTEGER PRIMARY KEY, label TEXT NOT NULL DEFAULT '', item_id INTEGER)")
        #expect(try db.rows("SELECT * FROM tagged") == [["'Swift'", "'fast'"]])
        try db.execute("ALTER TABLE item ADD COLUMN later TEXT")  // re-parses every view: none may be stale
    }

    @Test(arguments: F.Origin.allCases)
    func viewsOverViewsInsteadOfTriggersAndTriggersBetweenRebuiltTablesSurvive(_ origin: F.Origin) throws {
        let log = Schema.Entity(name: "log", attributes: [A.attribute("what", .string, optional: true)])
        let (db, _) = try F.migrate(
            origin, table: Self.table,
            extra: """
                CREATE VIEW cheap AS SELECT id, name, price FROM item WHERE price < 2;
                CREATE VIEW cheap_names AS SELECT name FROM cheap;
                CREATE TRIGGER cheap_insert INSTEAD OF INSERT ON cheap BEGIN INSERT INTO item (name, price) VALUES (new.name, new.price); END;
                CREATE TRIGGER item_logged AFTER INSERT ON item BEGIN INSERT INTO log (what) VALUES ('added ' || new.name); END;
                """, source: [Self.withPoints, log],
            target: [F.rebuilt(Self.withPoints), A.entity(log, extra: [A.attribute("at", .double, default: "0.0")])].map
            {
                $0.name == "log"
                    ? {
                        var e = $0
                        e.attributes[0] = A.attribute("what", .string, default: "''")
                        return e
                    }($0) : $0
            }, madeByHandFirst: "CREATE TABLE log (id INTEGER PRIMARY KEY, what TEXT)")
        try db.execute("INSERT INTO cheap (name, price) VALUES ('Zig', 1.0)")
        #expect(try db.rows("SELECT name FROM cheap_names ORDER BY name") == [["'Go'"], ["'Swift'"], ["'Zig'"]])
        #expect(try db.rows("SELECT what FROM log") == [["'added Zig'"]])
        #expect(
            try db.rows("SELECT type, name FROM sqlite_schema WHERE type IN ('view', 'trigger') ORDER BY name") == [
                ["'view'", "'cheap'"], ["'trigger'", "'cheap_insert'"], ["'view'", "'cheap_names'"],
                ["'trigger'", "'item_logged'"],
            ])
    }

    @Test func droppingAColumnACheckStillNeedsIsRefusedBeforeAnyWrite() throws {
        let db = TemporaryDatabase()
        try db.execute(
            """
            CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL DEFAULT '', price REAL NOT NULL DEFAULT 0.0, note TEXT,
              deleted INTEGER NOT NULL DEFAULT 0, points INTEGER, CHECK (points IS NULL OR points < price * 100));
            \(F.rows)
            """)
        var target = F.rebuilt(Self.withPoints)
        target.attributes.removeLast()
        let v1 = A.schema(1, [Self.withPoints])
        let v2 = A.schema(2, [target])
        try A.migrator([v1]).migrate(databaseAt: db.url)  // adopt
        let before = try db.bytes()
        let report = try A.migrator([v1, v2]).plan(databaseAt: db.url)
        #expect(
            report.refusals.map(\.message) == [
                "cannot drop 'item.points': the table constraint `CHECK (points IS NULL OR points < price * 100)` uses it"
            ])
        #expect(throws: MigrationError.self) { try A.migrator([v1, v2]).migrate(databaseAt: db.url) }
        #expect(try db.bytes() == before)
    }

    @Test func droppingAColumnAnExpressionIndexUsesIsRefusedAndACheckOnItAloneGoesWithIt() throws {
        let db = TemporaryDatabase()
        try db.execute(
            Self.table.replacingOccurrences(of: "points INTEGER", with: "points INTEGER CHECK (points >= 0)") + ";"
                + F.rows
                + "CREATE INDEX item_points_expr ON item (abs(points));")
        var target = F.rebuilt(Self.withPoints)
        target.attributes.removeLast()
        let v1 = A.schema(1, [Self.withPoints])
        let v2 = A.schema(2, [target])
        try A.migrator([v1]).migrate(databaseAt: db.url)
        let before = try db.bytes()
        #expect(throws: MigrationError.self) { try A.migrator([v1, v2]).migrate(databaseAt: db.url) }
        #expect(try db.bytes() == before)
        try db.execute("DROP INDEX item_points_expr")
        let report = try A.migrator([v1, v2]).plan(databaseAt: db.url)
        #expect(report.refusals.isEmpty)
        #expect(report.warnings.contains("destructive: rebuilding item removes item.points: its `CHECK (points >= 0)`"))
        try A.migrator([v1, v2]).migrate(databaseAt: db.url)
        try F.expectRowsIntact(db)
    }

    @Test func theDryRunSaysWhatTheRebuildKeeps() throws {
        let db = TemporaryDatabase()
        try db.execute(
            """
            CREATE TABLE item (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL DEFAULT '' COLLATE NOCASE, price REAL NOT NULL DEFAULT 0.0 CHECK (price >= 0),
              note TEXT, deleted INTEGER NOT NULL DEFAULT 0) STRICT;
            \(F.rows)
            CREATE INDEX item_lower ON item (lower(name));
            """)
        let v1 = A.schema(1, [F.item])
        let v2 = A.schema(2, [F.rebuilt()])
        let report = try A.migrator([v1, v2]).plan(databaseAt: db.url)
        let step = try #require(report.stages.first?.steps.first)
        #expect(
            step.carriedOver == [
                "`PRIMARY KEY AUTOINCREMENT`", "`COLLATE NOCASE`", "`CHECK (price >= 0)`", "STRICT", "index item_lower",
            ])
        #expect(
            report.description.contains(
                "keeps: `PRIMARY KEY AUTOINCREMENT`, `COLLATE NOCASE`, `CHECK (price >= 0)`, STRICT, index item_lower"))
        #expect(
            step.sql.first
                == "CREATE TABLE \"_sm_new_item\" (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL DEFAULT '' COLLATE NOCASE, price REAL NOT NULL DEFAULT 0.0 CHECK (price >= 0), note TEXT NOT NULL DEFAULT '', deleted INTEGER NOT NULL DEFAULT 0) STRICT"
        )
    }
}

extension DependentsFidelityTests {
    /// An index named like the dropped column (or over a function named like it) does not use it.
    @Test func anIndexNamedLikeADroppedColumnStays() throws {
        let db = TemporaryDatabase()
        try db.execute(
            Self.table + ";" + F.rows
                + "CREATE INDEX points ON item (name); CREATE INDEX item_len ON item (length(name));")
        var target = F.rebuilt(Self.withPoints)
        target.attributes.removeLast()
        let v1 = A.schema(1, [Self.withPoints])
        let v2 = A.schema(2, [target])
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try A.migrator([v1, v2]).migrate(databaseAt: db.url)
        #expect(
            try db.rows("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'item' ORDER BY name") == [
                ["'item_len'"], ["'points'"],
            ])
        try F.expectRowsIntact(db)
    }
}

extension DependentsFidelityTests {
    /// A view that uses a column the plan drops: the dry run warns, naming the view; applying
    /// fails naming it and leaves the file as it was.
    @Test func aViewOverADroppedColumnIsNamedByTheDryRunAndTheFailure() throws {
        let db = TemporaryDatabase()
        try db.execute(Self.table + ";" + F.rows + "CREATE VIEW scored AS SELECT name, points FROM item;")
        var target = F.rebuilt(Self.withPoints)
        target.attributes.removeLast()
        let v1 = A.schema(1, [Self.withPoints])
        let v2 = A.schema(2, [target])
        try A.migrator([v1]).migrate(databaseAt: db.url)
        let report = try A.migrator([v1, v2]).plan(databaseAt: db.url)
        #expect(
            report.warnings.contains {
                $0.hasPrefix("check: the view scored mentions item.points, which this migration drops")
            })
        let before = try db.bytes()
        let error = try #require(throws: MigrationError.self) { try A.migrator([v1, v2]).migrate(databaseAt: db.url) }
        #expect(error.message.contains("'scored' cannot be recreated"))
        #expect(try db.bytes() == before)
    }
}
