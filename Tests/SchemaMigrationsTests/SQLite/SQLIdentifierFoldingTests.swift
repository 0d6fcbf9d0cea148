import Foundation
import Testing

@testable import SchemaMigrations

/// Names compare as SQLite compares them: ASCII letters ignore case, every other letter does not.
/// `Ä` and `ä` are two tables to SQLite, so they are two tables here too; `ABC` and `abc` are one.
@Suite struct SQLIdentifierFoldingTests {
    static func text(_ name: String) -> Schema.Attribute { PlanBuilder.attribute(name, .string) }

    /// Two tables and two columns whose names differ only in the case of a non-ASCII letter.
    static let v1 = PlanBuilder.schema(
        1,
        [
            Schema.Entity(name: "Ä", attributes: [text("Ö"), PlanBuilder.attribute("ö", .integer)]),
            Schema.Entity(name: "ä", attributes: [text("Ö")]),
        ])

    @Test func onlyASCIILettersFold() {
        #expect("ABC".sqlFolded == "abc".sqlFolded)
        #expect("Ä".sqlFolded != "ä".sqlFolded)
        #expect("ÄBC".sqlFolded == "Äbc")
    }

    @Test func tablesAndColumnsDifferingInNonASCIICaseAreIntrospectedComparedAndMigratedApart() throws {
        let db = TemporaryDatabase()
        try db.execute(
            """
            CREATE TABLE "Ä" (id INTEGER PRIMARY KEY, "Ö" TEXT NOT NULL, "ö" INTEGER NOT NULL);
            CREATE TABLE "ä" (id INTEGER PRIMARY KEY, "Ö" TEXT NOT NULL);
            INSERT INTO "Ä" VALUES (1, 'upper', 7);
            INSERT INTO "ä" VALUES (1, 'lower'), (2, 'lower too');
            """)
        // Introspected: two tables, and two columns in the first.
        let live = try LiveSchema.read(from: db.connect())
        #expect(live.table(named: "Ä")?.name == "Ä" && live.table(named: "ä")?.name == "ä")
        #expect(live.table(named: "Ä")?.column(named: "ö")?.declaredType == "INTEGER")
        #expect(live.table(named: "Ä")?.column(named: "Ö")?.declaredType == "TEXT")
        #expect(live.table(named: "ä")?.column(named: "ö") == nil)
        let introspected = try Schema(introspecting: db.url)
        #expect(introspected.entities.map(\.name).sorted() == ["Ä", "ä"])
        #expect(introspected.entity(named: "Ä")?.attributes.map(\.name) == ["Ö", "ö"])
        #expect(introspected.entity(named: "ä")?.attributes.map(\.name) == ["Ö"])

        // Compared: the declaration matches, and one naming the other letter's case does not.
        let comparison = SchemaComparison(checksDefaults: false)
        #expect(comparison.differences(declared: Self.v1, live: live) == [])
        let otherCase = PlanBuilder.schema(1, [Schema.Entity(name: "ä", attributes: [Self.text("ö")])])
        #expect(
            comparison.differences(declared: otherCase, live: live).map(\.description)
                == ["column ä.ö is missing", "column ä.Ö is not declared"])

        // Migrated: V2 adds a column to "ä" alone; "Ä" and every row stay as they were.
        var v2 = Self.v1
        v2.version = Schema.Version(2, 0, 0)
        v2.entities[1].attributes.append(PlanBuilder.attribute("note", .string, optional: true))
        let result = try PlanBuilder.migrator([Self.v1, v2]).migrate(databaseAt: db.url)
        #expect(result.fromVersion == Schema.Version(1, 0, 0) && result.toVersion == Schema.Version(2, 0, 0))
        #expect(try db.columns("Ä") == ["id": "INTEGER", "Ö": "TEXT NOT NULL", "ö": "INTEGER NOT NULL"])
        #expect(try db.columns("ä") == ["id": "INTEGER", "Ö": "TEXT NOT NULL", "note": "TEXT"])
        #expect(try db.rows(#"SELECT id, "Ö", "ö" FROM "Ä""#) == [["1", "'upper'", "7"]])
        #expect(
            try db.rows(#"SELECT id, "Ö", note FROM "ä" ORDER BY id"#) == [
                ["1", "'lower'", "NULL"], ["2", "'lower too'", "NULL"],
            ])
        #expect(try PlanBuilder.migrator([Self.v1, v2]).verify(databaseAt: db.url).isUpToDate)
    }

    @Test func namesDifferingInASCIICaseAreOneName() throws {
        let db = TemporaryDatabase()
        try db.execute(
            "CREATE TABLE abc (id INTEGER PRIMARY KEY, xyz TEXT NOT NULL); INSERT INTO abc VALUES (1, 'kept');")
        let v1 = PlanBuilder.schema(1, [Schema.Entity(name: "ABC", attributes: [Self.text("XYZ")])])
        let live = try LiveSchema.read(from: db.connect())
        #expect(
            live.table(named: "ABC")?.name == "abc" && live.table(named: "abc")?.column(named: "XYZ")?.name == "xyz")
        #expect(SchemaComparison(checksDefaults: false).differences(declared: v1, live: live) == [])
        var v2 = v1
        v2.version = Schema.Version(2, 0, 0)
        v2.entities[0].attributes.append(PlanBuilder.attribute("note", .string, optional: true))
        let result = try PlanBuilder.migrator([v1, v2]).migrate(databaseAt: db.url)
        #expect(result.fromVersion == Schema.Version(1, 0, 0) && result.toVersion == Schema.Version(2, 0, 0))
        #expect(try db.rows("SELECT id, xyz, note FROM ABC") == [["1", "'kept'", "NULL"]])
    }
}
