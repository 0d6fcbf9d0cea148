import Foundation
import Testing

@testable import SchemaMigrations

/// A rebuild creates its new table under `_sm_new_<table>`, a name only this library makes; a
/// database that already has something of that name (made by hand, in any case of letters) keeps
/// it, and the rebuild takes the next free name instead of failing halfway.
@Suite struct TemporaryNameCollisionTests {
    typealias A = PlanBuilder

    static let objects = [
        #"CREATE INDEX "_sm_new_Item" ON Item (code)"#,
        #"CREATE TABLE "_SM_NEW_ITEM" (x)"#,
        #"CREATE VIEW "_sm_new_item" AS SELECT count(*) AS n FROM Item"#,
        #"CREATE TRIGGER "_sm_new_Item" AFTER INSERT ON Item BEGIN SELECT 1; END"#,
        #"CREATE INDEX "_sm_new_Item" ON Item (code); CREATE TABLE "_sm_new_Item_2" (x)"#,
    ]

    @Test(arguments: objects)
    func aRebuildTakesTheNextFreeNameForItsNewTable(object: String) throws {
        let db = TemporaryDatabase()
        try db.execute(
            """
            CREATE TABLE Item (id INTEGER PRIMARY KEY, email TEXT UNIQUE, name TEXT NOT NULL DEFAULT '', code TEXT);
            INSERT INTO Item VALUES (1, 'ada@example.com', 'Ada', 'a1'), (2, NULL, 'Alan', NULL);
            \(object);
            """)
        let schema =
            "SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE name LIKE '\\_sm\\_new\\_%' ESCAPE '\\' ORDER BY name"
        let before = try db.rows(schema)
        let v1 = FreedPagesOrderTests.v1
        _ = try A.migrator([v1]).baseline(databaseAt: db.url, version: v1.version)
        let migrator = try A.migrator([FreedPagesOrderTests.v1, FreedPagesOrderTests.v2])

        let report = try migrator.plan(databaseAt: db.url)
        #expect(report.refusals.isEmpty)
        let rebuild = try #require(report.stages.first?.steps.first { $0.step.op == .rebuildTable })
        let free = object.contains("_sm_new_Item_2") ? "_sm_new_Item_3" : "_sm_new_Item_2"
        // A view or trigger over Item is set aside first, as the migration does.
        #expect(rebuild.sql.first { $0.hasPrefix("CREATE TABLE") }?.hasPrefix(#"CREATE TABLE "\#(free)" ("#) == true)
        #expect(rebuild.sql.contains(#"ALTER TABLE "\#(free)" RENAME TO "Item""#))

        try migrator.migrate(databaseAt: db.url)
        #expect(try db.recordedVersion() == "2.0.0")
        #expect(try db.rows(schema) == before)
        #expect(
            try db.rows("SELECT id, email, name, code FROM Item ORDER BY id") == [
                ["1", "'ada@example.com'", "'Ada'", "'a1'"], ["2", "NULL", "'Alan'", "NULL"],
            ])
        #expect(try db.scalar("PRAGMA integrity_check")?.stringValue == "ok")
    }
}

/// A stage's renames pass through `_sm_tmp_N` (a swap, a chain, a case-only rename) and move a
/// dropped item out of a rename's way to `_sm_drop_N`: names the plan chooses from the
/// declarations alone. A database that has one already (a table, index or view made by hand, a
/// column a baseline kept), or a declaration that uses one, gets the next free name, in the dry
/// run and the migration alike.
@Suite struct RenameTemporaryNameCollisionTests {
    typealias A = PlanBuilder

    static func entity(_ name: String, originalName: String? = nil, _ attributes: [Schema.Attribute]) -> Schema.Entity {
        Schema.Entity(name: name, originalName: originalName, attributes: attributes)
    }

    /// V1: One(x), Two(y), Item(a, b), Gone(g), Stays(s). V2 swaps One and Two, swaps Item's a and
    /// b, and renames Stays to Gone while dropping Gone (which moves aside first).
    static let v1 = A.schema(
        1,
        [
            entity("One", [A.attribute("x", .string, default: "''")]),
            entity("Two", [A.attribute("y", .string, default: "''")]),
            entity("Item", [A.attribute("a", .string, default: "''"), A.attribute("b", .string, default: "''")]),
            entity("Gone", [A.attribute("g", .string, default: "''")]),
            entity("Stays", [A.attribute("s", .string, default: "''")]),
        ])
    static let v2 = A.schema(
        2,
        [
            entity("Two", originalName: "One", [A.attribute("x", .string, default: "''")]),
            entity("One", originalName: "Two", [A.attribute("y", .string, default: "''")]),
            entity(
                "Item",
                [
                    A.attribute("b", .string, default: "''", originalName: "a"),
                    A.attribute("a", .string, default: "''", originalName: "b"),
                ]),
            entity("Gone", originalName: "Stays", [A.attribute("s", .string, default: "''")]),
        ])

    static let handMade = [
        "CREATE TABLE _sm_tmp_0 (z)",
        "CREATE INDEX _sm_tmp_1 ON Item (a)",
        "CREATE VIEW _SM_TMP_0 AS SELECT 1 AS one",
        "CREATE TABLE _sm_drop_0 (z); CREATE TABLE _sm_tmp_0_2 (z)",
        "CREATE TRIGGER _sm_tmp_0 AFTER INSERT ON One BEGIN SELECT 1; END",
    ]

    static func rows(_ db: TemporaryDatabase) throws -> [[String]] {
        try db.rows("SELECT x FROM Two") + db.rows("SELECT y FROM One") + db.rows("SELECT a, b FROM Item")
            + db.rows("SELECT s FROM Gone")
    }

    @Test(arguments: handMade)
    func aHandMadeObjectWithATemporaryNameIsKeptAndTheRenamesGoAroundIt(object: String) throws {
        let db = TemporaryDatabase()
        try A.migrator([Self.v1]).migrate(databaseAt: db.url)
        try db.execute(
            """
            INSERT INTO One (x) VALUES ('one'); INSERT INTO Two (y) VALUES ('two');
            INSERT INTO Item (a, b) VALUES ('A', 'B'); INSERT INTO Gone (g) VALUES ('gone');
            INSERT INTO Stays (s) VALUES ('stays');
            \(object);
            """)
        // Their SQL follows the renames (an index on a swapped column, a trigger on a swapped table).
        let objects = "SELECT type, name FROM sqlite_schema WHERE name LIKE '\\_sm\\_%' ESCAPE '\\' ORDER BY name"
        let before = try db.rows(objects)
        let migrator = try A.migrator([Self.v1, Self.v2])

        let report = try migrator.plan(databaseAt: db.url)
        #expect(report.refusals.isEmpty)
        let sql = report.stages.flatMap(\.steps).flatMap(\.sql)
        for name in before.map({ $0[1].trimmingCharacters(in: ["'"]) }) where !object.contains("TRIGGER") {
            #expect(!sql.contains { $0.contains("RENAME TO \(SQL.quoteIdentifier(name))") }, "\(name) is taken")
        }

        try migrator.migrate(databaseAt: db.url)
        #expect(try db.recordedVersion() == "2.0.0")
        #expect(try db.rows(objects) == before)
        #expect(try Self.rows(db) == [["'one'"], ["'two'"], ["'B'", "'A'"], ["'stays'"]])
        #expect(try migrator.verify(databaseAt: db.url).isUpToDate)
    }

    /// The dry run counts what a dropped table moved aside for a rename holds where it is now
    /// (Gone, before Stays takes its name), not in a table of the database's own that bears the
    /// temporary name.
    @Test(arguments: ["", "CREATE TABLE _sm_drop_0 (z); INSERT INTO _sm_drop_0 VALUES (1), (2), (3)"])
    func theDryRunCountsTheRowsOfATableMovedAsideToBeDropped(object: String) throws {
        let db = TemporaryDatabase()
        try A.migrator([Self.v1]).migrate(databaseAt: db.url)
        try db.execute(
            """
            INSERT INTO Gone (g) VALUES ('gone'), ('gone too'); INSERT INTO Stays (s) VALUES ('stays');
            \(object);
            """)
        let report = try A.migrator([Self.v1, Self.v2]).plan(databaseAt: db.url)
        let drop = try #require(report.stages.first?.steps.first { $0.step.op == .dropTable })
        #expect(drop.impact?.rows == 2)
        #expect(drop.impact?.nonEmptyValues.map(\.count) == [2])
    }

    /// A table and a column are different namespaces: a table renamed to `title` while another
    /// table's column `title` is renamed away is no temporary, and keeps its declared name.
    @Test func aTableRenamedToAColumnsOldNameKeepsItsDeclaredName() throws {
        let v1 = A.schema(
            1,
            [
                Self.entity("Book", [A.attribute("title", .string, default: "''")]),
                Self.entity("Label", [A.attribute("x", .string, default: "''")]),
            ])
        let v2 = A.schema(
            2,
            [
                Self.entity("Book", [A.attribute("heading", .string, default: "''", originalName: "title")]),
                Self.entity("title", originalName: "Label", [A.attribute("x", .string, default: "''")]),
            ])
        let db = TemporaryDatabase()
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute("INSERT INTO Book (title) VALUES ('Dune'); INSERT INTO Label (x) VALUES ('red');")
        let migrator = try A.migrator([v1, v2])
        let sql = try migrator.plan(databaseAt: db.url).stages.flatMap(\.steps).flatMap(\.sql)
        #expect(sql.contains(#"ALTER TABLE "Label" RENAME TO "title""#), "\(sql)")
        try migrator.migrate(databaseAt: db.url)
        #expect(try db.rows("SELECT heading FROM Book") == [["'Dune'"]])
        #expect(try db.rows("SELECT x FROM title") == [["'red'"]])
    }

    /// A column a baseline accepted, undeclared, named as the swap's temporary column.
    @Test func aColumnOnlyTheDatabaseHasIsNotTakenByASwap() throws {
        let db = TemporaryDatabase()
        try db.execute(
            """
            CREATE TABLE One (id INTEGER PRIMARY KEY, x TEXT NOT NULL DEFAULT ''); CREATE TABLE Two (id INTEGER PRIMARY KEY, y TEXT NOT NULL DEFAULT '');
            CREATE TABLE Item (id INTEGER PRIMARY KEY, a TEXT NOT NULL DEFAULT '', b TEXT NOT NULL DEFAULT '', _sm_tmp_0 TEXT, _SM_TMP_1 TEXT);
            CREATE TABLE Gone (id INTEGER PRIMARY KEY, g TEXT NOT NULL DEFAULT ''); CREATE TABLE Stays (id INTEGER PRIMARY KEY, s TEXT NOT NULL DEFAULT '');
            INSERT INTO One (x) VALUES ('one'); INSERT INTO Two (y) VALUES ('two');
            INSERT INTO Item (a, b, _sm_tmp_0, _SM_TMP_1) VALUES ('A', 'B', 'kept', 'kept too');
            INSERT INTO Gone (g) VALUES ('gone'); INSERT INTO Stays (s) VALUES ('stays');
            """)
        let accepted = try A.migrator([Self.v1]).baseline(databaseAt: db.url, version: Self.v1.version)
        #expect(accepted.acceptedDifferences.count == 2)
        let migrator = try A.migrator([Self.v1, Self.v2])
        #expect(try migrator.plan(databaseAt: db.url).refusals.isEmpty)
        try migrator.migrate(databaseAt: db.url)
        #expect(try db.recordedVersion() == "2.0.0")
        #expect(try db.rows("SELECT a, b, _sm_tmp_0, _SM_TMP_1 FROM Item") == [["'B'", "'A'", "'kept'", "'kept too'"]])
    }

    /// Declarations may use the names too: tables called `_sm_tmp_0` and `_sm_drop_0`, and a
    /// column of Item called `_sm_tmp_0`.
    @Test func aDeclaredNameIsNeverTheTemporaryOne() throws {
        var v1 = Self.v1
        var v2 = Self.v2
        for name in ["_sm_tmp_0", "_sm_drop_0"] {
            v1.entities.append(Self.entity(name, [A.attribute("z", .string, default: "''")]))
            v2.entities.append(Self.entity(name, [A.attribute("z", .string, default: "''")]))
        }
        v1.entities[2].attributes.append(A.attribute("_sm_tmp_0", .string, optional: true))
        v2.entities[2].attributes.append(A.attribute("_sm_tmp_0", .string, optional: true))
        let db = TemporaryDatabase()
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute(
            """
            INSERT INTO One (x) VALUES ('one'); INSERT INTO Two (y) VALUES ('two');
            INSERT INTO Item (a, b, _sm_tmp_0) VALUES ('A', 'B', 'declared'); INSERT INTO Stays (s) VALUES ('stays');
            INSERT INTO _sm_tmp_0 (z) VALUES ('declared'); INSERT INTO _sm_drop_0 (z) VALUES ('declared too');
            """)
        let stage = try v1.migrationStage(to: v2)
        let renames = stage.steps.compactMap { step -> StepAction? in
            step.op == .renameTable || step.op == .renameColumn ? step.action : nil
        }
        for case .renameTable(_, let to) in renames { #expect(!["_sm_tmp_0", "_sm_drop_0"].contains(to)) }
        for case .renameColumn(_, _, let to) in renames { #expect(to != "_sm_tmp_0") }
        try A.migrator([v1, v2]).migrate(databaseAt: db.url)
        #expect(try Self.rows(db) == [["'one'"], ["'two'"], ["'B'", "'A'"], ["'stays'"]])
        #expect(
            try db.rows("SELECT z FROM _sm_tmp_0 UNION ALL SELECT z FROM _sm_drop_0") == [
                ["'declared'"], ["'declared too'"],
            ])
        #expect(try db.rows("SELECT _sm_tmp_0 FROM Item") == [["'declared'"]])
    }
}
