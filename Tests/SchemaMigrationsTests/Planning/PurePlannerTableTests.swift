import Foundation
import Testing

@testable import SchemaMigrations

/// The planner alone, for the table-level change kinds of MIGRATIONS.md (add, remove, rename,
/// swaps, case-only renames, a name a dropped table frees, and the refusals of `originalName`):
/// two schemas in, steps out, no database.
@Suite struct PurePlannerTableTests {
    typealias A = PlanBuilder
    typealias P = PurePlanning

    static let tag = Schema.Entity(
        name: "Tag", attributes: [A.attribute("label", .string, default: "''")],
        indexes: [Schema.Index(["label"], isUnique: true)])

    static func entity(_ name: String, originalName: String? = nil, _ column: String = "title") -> Schema.Entity {
        Schema.Entity(
            name: name, originalName: originalName, attributes: [A.attribute(column, .string, optional: true)])
    }

    @Test func addingAnEntityCreatesItsTableAndIndexesInOneO1Step() throws {
        let stage = try P.stage(from: [P.person()], to: [P.person(), Self.tag])
        #expect(stage.shapes == [.inPlace(.createTable, "Tag")])
        #expect(stage.steps[0].summary == "Create table Tag (1 column, 1 index)")
        #expect(
            stage.steps[0].sql == [
                #"CREATE TABLE "Tag" ("id" INTEGER PRIMARY KEY, "label" TEXT NOT NULL DEFAULT '')"#,
                #"CREATE UNIQUE INDEX "Tag_label_unique" ON "Tag" ("label")"#,
            ])
        #expect(stage.checks.isEmpty && stage.finalizingSteps.isEmpty)
    }

    @Test func removingAnEntityDropsItsTableAndSaysItIsDestructive() throws {
        let stage = try P.stage(from: [P.person(), Self.tag], to: [P.person()])
        #expect(stage.shapes == [.loses(.dropTable, "Tag")])
        #expect(stage.steps[0].summary == "Drop table Tag and all its rows")
        #expect(stage.steps[0].sql == [#"DROP TABLE "Tag""#])
    }

    @Test func renamingAnEntityIsOneRenameAndItsIndexesFollow() throws {
        let stage = try P.stage(
            from: [P.person()],
            to: [
                P.person {
                    $0.name = "Member"
                    $0.originalName = "Person"
                }
            ])
        #expect(stage.shapes == [.inPlace(.renameTable, "Member")])
        #expect(stage.steps[0].summary == "Rename table Person to Member")
        #expect(stage.steps[0].sql == [#"ALTER TABLE "Person" RENAME TO "Member""#])
    }

    @Test func aSwapOfTwoTablesGoesThroughTemporaryNames() throws {
        let stage = try P.stage(
            from: [Self.entity("Cat", "purr"), Self.entity("Dog", "bark")],
            to: [Self.entity("Dog", originalName: "Cat", "purr"), Self.entity("Cat", originalName: "Dog", "bark")])
        #expect(
            stage.shapes == [
                .inPlace(.renameTable, "_sm_tmp_0"), .inPlace(.renameTable, "_sm_tmp_1"), .inPlace(.renameTable, "Dog"),
                .inPlace(.renameTable, "Cat"),
            ])
        #expect(
            stage.steps.flatMap(\.sql) == [
                #"ALTER TABLE "Cat" RENAME TO "_sm_tmp_0""#,
                #"ALTER TABLE "Dog" RENAME TO "_sm_tmp_1""#,
                #"ALTER TABLE "_sm_tmp_0" RENAME TO "Dog""#,
                #"ALTER TABLE "_sm_tmp_1" RENAME TO "Cat""#,
            ])
    }

    @Test func aCaseOnlyRenameGoesThroughATemporaryName() throws {
        let stage = try P.stage(from: [Self.entity("trip")], to: [Self.entity("Trip", originalName: "trip")])
        #expect(stage.shapes == [.inPlace(.renameTable, "_sm_tmp_0"), .inPlace(.renameTable, "Trip")])
        #expect(
            stage.steps.flatMap(\.sql) == [
                #"ALTER TABLE "trip" RENAME TO "_sm_tmp_0""#, #"ALTER TABLE "_sm_tmp_0" RENAME TO "Trip""#,
            ])
    }

    /// Without `originalName`, a name differing only in case is the same table (SQLite names ignore case).
    @Test func aCaseOnlyRenameWithoutOriginalNameIsStillTheSameTable() throws {
        let stage = try P.stage(from: [Self.entity("trip")], to: [Self.entity("Trip")])
        #expect(stage.shapes == [.inPlace(.renameTable, "_sm_tmp_0"), .inPlace(.renameTable, "Trip")])
    }

    @Test func aNameADroppedTableFreesIsTakenAfterTheDroppedTableMovesAside() throws {
        let stage = try P.stage(
            from: [Self.entity("Draft"), Self.entity("Post")],
            to: [Self.entity("Draft", originalName: "Post")])
        #expect(
            stage.shapes == [
                .inPlace(.renameTable, "_sm_drop_0"), .inPlace(.renameTable, "Draft"), .loses(.dropTable, "_sm_drop_0"),
            ])
        #expect(
            stage.steps.flatMap(\.sql) == [
                #"ALTER TABLE "Draft" RENAME TO "_sm_drop_0""#,
                #"ALTER TABLE "Post" RENAME TO "Draft""#,
                #"DROP TABLE "_sm_drop_0""#,
            ])
    }

    @Test func everyRenameRunsBeforeAnyDropAndNewTablesComeLast() throws {
        let stage = try P.stage(
            from: [Self.entity("A"), Self.entity("B")],
            to: [Self.entity("C"), Self.entity("Z", originalName: "B")])
        #expect(stage.shapes == [.inPlace(.renameTable, "Z"), .loses(.dropTable, "A"), .inPlace(.createTable, "C")])
    }

    @Test func anOriginalNameThatNamesNoEntityOfThePreviousVersionIsRefused() throws {
        let error = try #require(throws: MigrationError.self) {
            try P.stage(
                from: [P.person()],
                to: [
                    P.person {
                        $0.name = "Member"
                        $0.originalName = "People"
                    }
                ])
        }
        #expect(error.code == .unsupportedChange)
        #expect(error.entity == "Member" && error.property == nil && error.version == Schema.Version(2, 0, 0))
        #expect(
            error.message
                == "entity 'Member' says it was renamed from 'People', but version 2.0.0 is preceded by no entity 'People'"
        )
        #expect(
            error.remedy
                == "correct originalName to the name in the previous version, or remove it to add entity 'Member' as new"
        )
    }

    @Test func twoEntitiesClaimingOneOriginalNameAreRefused() throws {
        let error = try #require(throws: MigrationError.self) {
            try P.stage(
                from: [Self.entity("Post")],
                to: [Self.entity("Article", originalName: "Post"), Self.entity("Story", originalName: "Post")])
        }
        #expect(error.code == .unsupportedChange)
        #expect(error.entity == "Story" && error.property == nil)
        #expect(
            error.message == "entity 'Article' and entity 'Story' both continue entity 'Post' of the previous version")
        #expect(
            error.remedy
                == "only one of them can carry 'Post's data: remove originalName from the other, or copy the values in a custom stage"
        )
    }

    /// `originalName` wins over a same-named entity of the previous version, which is dropped.
    @Test func originalNameWinsOverASameNamedEntity() throws {
        let stage = try P.stage(
            from: [Self.entity("Post"), Self.entity("LegacyPost")],
            to: [Self.entity("Post", originalName: "LegacyPost")])
        #expect(
            stage.shapes == [
                .inPlace(.renameTable, "_sm_drop_0"), .inPlace(.renameTable, "Post"), .loses(.dropTable, "_sm_drop_0"),
            ])
    }
}
