import Foundation
import Testing

@testable import SchemaMigrations

/// The planner alone, for the relationship and foreign-key change kinds of MIGRATIONS.md: add,
/// remove, rename (to-one and many-to-many), a delete rule, a renamed referenced entity, one-to-many
/// ↔ one-to-one, `references:` on an attribute, and the refusals (destination, cardinality).
/// Declared relationships are expanded to their stored layout as a plan does; no database.
@Suite struct PurePlannerRelationshipTests {
    typealias A = PlanBuilder
    typealias P = PurePlanning

    static func trip(_ relationships: [Schema.Relationship] = [], name: String = "Trip", originalName: String? = nil)
        -> Schema.Entity
    {
        Schema.Entity(
            name: name, originalName: originalName, attributes: [A.attribute("name", .string, default: "''")],
            relationships: relationships)
    }

    static func item(_ relationships: [Schema.Relationship] = []) -> Schema.Entity {
        Schema.Entity(
            name: "Item", attributes: [A.attribute("title", .string, default: "''")], relationships: relationships)
    }

    /// `Trip.items` ↔ `Item.trip`, one-to-many; deleting a trip does what `Trip.items` says.
    static func items(_ rule: Schema.Relationship.DeleteRule = .cascade, toMany: Bool = true, name: String = "items")
        -> Schema.Relationship
    {
        Schema.Relationship(name: name, destination: "Item", isToMany: toMany, deleteRule: rule, inverse: "trip")
    }

    static func tripOf(
        name: String = "trip", destination: String = "Trip", optional: Bool = true, originalName: String? = nil,
        inverse: String? = "items"
    ) -> Schema.Relationship {
        Schema.Relationship(
            name: name, destination: destination, isToMany: false, isOptional: optional, inverse: inverse,
            originalName: originalName)
    }

    static let linked = [trip([items()]), item([tripOf()])]

    @Test func addingAToOneRelationshipAddsAKeyColumnAndItsIndex() throws {
        let stage = try P.stage(from: [Self.trip(), Self.item()], to: Self.linked)
        #expect(stage.shapes == [.inPlace(.addColumn, "Item"), .inPlace(.createIndex, "Item")])
        #expect(
            stage.steps.flatMap(\.sql) == [
                #"ALTER TABLE "Item" ADD COLUMN "trip_id" INTEGER REFERENCES "Trip" ("id") ON DELETE CASCADE"#,
                #"CREATE INDEX "Item_trip_id" ON "Item" ("trip_id")"#,
            ])
        #expect(stage.checks.isEmpty)
    }

    /// A non-optional to-one has no default to give existing rows: an empty table only.
    @Test func addingANonOptionalToOneIsPlannedForAnEmptyTableOnly() throws {
        let stage = try P.stage(
            from: [Self.trip(), Self.item()],
            to: [Self.trip([Self.items()]), Self.item([Self.tripOf(optional: false)])])
        #expect(stage.shapes == [.copies(.rebuildTable, "Item")])
        #expect(
            stage.steps[0].summary
                == "Rebuild table Item (copies every row): add non-optional trip_id with no default (SQLite's ADD COLUMN needs a default for NOT NULL); new (trip_id)"
        )
        #expect(stage.checkSummaries == ["Item.trip_id: Item must be empty"])
    }

    /// A to-many with no inverse keeps its key as a hidden column on the destination.
    @Test func addingAToManyWithoutAnInverseAddsAHiddenColumnOnTheDestination() throws {
        let photos = Schema.Relationship(name: "photos", destination: "Item", isToMany: true, deleteRule: .cascade)
        let stage = try P.stage(from: [Self.trip(), Self.item()], to: [Self.trip([photos]), Self.item()])
        #expect(stage.shapes == [.inPlace(.addColumn, "Item"), .inPlace(.createIndex, "Item")])
        #expect(
            stage.steps[0].sql == [
                #"ALTER TABLE "Item" ADD COLUMN "Trip_photos_id" INTEGER REFERENCES "Trip" ("id") ON DELETE CASCADE"#
            ])
    }

    static let snippet = Schema.Entity(name: "Snippet", attributes: [A.attribute("text", .string, default: "''")])
    static let tag = Schema.Entity(name: "Tag", attributes: [A.attribute("label", .string, default: "''")])

    static func manyToMany(snippet: String = "Snippet", tags: String = "tags", originalName: String? = nil) -> [Schema
        .Entity]
    {
        var snippetEntity = Self.snippet
        var tagEntity = Self.tag
        snippetEntity.name = snippet
        if snippet != "Snippet" { snippetEntity.originalName = "Snippet" }
        snippetEntity.relationships = [
            Schema.Relationship(
                name: tags, destination: "Tag", isToMany: true, inverse: "snippets", originalName: originalName)
        ]
        tagEntity.relationships = [
            Schema.Relationship(name: "snippets", destination: snippet, isToMany: true, inverse: tags)
        ]
        return [snippetEntity, tagEntity]
    }

    @Test func addingAManyToManyCreatesItsJoinTable() throws {
        let stage = try P.stage(from: [Self.snippet, Self.tag], to: Self.manyToMany())
        #expect(stage.shapes == [.inPlace(.createTable, "Snippet_tags")])
        #expect(
            stage.steps[0].sql == [
                #"CREATE TABLE "Snippet_tags" ("Snippet_id" INTEGER NOT NULL REFERENCES "Snippet" ("id") ON DELETE CASCADE, "tags_id" INTEGER NOT NULL REFERENCES "Tag" ("id") ON DELETE CASCADE, PRIMARY KEY ("Snippet_id", "tags_id"))"#,
                #"CREATE INDEX "Snippet_tags_reverse" ON "Snippet_tags" ("tags_id", "Snippet_id")"#,
            ])
    }

    @Test func removingAManyToManyDropsItsJoinTable() throws {
        let stage = try P.stage(from: Self.manyToMany(), to: [Self.snippet, Self.tag])
        #expect(stage.shapes == [.loses(.dropTable, "Snippet_tags")])
    }

    /// Renaming `Snippet` to `Zine` renames the join table `Zine_tags`; it never moves to `Tag`'s side.
    @Test func renamingTheOwningEntityOfAManyToManyRenamesItsJoinTableAndColumn() throws {
        let stage = try P.stage(from: Self.manyToMany(), to: Self.manyToMany(snippet: "Zine"))
        #expect(stage.steps.map(\.op) == [.renameTable, .renameTable, .renameColumn])
        #expect(
            stage.steps.flatMap(\.sql) == [
                #"ALTER TABLE "Snippet" RENAME TO "Zine""#,
                #"ALTER TABLE "Snippet_tags" RENAME TO "Zine_tags""#,
                #"ALTER TABLE "Zine_tags" RENAME COLUMN "Snippet_id" TO "Zine_id""#,
            ])
        #expect(stage.steps.allSatisfy { !$0.rewritesRows && !$0.destructive })
    }

    @Test func renamingAManyToManyRelationshipRenamesItsJoinTableAndColumn() throws {
        let stage = try P.stage(from: Self.manyToMany(), to: Self.manyToMany(tags: "labels", originalName: "tags"))
        #expect(
            stage.steps.flatMap(\.sql) == [
                #"ALTER TABLE "Snippet_tags" RENAME TO "Snippet_labels""#,
                #"ALTER TABLE "Snippet_labels" RENAME COLUMN "tags_id" TO "labels_id""#,
            ])
    }

    /// SQLite's `DROP COLUMN` refuses a foreign-key column: the table is rebuilt without it.
    @Test func removingAToOneRelationshipRebuildsWithoutItsColumn() throws {
        let stage = try P.stage(from: Self.linked, to: [Self.trip(), Self.item()])
        #expect(stage.shapes == [.copies(.rebuildTable, "Item", destructive: true)])
        #expect(stage.steps[0].summary == "Rebuild table Item (copies every row): drop trip_id; no more (trip_id)")
        #expect(
            stage.steps[0].sql == [
                #"CREATE TABLE "_sm_new_Item" ("id" INTEGER PRIMARY KEY, "title" TEXT NOT NULL DEFAULT '')"#,
                #"INSERT OR ABORT INTO "_sm_new_Item" ("id", "title") SELECT "id", "title" FROM "Item""#,
                #"DROP TABLE "Item""#,
                #"ALTER TABLE "_sm_new_Item" RENAME TO "Item""#,
            ])
    }

    @Test func renamingAToOneRelationshipRenamesItsColumn() throws {
        let stage = try P.stage(
            from: Self.linked,
            to: [Self.trip([Self.items()]), Self.item([Self.tripOf(name: "journey", originalName: "trip")])].map {
                var entity = $0
                if entity.name == "Trip" { entity.relationships[0].inverse = "journey" }
                return entity
            })
        #expect(stage.shapes == [.inPlace(.renameColumn, "Item")])
        #expect(stage.steps[0].sql == [#"ALTER TABLE "Item" RENAME COLUMN "trip_id" TO "journey_id""#])
    }

    /// SQLite cannot alter a foreign key: the table holding it is rebuilt.
    @Test func changingADeleteRuleRebuildsTheTableHoldingTheKey() throws {
        let stage = try P.stage(from: Self.linked, to: [Self.trip([Self.items(.nullify)]), Self.item([Self.tripOf()])])
        #expect(stage.shapes == [.copies(.rebuildTable, "Item")])
        #expect(
            stage.steps[0].summary
                == "Rebuild table Item (copies every row): trip_id: REFERENCES Trip ON DELETE CASCADE to REFERENCES Trip ON DELETE SET NULL"
        )
        #expect(
            stage.steps[0].sql[0]
                == #"CREATE TABLE "_sm_new_Item" ("id" INTEGER PRIMARY KEY, "title" TEXT NOT NULL DEFAULT '', "trip_id" INTEGER REFERENCES "Trip" ("id") ON DELETE SET NULL)"#
        )
    }

    /// A relationship's `hashModifier` is its key column's: the table holding it is rebuilt.
    @Test func aRelationshipHashModifierChangeRebuildsTheTableHoldingTheKey() throws {
        var item = Self.tripOf()
        item.hashModifier = "relinked"
        let stage = try P.stage(from: Self.linked, to: [Self.trip([Self.items()]), Self.item([item])])
        #expect(stage.shapes == [.copies(.rebuildTable, "Item")])
        #expect(stage.steps[0].summary == "Rebuild table Item (copies every row): trip_id's hashModifier changed")
    }

    /// SQLite's `RENAME TO` rewrites the `REFERENCES` of every child table: nothing else to do.
    @Test func renamingAnEntityOthersReferenceIsOneRename() throws {
        var item = Self.item([Self.tripOf(destination: "Journey")])
        item.relationships[0].inverse = "items"
        let stage = try P.stage(
            from: Self.linked, to: [Self.trip([Self.items()], name: "Journey", originalName: "Trip"), item])
        #expect(stage.shapes == [.inPlace(.renameTable, "Journey")])
    }

    /// One-to-many ↔ one-to-one where the to-one side keeps its column: only its index's uniqueness
    /// changes, after a check that no parent has more than one related row.
    @Test func oneToManyBecomingOneToOneMakesTheKeyUnique() throws {
        let stage = try P.stage(
            from: Self.linked, to: [Self.trip([Self.items(toMany: false)]), Self.item([Self.tripOf()])])
        #expect(stage.shapes == [.inPlace(.dropIndex, "Item"), .inPlace(.createIndex, "Item")])
        #expect(
            stage.steps.flatMap(\.sql) == [
                #"DROP INDEX "Item_trip_id""#, #"CREATE UNIQUE INDEX "Item_trip_id_unique" ON "Item" ("trip_id")"#,
            ])
        #expect(stage.checkSummaries == ["Item.(trip_id): no duplicates in Item(trip_id)"])
        let back = try P.stage(
            from: [Self.trip([Self.items(toMany: false)]), Self.item([Self.tripOf()])], to: Self.linked)
        #expect(
            back.steps.flatMap(\.sql) == [
                #"DROP INDEX "Item_trip_id_unique""#, #"CREATE INDEX "Item_trip_id" ON "Item" ("trip_id")"#,
            ])
        #expect(back.checks.isEmpty)
    }

    @Test func aToOneBecomingToManyIsRefused() throws {
        let source = [Self.trip(), Self.item([Self.tripOf(inverse: nil)])]
        let target = [Self.trip(), Self.item([Schema.Relationship(name: "trip", destination: "Trip", isToMany: true)])]
        let error = try #require(throws: MigrationError.self) { try P.stage(from: source, to: target) }
        #expect(error.code == .unsupportedChange)
        #expect(error.entity == "Item" && error.property == "trip" && error.version == Schema.Version(2, 0, 0))
        #expect(
            error.message
                == "relationship 'Item.trip' changes from to-one to to-many; the links are stored on the other table then"
        )
        #expect(
            error.remedy
                == "add the new relationship beside the old one, copy the links in a custom stage's didMigrate, and remove the old one in a later version"
        )
    }

    @Test func aDestinationChangeIsRefused() throws {
        let place = Schema.Entity(name: "Place", attributes: [A.attribute("name", .string, default: "''")])
        let source = [Self.trip(), place, Self.item([Self.tripOf(inverse: nil)])]
        let target = [Self.trip(), place, Self.item([Self.tripOf(destination: "Place", inverse: nil)])]
        let error = try #require(throws: MigrationError.self) { try P.stage(from: source, to: target) }
        #expect(error.code == .unsupportedChange)
        #expect(error.entity == "Item" && error.property == "trip")
        #expect(
            error.message
                == "relationship 'Item.trip' changes its destination from 'Trip' to 'Place'; the rows it links cannot follow"
        )
        #expect(
            error.remedy
                == "add a new relationship to Place, link the rows in a custom stage's didMigrate, and remove 'trip' in a later version"
        )
    }

    static func album(_ reference: Schema.ForeignKey?) -> [Schema.Entity] {
        [
            Schema.Entity(name: "Artist", attributes: [A.attribute("name", .string, default: "''")]),
            Schema.Entity(
                name: "Album",
                attributes: [
                    A.attribute("title", .string, default: "''"),
                    Schema.Attribute(name: "artistID", valueType: .integer, isOptional: true, references: reference),
                ]),
        ]
    }

    /// `references:` added, removed, or its action, `ON UPDATE` or `DEFERRABLE` changed: a rebuild,
    /// whose reason names every clause that changed.
    @Test(
        arguments: [
            (
                nil, Schema.ForeignKey(table: "Artist", onDelete: "CASCADE"),
                "artistID: no foreign key to REFERENCES Artist ON DELETE CASCADE"
            ),
            (
                Schema.ForeignKey(table: "Artist", onDelete: "CASCADE"), nil,
                "artistID: REFERENCES Artist ON DELETE CASCADE to no foreign key"
            ),
            (
                Schema.ForeignKey(table: "Artist", onDelete: "CASCADE"),
                Schema.ForeignKey(table: "Artist", onDelete: "SET NULL"),
                "artistID: REFERENCES Artist ON DELETE CASCADE to REFERENCES Artist ON DELETE SET NULL"
            ),
            (
                Schema.ForeignKey(table: "Artist", onDelete: "CASCADE"),
                Schema.ForeignKey(table: "Artist", onDelete: "CASCADE", onUpdate: "NO ACTION"),
                "artistID: REFERENCES Artist ON DELETE CASCADE to REFERENCES Artist ON DELETE CASCADE ON UPDATE NO ACTION"
            ),
            (
                Schema.ForeignKey(table: "Artist", onDelete: "CASCADE"),
                Schema.ForeignKey(table: "Artist", onDelete: "CASCADE", isDeferred: true),
                "artistID: REFERENCES Artist ON DELETE CASCADE to REFERENCES Artist ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED"
            ),
        ] as [(Schema.ForeignKey?, Schema.ForeignKey?, String)])
    func aForeignKeyChangeOnAnAttributeRebuilds(_ from: Schema.ForeignKey?, _ to: Schema.ForeignKey?, _ reason: String)
        throws
    {
        let stage = try P.stage(from: Self.album(from), to: Self.album(to))
        #expect(stage.shapes == [.copies(.rebuildTable, "Album")])
        #expect(stage.steps[0].summary == "Rebuild table Album (copies every row): " + reason)
        #expect(
            stage.steps[0].sql[0]
                == #"CREATE TABLE "_sm_new_Album" ("id" INTEGER PRIMARY KEY, "title" TEXT NOT NULL DEFAULT '', "artistID" INTEGER"#
                + (to.map { " " + $0.clause } ?? "") + ")")
    }
}
