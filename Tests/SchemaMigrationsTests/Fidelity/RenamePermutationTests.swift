import Foundation
import Testing

@testable import SchemaMigrations

/// Renames are a permutation: swaps, chains, case-only renames and a rename onto a dropped name
/// carry every value to where the plan says, and nothing else moves.
@Suite struct RenamePermutationTests {
    typealias A = PlanBuilder

    static func entity(_ name: String, _ attributes: [Schema.Attribute], originalName: String? = nil) -> Schema.Entity {
        Schema.Entity(name: name, originalName: originalName, attributes: attributes)
    }

    static func migrate(_ v1: [Schema.Entity], _ v2: [Schema.Entity], rows: String) throws -> TemporaryDatabase {
        let db = TemporaryDatabase()
        let s1 = A.schema(1, v1)
        let s2 = A.schema(2, v2)
        try A.migrator([s1]).migrate(databaseAt: db.url)
        try db.execute(rows)
        try A.migrator([s1, s2]).migrate(databaseAt: db.url)
        #expect(try db.recordedVersion() == "2.0.0")
        return db
    }

    @Test func swappedColumnsSwapTheirValues() throws {
        let db = try Self.migrate(
            [
                Self.entity(
                    "pair",
                    [A.attribute("first", .string, default: "''"), A.attribute("second", .string, optional: true)])
            ],
            [
                Self.entity(
                    "pair",
                    [
                        A.attribute("first", .string, optional: true, originalName: "second"),
                        A.attribute("second", .string, default: "''", originalName: "first"),
                    ])
            ],
            rows: "INSERT INTO pair (id, first, second) VALUES (1, 'a', 'b');")
        #expect(try db.rows("SELECT first, second FROM pair") == [["'b'", "'a'"]])
    }

    @Test func aRenameOntoANameTheOldVersionAlsoHadTakesTheRenamedValues() throws {
        let db = try Self.migrate(
            [
                Self.entity(
                    "user",
                    [
                        A.attribute("email", .string, optional: true),
                        A.attribute("legacyEmail", .string, optional: true),
                    ])
            ],
            [Self.entity("user", [A.attribute("email", .string, optional: true, originalName: "legacyEmail")])],
            rows: "INSERT INTO user (id, email, legacyEmail) VALUES (1, 'new@x', 'old@x');")
        #expect(try db.rows("SELECT email FROM user") == [["'old@x'"]])
        #expect(try db.columns("user").keys.sorted() == ["email", "id"])
    }

    @Test func caseOnlyRenamesAndAColumnFreedByADropOfAnotherCase() throws {
        let db = try Self.migrate(
            [
                Self.entity(
                    "trip",
                    [
                        A.attribute("Title", .string, default: "''"), A.attribute("heading", .string, default: "''"),
                        A.attribute("name", .string, default: "''"),
                    ])
            ],
            [
                Self.entity(
                    "Trip",
                    [
                        A.attribute("title", .string, default: "''", originalName: "heading"),
                        A.attribute("Name", .string, default: "''", originalName: "name"),
                    ], originalName: "trip")
            ],
            rows: "INSERT INTO trip (id, Title, heading, name) VALUES (1, 'dropped', 'kept', 'n');")
        #expect(try db.rows("SELECT name FROM sqlite_schema WHERE type = 'table' AND name LIKE 'trip'") == [["'Trip'"]])
        #expect(try db.rows("SELECT title, Name FROM Trip") == [["'kept'", "'n'"]])
        #expect(
            try db.rows("SELECT name FROM pragma_table_info('Trip') ORDER BY cid") == [
                ["'id'"], ["'title'"], ["'Name'"],
            ])
    }

    @Test func swappedEntitiesAndAChainOfRenamesKeepEveryRow() throws {
        let db = try Self.migrate(
            [
                Self.entity(
                    "Cat", [A.attribute("a", .string, default: "''"), A.attribute("b", .string, default: "''")]),
                Self.entity("Dog", [A.attribute("a", .string, default: "''")]),
            ],
            [
                Self.entity(
                    "Dog",
                    [
                        A.attribute("b", .string, default: "''", originalName: "a"),
                        A.attribute("c", .string, default: "''", originalName: "b"),
                    ], originalName: "Cat"),
                Self.entity("Cat", [A.attribute("a", .string, default: "''")], originalName: "Dog"),
            ],
            rows:
                "INSERT INTO Cat (id, a, b) VALUES (1, 'cat a', 'cat b'); INSERT INTO Dog (id, a) VALUES (7, 'dog a');")
        #expect(try db.rows("SELECT id, b, c FROM Dog") == [["1", "'cat a'", "'cat b'"]])
        #expect(try db.rows("SELECT id, a FROM Cat") == [["7", "'dog a'"]])
    }
}
