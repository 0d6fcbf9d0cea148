import Foundation
import Testing

@testable import SchemaMigrations

/// Renaming an entity renames the storage of its relationships; it never moves a join table or a
/// one-to-one key to the other side (which would start it empty and lose every link).
@Suite struct RelationshipRenameTests {
    typealias A = PlanBuilder

    /// `Snippet.tags` ↔ `Tag.snippets` under the snippet entity's name of each version.
    static func snippets(_ version: Int, name: String, originalName: String? = nil, extra: Bool = false) -> Schema {
        var attributes = [A.attribute("code", .string, default: "''")]
        if extra { attributes.append(A.attribute("language", .string, optional: true)) }
        return A.schema(
            version,
            [
                Schema.Entity(
                    name: name, originalName: originalName, attributes: attributes,
                    relationships: [Schema.Relationship(name: "tags", destination: "Tag", isToMany: true)]),
                Schema.Entity(
                    name: "Tag", attributes: [A.attribute("label", .string, default: "''")],
                    relationships: [Schema.Relationship(name: "snippets", destination: name, isToMany: true)]),
            ])
    }

    @Test func renamingSnippetToZineKeepsEveryTagLinkThroughLaterVersions() throws {
        let (db, v1) = try ManyToManyTests.populated()
        let v2 = Self.snippets(2, name: "Zine", originalName: "Snippet")
        let v3 = Self.snippets(3, name: "Zine", extra: true)  // the originalName is gone once released
        let result = try A.migrator([v1, v2, v3]).migrate(databaseAt: db.url)
        let ops = result.stages.flatMap { $0.steps.map(\.op) }
        #expect(!ops.contains(.createTable) && !ops.contains(.dropTable))
        #expect(
            try db.rows(
                "SELECT s.code, t.label FROM Zine_tags j JOIN Zine s ON s.id = j.Zine_id JOIN Tag t ON t.id = j.tags_id ORDER BY 1, 2"
            )
                == ManyToManyTests.expectedLinks)
        #expect(try db.rows("SELECT name FROM sqlite_schema WHERE name LIKE 'Tag_snippets%'") == [])
        #expect(try db.rows("SELECT count(*) FROM pragma_foreign_key_check") == [["0"]])
    }

    @Test func aDatabaseAlreadyAtTheRenamedVersionKeepsItsLinksToTheNext() throws {
        let (db, v1) = try ManyToManyTests.populated()
        let v2 = Self.snippets(2, name: "Zine", originalName: "Snippet")
        try A.migrator([v1, v2]).migrate(databaseAt: db.url)
        try A.migrator([v1, v2, Self.snippets(3, name: "Zine", extra: true)]).migrate(databaseAt: db.url)
        #expect(try db.rows("SELECT count(*) FROM Zine_tags") == [["5"]])
        #expect(try db.recordedVersion() == "3.0.0")
    }

    /// `Person.passport` ↔ `Passport.owner`, one-to-one, under the passport entity's name of each version.
    static func people(_ version: Int, passport: String, originalName: String? = nil, extra: Bool = false) -> Schema {
        var attributes = [A.attribute("number", .string, default: "''")]
        if extra { attributes.append(A.attribute("country", .string, optional: true)) }
        return A.schema(
            version,
            [
                Schema.Entity(
                    name: "Person", attributes: [A.attribute("name", .string, default: "''")],
                    relationships: [Schema.Relationship(name: "passport", destination: passport, isToMany: false)]),
                Schema.Entity(
                    name: passport, originalName: originalName, attributes: attributes,
                    relationships: [Schema.Relationship(name: "owner", destination: "Person", isToMany: false)]),
            ])
    }

    @Test func renamingPassportToVisaKeepsTheKeyOnTheSameSide() throws {
        let db = TemporaryDatabase()
        let v1 = Self.people(1, passport: "Passport")
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute(
            """
            INSERT INTO Person (id, name) VALUES (1, 'Ada'), (2, 'Alan'), (3, 'Grace');
            INSERT INTO Passport (id, number, owner_id) VALUES (1, 'P-1', 2), (2, 'P-2', 1);
            """)
        let v2 = Self.people(2, passport: "Visa", originalName: "Passport")
        let v3 = Self.people(3, passport: "Visa", extra: true)
        let result = try A.migrator([v1, v2, v3]).migrate(databaseAt: db.url)
        #expect(!result.stages.flatMap { $0.steps.map(\.op) }.contains(.dropTable))
        #expect(
            try db.rows("SELECT p.name, v.number FROM Visa v JOIN Person p ON p.id = v.owner_id ORDER BY 1") == [
                ["'Ada'", "'P-2'"], ["'Alan'", "'P-1'"],
            ])
        #expect(try db.columns("Person")["passport_id"] == nil)
    }
}

extension RelationshipRenameTests {
    /// Cat ↔ Dog swapping names: the key stays with the entity that held it, now under the other name.
    @Test func aSwapOfEntityNamesKeepsTheKeyWithItsEntity() throws {
        func version(_ number: Int, cat: String, dog: String, swapped: Bool) -> Schema {
            A.schema(
                number,
                [
                    Schema.Entity(
                        name: cat, originalName: swapped ? dog : nil,
                        attributes: [A.attribute("meow", .string, optional: true)],
                        relationships: [Schema.Relationship(name: "friend", destination: dog, isToMany: false)]),
                    Schema.Entity(
                        name: dog, originalName: swapped ? cat : nil,
                        attributes: [A.attribute("woof", .string, optional: true)],
                        relationships: [Schema.Relationship(name: "friend", destination: cat, isToMany: false)]),
                ])
        }
        // V1: "Cat" (meows) holds the key, since "Cat.friend" sorts first; V2 names the meowing entity "Dog".
        let stored = try StorageLayout.expand(versions: [
            version(1, cat: "Cat", dog: "Dog", swapped: false), version(2, cat: "Dog", dog: "Cat", swapped: true),
        ])
        #expect(stored[0].entity(named: "Cat")?.attribute(named: "friend_id") != nil)
        let meowing = try #require(stored[1].entities.first { $0.attribute(named: "meow") != nil })
        #expect(meowing.name == "Dog")
        #expect(meowing.attribute(named: "friend_id")?.references?.table == "Cat")
        #expect(stored[1].entity(named: "Cat")?.attribute(named: "friend_id") == nil)
    }
}
