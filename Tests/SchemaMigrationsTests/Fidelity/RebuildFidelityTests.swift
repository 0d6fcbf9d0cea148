import Foundation
import Testing

@testable import SchemaMigrations

/// Given a table with a SQLite feature the declarations do not speak of, and rows, when a stage
/// rebuilds the table, then every row is intact and the feature still behaves.
@Suite struct RebuildFidelityTests {
    typealias F = FidelityFixture
    typealias A = PlanBuilder

    static let plain =
        "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL DEFAULT '', price REAL NOT NULL DEFAULT 0.0, note TEXT, deleted INTEGER NOT NULL DEFAULT 0)"

    @Test(arguments: F.Origin.allCases)
    func checkConstraintsStillReject(_ origin: F.Origin) throws {
        let (db, result) = try F.migrate(
            origin,
            table: """
                CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL DEFAULT '', price REAL NOT NULL DEFAULT 0.0 CHECK (price >= 0),
                  note TEXT, deleted INTEGER NOT NULL DEFAULT 0, CONSTRAINT named_check CHECK (length(name) < 20))
                """)
        #expect(result.stages[0].steps.map(\.op) == [.rebuildTable])
        try F.expectRowsIntact(db)
        #expect(F.rejects(db, "INSERT INTO item (name, price) VALUES ('x', -1)"))
        #expect(F.rejects(db, "INSERT INTO item (name) VALUES ('a name far longer than twenty')"))
        try db.execute("INSERT INTO item (name, price) VALUES ('ok', 1)")
    }

    @Test(arguments: F.Origin.allCases)
    func collationsStillMatchWithoutCase(_ origin: F.Origin) throws {
        let (db, _) = try F.migrate(
            origin,
            table: """
                CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL DEFAULT '' COLLATE NOCASE, price REAL NOT NULL DEFAULT 0.0,
                  note TEXT, deleted INTEGER NOT NULL DEFAULT 0)
                """, extra: "CREATE UNIQUE INDEX item_name_nocase ON item (name COLLATE NOCASE);",
            source: [A.entity(F.item, indexes: [Schema.Index(["name"], isUnique: true)])])
        try F.expectRowsIntact(db)
        #expect(try db.rows("SELECT id FROM item WHERE name = 'SWIFT'") == [["1"]])
        #expect(F.rejects(db, "INSERT INTO item (name) VALUES ('swift')"))
        #expect(
            try db.rows("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'item'") == [
                ["'item_name_nocase'"]
            ])
    }

    @Test(arguments: F.Origin.allCases)
    func autoincrementNeverHandsOutADeletedIdAgain(_ origin: F.Origin) throws {
        let (db, _) = try F.migrate(
            origin,
            table: """
                CREATE TABLE item (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL DEFAULT '', price REAL NOT NULL DEFAULT 0.0,
                  note TEXT, deleted INTEGER NOT NULL DEFAULT 0)
                """, extra: "INSERT INTO item (id, name) VALUES (9, 'gone'); DELETE FROM item WHERE id = 9;")
        try F.expectRowsIntact(db)
        try db.execute("INSERT INTO item (name) VALUES ('next')")
        #expect(try db.rows("SELECT max(id) FROM item") == [["10"]])
        #expect(try db.rows("SELECT name, seq FROM sqlite_sequence") == [["'item'", "10"]])
    }

    @Test(arguments: F.Origin.allCases)
    func strictStaysStrictAndWithoutRowidStaysWithoutRowid(_ origin: F.Origin) throws {
        let (db, _) = try F.migrate(
            origin,
            table: """
                CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL DEFAULT '', price REAL NOT NULL DEFAULT 0.0,
                  note TEXT, deleted INTEGER NOT NULL DEFAULT 0) WITHOUT ROWID, STRICT
                """)
        try F.expectRowsIntact(db)
        #expect(try db.rows("SELECT wr, strict FROM pragma_table_list('item')") == [["1", "1"]])
        #expect(F.rejects(db, "INSERT INTO item (id, name, price) VALUES (7, 'x', 'not a number')"))
    }

    @Test(arguments: F.Origin.allCases)
    func generatedColumnsKeepFollowingTheirInputs(_ origin: F.Origin) throws {
        let (db, _) = try F.migrate(
            origin,
            table: """
                CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL DEFAULT '', price REAL NOT NULL DEFAULT 0.0,
                  note TEXT, deleted INTEGER NOT NULL DEFAULT 0, doubled REAL GENERATED ALWAYS AS (price * 2) STORED, shout TEXT AS (upper(name)) VIRTUAL)
                """)
        try F.expectRowsIntact(db)
        try db.execute("UPDATE item SET price = 10, name = 'swifty' WHERE id = 1")
        #expect(try db.rows("SELECT doubled, shout FROM item WHERE id = 1") == [["20.0", "'SWIFTY'"]])
        #expect(try db.rows("SELECT doubled, shout FROM item WHERE id = 2") == [["5.0", "'RUST'"]])
    }

    @Test(arguments: F.Origin.allCases)
    func expressionDefaultsStillFillInserts(_ origin: F.Origin) throws {
        let (db, _) = try F.migrate(
            origin,
            table: """
                CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL DEFAULT '', price REAL NOT NULL DEFAULT 0.0,
                  note TEXT, deleted INTEGER NOT NULL DEFAULT 0, created TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP, code TEXT DEFAULT (lower(hex(randomblob(4)))))
                """,
            rows:
                "INSERT INTO item (id, name, price, note, deleted, created) VALUES (1, 'Swift', 1.5, 'a', 0, 'x'), (2, 'Rust', 2.5, NULL, 0, 'x'), (3, 'Go', 0, 'c', 1, 'x');",
            source: [
                A.entity(
                    F.item, extra: [A.attribute("created", .string), A.attribute("code", .string, optional: true)])
            ])
        try F.expectRowsIntact(db)
        try db.execute("INSERT INTO item (name) VALUES ('new')")
        #expect(
            try db.rows("SELECT created IS NOT NULL AND created <> 'x', length(code) FROM item WHERE name = 'new'") == [
                ["1", "8"]
            ])
    }

    @Test(arguments: F.Origin.allCases)
    func foreignKeyClausesKeepOnUpdateAndDeferrable(_ origin: F.Origin) throws {
        let owner = Schema.Entity(name: "owner", attributes: [A.attribute("label", .string, default: "''")])
        var item = F.item
        item.attributes.append(
            Schema.Attribute(
                name: "owner_id", valueType: .integer, isOptional: true,
                references: Schema.ForeignKey(table: "owner", onDelete: "CASCADE")))
        let (db, _) = try F.migrate(
            origin,
            table: """
                CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL DEFAULT '', price REAL NOT NULL DEFAULT 0.0,
                  note TEXT, deleted INTEGER NOT NULL DEFAULT 0,
                  owner_id INTEGER REFERENCES owner (id) ON DELETE CASCADE ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED)
                """, rows: "INSERT INTO owner (id, label) VALUES (1, 'o');" + F.rows + " UPDATE item SET owner_id = 1;",
            source: [owner, item], target: [owner, F.rebuilt(item)],
            madeByHandFirst: "CREATE TABLE owner (id INTEGER PRIMARY KEY, label TEXT NOT NULL DEFAULT '')")
        try F.expectRowsIntact(db)
        #expect(
            try db.rows("SELECT on_update, on_delete FROM pragma_foreign_key_list('item')") == [
                ["'CASCADE'", "'CASCADE'"]
            ])
        #expect(
            try db.scalar("SELECT sql FROM sqlite_schema WHERE name = 'item'")?.stringValue?.contains(
                "DEFERRABLE INITIALLY DEFERRED") == true)
        try db.execute("PRAGMA foreign_keys = ON; UPDATE owner SET id = 5;")
        #expect(try db.rows("SELECT DISTINCT owner_id FROM item") == [["5"]])
    }

    @Test(arguments: F.Origin.allCases)
    func aPartialUniqueIndexStaysPartial(_ origin: F.Origin) throws {
        let (db, _) = try F.migrate(
            origin, table: Self.plain,
            extra: "CREATE UNIQUE INDEX live_names ON item (name) WHERE deleted = 0;",
            source: [A.entity(F.item, indexes: [Schema.Index(["name"], isUnique: true)])])
        try F.expectRowsIntact(db)
        try db.execute("INSERT INTO item (name, deleted) VALUES ('Go', 1), ('Go', 1)")
        #expect(F.rejects(db, "INSERT INTO item (name, deleted) VALUES ('Swift', 0)"))
        #expect(try db.rows("SELECT name, partial FROM pragma_index_list('item')") == [["'live_names'", "1"]])
    }

    @Test(arguments: F.Origin.allCases)
    func anExpressionIndexIsStillUsed(_ origin: F.Origin) throws {
        let (db, _) = try F.migrate(
            origin, table: Self.plain, extra: "CREATE INDEX item_lower_name ON item (lower(name));")
        try F.expectRowsIntact(db)
        let plan = try db.rows("EXPLAIN QUERY PLAN SELECT id FROM item WHERE lower(name) = 'swift'").map { $0.last! }
            .joined()
        #expect(plan.contains("SEARCH item USING INDEX item_lower_name"))
    }

    @Test(arguments: F.Origin.allCases)
    func aHandNamedIndexKeepsItsName(_ origin: F.Origin) throws {
        let (db, _) = try F.migrate(
            origin, table: Self.plain, extra: "CREATE INDEX my_price_index ON item (price DESC);",
            source: [A.entity(F.item, indexes: [Schema.Index(["price"])])])
        #expect(
            try db.rows("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'item'") == [
                ["'my_price_index'"]
            ])
        #expect(
            try db.scalar("SELECT sql FROM sqlite_schema WHERE name = 'my_price_index'")?.stringValue
                == "CREATE INDEX my_price_index ON item (price DESC)")
    }
}

extension PlanBuilder {
    /// `entity` with other indexes, or more attributes.
    static func entity(_ entity: Schema.Entity, indexes: [Schema.Index]? = nil, extra: [Schema.Attribute] = [])
        -> Schema.Entity
    {
        var copy = entity
        if let indexes { copy.indexes = indexes }
        copy.attributes += extra
        return copy
    }
}
