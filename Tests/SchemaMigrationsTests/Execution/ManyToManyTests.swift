import Foundation
import Testing

@testable import SchemaMigrations

/// Tags ↔ snippets: a join table that survives rebuilds of either side and a rename of the relationship.
@Suite struct ManyToManyTests {
    typealias A = PlanBuilder

    static func entities(
        relationship: String = "tags", originalName: String? = nil, snippetModifier: String? = nil,
        tagModifier: String? = nil
    ) -> [Schema.Entity] {
        [
            Schema.Entity(
                name: "Snippet", hashModifier: snippetModifier,
                attributes: [A.attribute("code", .string, default: "''")],
                relationships: [
                    Schema.Relationship(
                        name: relationship, destination: "Tag", isToMany: true, originalName: originalName)
                ]),
            Schema.Entity(
                name: "Tag", hashModifier: tagModifier, attributes: [A.attribute("label", .string, default: "''")],
                relationships: [Schema.Relationship(name: "snippets", destination: "Snippet", isToMany: true)]),
        ]
    }

    static let links =
        "SELECT s.code, t.label FROM Snippet_tags j JOIN Snippet s ON s.id = j.Snippet_id JOIN Tag t ON t.id = j.tags_id ORDER BY 1, 2"

    static func populated() throws -> (TemporaryDatabase, Schema) {
        let db = TemporaryDatabase()
        let v1 = A.schema(1, entities())
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute(
            """
            INSERT INTO Snippet (id, code) VALUES (1, 'print()'), (2, 'let x'), (3, 'SELECT 1');
            INSERT INTO Tag (id, label) VALUES (1, 'python'), (2, 'swift'), (3, 'sql'), (4, 'beginner');
            INSERT INTO Snippet_tags (Snippet_id, tags_id) VALUES (1, 1), (1, 4), (2, 2), (2, 4), (3, 3);
            """)
        return (db, v1)
    }

    static let expectedLinks = [
        ["'SELECT 1'", "'sql'"], ["'let x'", "'beginner'"], ["'let x'", "'swift'"], ["'print()'", "'beginner'"],
        ["'print()'", "'python'"],
    ]

    @Test func theJoinTableHasBothCascadingKeysACompositePrimaryKeyAndAReverseIndex() throws {
        let (db, _) = try Self.populated()
        #expect(try db.columns("Snippet_tags") == ["Snippet_id": "INTEGER NOT NULL", "tags_id": "INTEGER NOT NULL"])
        #expect(
            try db.rows("SELECT name FROM pragma_table_info('Snippet_tags') WHERE pk > 0 ORDER BY pk") == [
                ["'Snippet_id'"], ["'tags_id'"],
            ])
        #expect(
            try db.rows("SELECT \"from\", \"table\", on_delete FROM pragma_foreign_key_list('Snippet_tags') ORDER BY 1")
                == [
                    ["'Snippet_id'", "'Snippet'", "'CASCADE'"], ["'tags_id'", "'Tag'", "'CASCADE'"],
                ])
        #expect(try db.indexes("Snippet_tags") == ["UNIQUE (Snippet_id, tags_id)", "(tags_id, Snippet_id)"])
        #expect(try db.rows(Self.links) == Self.expectedLinks)
    }

    @Test(arguments: ["Snippet", "Tag"])
    func theLinksSurviveARebuildOfEitherSide(side: String) throws {
        let (db, v1) = try Self.populated()
        let v2 = A.schema(2, side == "Snippet" ? Self.entities(snippetModifier: "x") : Self.entities(tagModifier: "x"))
        let result = try A.migrator([v1, v2]).migrate(databaseAt: db.url)
        #expect(result.stages[0].steps.map(\.op) == [.rebuildTable])
        #expect(result.stages[0].steps[0].table == side)
        #expect(try db.rows(Self.links) == Self.expectedLinks)
        #expect(try db.rows("SELECT count(*) FROM pragma_foreign_key_check") == [["0"]])
    }

    @Test func theLinksSurviveARenameOfTheRelationship() throws {
        let (db, v1) = try Self.populated()
        let v2 = A.schema(2, Self.entities(relationship: "labels", originalName: "tags"))
        let result = try A.migrator([v1, v2]).migrate(databaseAt: db.url)
        #expect(result.stages[0].steps.map(\.op) == [.renameTable, .renameColumn])
        #expect(
            try db.rows(
                "SELECT s.code, t.label FROM Snippet_labels j JOIN Snippet s ON s.id = j.Snippet_id JOIN Tag t ON t.id = j.labels_id ORDER BY 1, 2"
            ) == Self.expectedLinks)
    }

    @Test func deletingASnippetRemovesOnlyItsLinks() throws {
        let (db, _) = try Self.populated()
        let connection = try db.connect()
        try connection.execute("PRAGMA foreign_keys = ON; DELETE FROM Snippet WHERE id = 2")
        #expect(try db.rows("SELECT count(*) FROM Snippet_tags") == [["3"]])
        #expect(try db.rows("SELECT count(*) FROM Tag") == [["4"]])
    }
}

/// Relationship declarations that are refused at plan time, with the entity and property named.
@Suite struct RelationshipRefusalTests {
    typealias A = PlanBuilder

    static func owner(_ relationships: [Schema.Relationship]) -> Schema.Entity {
        Schema.Entity(
            name: "Owner", attributes: [A.attribute("name", .string, default: "''")], relationships: relationships)
    }

    static func pet(_ relationships: [Schema.Relationship]) -> Schema.Entity {
        Schema.Entity(
            name: "Pet", attributes: [A.attribute("name", .string, default: "''")], relationships: relationships)
    }

    static func invalid(_ entities: [Schema.Entity]) throws -> MigrationError {
        try #require(throws: MigrationError.self) {
            try ResolvedPlan(name: "p", schemas: [A.schema(1, entities)], stages: [])
        }
    }

    @Test func anInverseNamingAMissingProperty() throws {
        let error = try Self.invalid([
            Self.owner([Schema.Relationship(name: "pets", destination: "Pet", isToMany: true, inverse: "keeper")]),
            Self.pet([]),
        ])
        #expect(error.code == .invalidSchema)
        #expect(error.entity == "Owner" && error.property == "pets")
        #expect(error.message == "the inverse of 'Owner.pets' is 'Pet.keeper', which is not a relationship of 'Pet'")
    }

    @Test func anInversePointingAtTheWrongEntity() throws {
        let error = try Self.invalid([
            Self.owner([Schema.Relationship(name: "pets", destination: "Pet", isToMany: true, inverse: "vet")]),
            Self.pet([Schema.Relationship(name: "vet", destination: "Vet", isToMany: false)]),
            Schema.Entity(name: "Vet", attributes: [A.attribute("name", .string, default: "''")]),
        ])
        #expect(error.message == "the inverse of 'Owner.pets' is 'Pet.vet', which points at 'Vet', not 'Owner'")
    }

    @Test func twoRelationshipsClaimingTheSameInverse() throws {
        let error = try Self.invalid([
            Self.owner([
                Schema.Relationship(name: "pets", destination: "Pet", isToMany: true, inverse: "owner"),
                Schema.Relationship(name: "formerPets", destination: "Pet", isToMany: true, inverse: "owner"),
            ]),
            Self.pet([Schema.Relationship(name: "owner", destination: "Owner", isToMany: false)]),
        ])
        #expect(error.message == "'Owner.pets' and 'Owner.formerPets' both claim 'Pet.owner' as their inverse")
    }

    @Test func anAmbiguousInverse() throws {
        let error = try Self.invalid([
            Self.owner([Schema.Relationship(name: "pets", destination: "Pet", isToMany: true)]),
            Self.pet([
                Schema.Relationship(name: "owner", destination: "Owner", isToMany: false),
                Schema.Relationship(name: "previousOwner", destination: "Owner", isToMany: false),
            ]),
        ])
        #expect(
            error.message
                == "the inverse of 'Owner.pets' is ambiguous: 'Pet.owner' and 'Pet.previousOwner' both point back")
    }

    @Test func anInvalidRelationshipIsRefusedBeforeTheDatabaseIsOpened() throws {
        let db = TemporaryDatabase()
        try A.migrator([A.schema(1, [Self.owner([]), Self.pet([])])]).migrate(databaseAt: db.url)
        let before = try db.bytes()
        let broken = [
            Self.owner([Schema.Relationship(name: "pets", destination: "Pet", isToMany: true, inverse: "keeper")]),
            Self.pet([]),
        ]
        let error = try #require(throws: MigrationError.self) {
            try A.migrator([A.schema(1, [Self.owner([]), Self.pet([])]), A.schema(2, broken)]).migrate(
                databaseAt: db.url)
        }
        #expect(error.code == .invalidSchema)
        #expect(try db.bytes() == before)
    }

    @Test func aDestinationThatIsNotDeclared() throws {
        let error = try Self.invalid([
            Self.owner([Schema.Relationship(name: "pets", destination: "Pet", isToMany: true)])
        ])
        #expect(
            error.message == "relationship 'Owner.pets' points at entity 'Pet', which version 1.0.0 does not declare")
    }

    @Test func nullifyOntoANonOptionalReference() throws {
        let error = try Self.invalid([
            Self.owner([Schema.Relationship(name: "pets", destination: "Pet", isToMany: true, deleteRule: .nullify)]),
            Self.pet([Schema.Relationship(name: "owner", destination: "Owner", isToMany: false, isOptional: false)]),
        ])
        #expect(error.message == "deleting a 'Owner' would set 'Pet.owner' to nil, but it is not optional")
    }

    static func migrate(from v1: [Schema.Entity], to v2: [Schema.Entity]) throws -> MigrationError {
        let db = TemporaryDatabase()
        try A.migrator([A.schema(1, v1)]).migrate(databaseAt: db.url)
        try db.execute("INSERT INTO Owner (id) VALUES (1); INSERT INTO Pet (id, owner_id) VALUES (1, 1);")
        let before = try db.bytes()
        let error = try #require(throws: MigrationError.self) {
            try A.migrator([A.schema(1, v1), A.schema(2, v2)]).migrate(databaseAt: db.url)
        }
        #expect(try db.bytes() == before)
        return error
    }

    @Test func changingADestinationIsRefused() throws {
        let vet = Schema.Entity(name: "Vet", attributes: [A.attribute("name", .string, default: "''")])
        let error = try Self.migrate(
            from: [
                Self.owner([]), Self.pet([Schema.Relationship(name: "owner", destination: "Owner", isToMany: false)]),
                vet,
            ],
            to: [
                Self.owner([]), Self.pet([Schema.Relationship(name: "owner", destination: "Vet", isToMany: false)]),
                vet,
            ])
        #expect(error.code == .unsupportedChange)
        #expect(
            error.message
                == "relationship 'Pet.owner' changes its destination from 'Owner' to 'Vet'; the rows it links cannot follow"
        )
        #expect(
            error.remedy
                == "add a new relationship to Vet, link the rows in a custom stage's didMigrate, and remove 'owner' in a later version"
        )
    }

    @Test func changingAToOneIntoAToManyIsRefused() throws {
        let error = try Self.migrate(
            from: [
                Self.owner([]), Self.pet([Schema.Relationship(name: "owner", destination: "Owner", isToMany: false)]),
            ],
            to: [Self.owner([]), Self.pet([Schema.Relationship(name: "owner", destination: "Owner", isToMany: true)])])
        #expect(
            error.message
                == "relationship 'Pet.owner' changes from to-one to to-many; the links are stored on the other table then"
        )
    }
}

/// One-to-many ↔ one-to-one, where the data allows it.
@Suite struct CardinalityChangeTests {
    typealias A = PlanBuilder

    static func schema(_ version: Int, ownerSide: Schema.Relationship) -> Schema {
        A.schema(
            version,
            [
                Schema.Entity(
                    name: "Owner", attributes: [A.attribute("name", .string, default: "''")], relationships: [ownerSide]
                ),
                Schema.Entity(
                    name: "Pet", attributes: [A.attribute("name", .string, default: "''")],
                    relationships: [Schema.Relationship(name: "owner", destination: "Owner", isToMany: false)]),
            ])
    }

    static let toMany = schema(
        1, ownerSide: Schema.Relationship(name: "pets", destination: "Pet", isToMany: true, deleteRule: .cascade))
    static let toOne = schema(
        2,
        ownerSide: Schema.Relationship(
            name: "pet", destination: "Pet", isToMany: false, deleteRule: .cascade, originalName: "pets"))

    @Test func toManyBecomesToOneWhenEveryOwnerHasOnePet() throws {
        let db = TemporaryDatabase()
        try A.migrator([Self.toMany]).migrate(databaseAt: db.url)
        try db.execute(
            "INSERT INTO Owner (id) VALUES (1), (2); INSERT INTO Pet (id, owner_id) VALUES (1, 1), (2, 2), (3, NULL), (4, NULL);"
        )
        let result = try A.migrator([Self.toMany, Self.toOne]).migrate(databaseAt: db.url)
        #expect(result.stages[0].steps.map(\.op) == [.dropIndex, .createIndex])
        #expect(try db.indexes("Pet") == ["UNIQUE (owner_id)"])
        #expect(
            try db.rows("SELECT id, owner_id FROM Pet ORDER BY id") == [
                ["1", "1"], ["2", "2"], ["3", "NULL"], ["4", "NULL"],
            ])
    }

    @Test func toManyBecomingToOneIsRefusedNamingTheRowsWithSeveral() throws {
        let db = TemporaryDatabase()
        try A.migrator([Self.toMany]).migrate(databaseAt: db.url)
        try db.execute(
            "INSERT INTO Owner (id) VALUES (1), (2); INSERT INTO Pet (id, owner_id) VALUES (1, 1), (2, 1), (3, 1), (4, 2);"
        )
        let before = try db.bytes()
        let error = try #require(throws: MigrationError.self) {
            try A.migrator([Self.toMany, Self.toOne]).migrate(databaseAt: db.url)
        }
        #expect(error.code == .dataViolation)
        #expect(error.message == "cannot make (owner_id) unique on 'Pet': 1 value is shared by more than one row")
        #expect(error.details == ["1 is shared by 3 rows"])
        #expect(try db.bytes() == before)
    }

    @Test func toOneBecomesToMany() throws {
        let db = TemporaryDatabase()
        let one = Self.schema(
            1, ownerSide: Schema.Relationship(name: "pet", destination: "Pet", isToMany: false, deleteRule: .cascade))
        let many = Self.schema(
            2,
            ownerSide: Schema.Relationship(
                name: "pets", destination: "Pet", isToMany: true, deleteRule: .cascade, originalName: "pet"))
        try A.migrator([one]).migrate(databaseAt: db.url)
        try db.execute("INSERT INTO Owner (id) VALUES (1); INSERT INTO Pet (id, owner_id) VALUES (1, 1);")
        try A.migrator([one, many]).migrate(databaseAt: db.url)
        try db.execute("INSERT INTO Pet (id, owner_id) VALUES (2, 1)")
        #expect(try db.rows("SELECT count(*) FROM Pet WHERE owner_id = 1") == [["2"]])
    }
}
