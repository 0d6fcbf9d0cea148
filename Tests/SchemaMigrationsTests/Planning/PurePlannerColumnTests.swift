import Foundation
import Testing

@testable import SchemaMigrations

/// The planner alone, for the attribute change kinds of MIGRATIONS.md that add, remove or rename
/// a column (with and without a default, with `DROP COLUMN` or without, swaps, chains, case-only
/// renames, a name a dropped column frees, `@Attribute(column:)`), and their refusals.
/// Two schemas in, steps out, no database.
@Suite struct PurePlannerColumnTests {
    typealias A = PlanBuilder
    typealias P = PurePlanning

    /// The rebuild of `Person` as planned from the declarations (the live table's own definition
    /// is used instead when it runs): new table, copy, drop, rename, indexes.
    static func rebuild(
        create: String, copied: String, from sources: String? = nil,
        indexes: [String] = [#"CREATE INDEX "Person_name" ON "Person" ("name")"#]
    ) -> [String] {
        [
            create,
            #"INSERT OR ABORT INTO "_sm_new_Person" ("# + copied + ") SELECT " + (sources ?? copied)
                + #" FROM "Person""#,
            #"DROP TABLE "Person""#,
            #"ALTER TABLE "_sm_new_Person" RENAME TO "Person""#,
        ] + indexes
    }

    @Test func addingAnOptionalAttributeIsAnO1AddColumn() throws {
        let stage = try P.stage(
            from: [P.person()],
            to: [P.person { $0.attributes.append(A.attribute("nickname", .string, optional: true)) }])
        #expect(stage.shapes == [.inPlace(.addColumn, "Person")])
        #expect(stage.steps[0].summary == "Add column Person.nickname TEXT")
        #expect(stage.steps[0].sql == [#"ALTER TABLE "Person" ADD COLUMN "nickname" TEXT"#])
        #expect(stage.checks.isEmpty)
    }

    @Test func addingANonOptionalAttributeWithADefaultIsAnO1AddColumn() throws {
        let stage = try P.stage(
            from: [P.person()], to: [P.person { $0.attributes.append(A.attribute("score", .double, default: "1.5")) }])
        #expect(stage.shapes == [.inPlace(.addColumn, "Person")])
        #expect(stage.steps[0].sql == [#"ALTER TABLE "Person" ADD COLUMN "score" REAL NOT NULL DEFAULT 1.5"#])
        #expect(stage.checks.isEmpty)
    }

    /// The summary names the column as declared and writes its definition after it: a double
    /// quote in the name, doubled in the SQL, leaves nothing of the quoted name behind.
    @Test func anAddedColumnWhoseNameHoldsAQuoteIsSummarizedWithItsDefinition() throws {
        let stage = try P.stage(
            from: [P.person()],
            to: [P.person { $0.attributes.append(A.attribute(#"we"ird"#, .string, default: "''")) }])
        #expect(stage.shapes == [.inPlace(.addColumn, "Person")])
        #expect(stage.steps[0].summary == #"Add column Person.we"ird TEXT NOT NULL DEFAULT ''"#)
        #expect(stage.steps[0].sql == [#"ALTER TABLE "Person" ADD COLUMN "we""ird" TEXT NOT NULL DEFAULT ''"#])
    }

    /// SQLite's `ADD COLUMN` refuses a default that is not a constant: the table is rebuilt, and
    /// every existing row takes the default as the copy inserts it.
    @Test(arguments: ["CURRENT_TIMESTAMP", "(date('now'))"])
    func addingAnAttributeWhoseDefaultIsNotAConstantRebuilds(_ expression: String) throws {
        let stage = try P.stage(
            from: [P.person()],
            to: [P.person { $0.attributes.append(A.attribute("createdAt", .string, default: expression)) }])
        #expect(stage.shapes == [.copies(.rebuildTable, "Person")])
        #expect(
            stage.steps[0].summary
                == "Rebuild table Person (copies every row): add createdAt with the default \(expression) (SQLite's ADD COLUMN needs a constant default)"
        )
        #expect(
            stage.steps[0].sql
                == Self.rebuild(
                    create:
                        #"CREATE TABLE "_sm_new_Person" ("id" INTEGER PRIMARY KEY, "name" TEXT NOT NULL DEFAULT '', "age" INTEGER, "email" TEXT, "createdAt" TEXT NOT NULL DEFAULT "#
                        + expression + ")",
                    copied: #""id", "name", "age", "email""#))
    }

    /// Allowed on an empty table only: the planner asks the data before anything is written.
    @Test func addingANonOptionalAttributeWithoutADefaultRebuildsAnEmptyTableOnly() throws {
        let stage = try P.stage(
            from: [P.person()], to: [P.person { $0.attributes.append(A.attribute("rating", .integer)) }])
        #expect(stage.shapes == [.copies(.rebuildTable, "Person")])
        #expect(stage.checkSummaries == ["Person.rating: Person must be empty"])
        #expect(
            stage.steps[0].summary
                == "Rebuild table Person (copies every row): add non-optional rating with no default (SQLite's ADD COLUMN needs a default for NOT NULL)"
        )
        #expect(stage.finalizingSteps.isEmpty)
    }

    /// In a custom stage the column is added nullable for `didMigrate` to fill, then a finalizing
    /// rebuild enforces NOT NULL after a check that no row is still NULL.
    @Test func inACustomStageANonOptionalAttributeWithoutADefaultIsFilledThenEnforced() throws {
        let stage = try P.stage(
            from: [P.person()], to: [P.person { $0.attributes.append(A.attribute("rating", .integer)) }], kind: .custom)
        #expect(stage.kind == .custom)
        #expect(stage.shapes == [.inPlace(.addColumn, "Person")])
        #expect(
            stage.steps[0].summary
                == "Add column Person.rating INTEGER (NULL until didMigrate fills it; NOT NULL is enforced after)")
        #expect(stage.steps[0].sql == [#"ALTER TABLE "Person" ADD COLUMN "rating" INTEGER"#])
        #expect(stage.checks.isEmpty)
        #expect(stage.finalizingCheckSummaries == ["Person.rating: no NULL in Person.rating"])
        #expect(
            P.remedy(stage.finalizingChecks[0])
                == "make didMigrate set 'rating' on every row, or give it a default value")
        #expect(stage.finalizingShapes == [.copies(.rebuildTable, "Person")])
        #expect(
            stage.finalizingSteps[0].summary == "Rebuild table Person (copies every row): enforce NOT NULL on rating")
        #expect(
            stage.finalizingSteps[0].sql[0]
                == #"CREATE TABLE "_sm_new_Person" ("id" INTEGER PRIMARY KEY, "name" TEXT NOT NULL DEFAULT '', "age" INTEGER, "email" TEXT, "rating" INTEGER NOT NULL)"#
        )
        #expect(stage.allSteps.count == 2)
    }

    @Test func removingAnAttributeDropsTheColumnAndIsDestructive() throws {
        let stage = try P.stage(from: [P.person()], to: [P.person { $0.attributes.removeAll { $0.name == "email" } }])
        #expect(stage.shapes == [.copies(.dropColumn, "Person", destructive: true)])
        #expect(stage.steps[0].summary == "Drop column Person.email and its values")
        #expect(stage.steps[0].sql == [#"ALTER TABLE "Person" DROP COLUMN "email""#])
    }

    @Test func removingAnIndexedAttributeDropsItsIndexFirst() throws {
        let stage = try P.stage(
            from: [P.person()],
            to: [
                P.person {
                    $0.attributes.removeAll { $0.name == "name" }
                    $0.indexes = []
                }
            ])
        #expect(stage.shapes == [.inPlace(.dropIndex, "Person"), .copies(.dropColumn, "Person", destructive: true)])
        #expect(stage.steps[0].summary == "Drop index on Person(name)")
        #expect(
            stage.steps.flatMap(\.sql) == [#"DROP INDEX "Person_name""#, #"ALTER TABLE "Person" DROP COLUMN "name""#])
    }

    /// SQLite before 3.35 has no `DROP COLUMN`: the column goes with a rebuild.
    @Test func withoutDropColumnRemovingAnAttributeRebuilds() throws {
        let stage = try P.stage(
            from: [P.person()], to: [P.person { $0.attributes.removeAll { $0.name == "email" } }],
            capabilities: .rebuildOnly)
        #expect(stage.shapes == [.copies(.rebuildTable, "Person", destructive: true)])
        #expect(stage.steps[0].summary == "Rebuild table Person (copies every row): drop email")
        #expect(
            stage.steps[0].sql
                == Self.rebuild(
                    create:
                        #"CREATE TABLE "_sm_new_Person" ("id" INTEGER PRIMARY KEY, "name" TEXT NOT NULL DEFAULT '', "age" INTEGER)"#,
                    copied: #""id", "name", "age""#))
    }

    /// A table with its own key: SQLite's `DROP COLUMN` is not used, the table is rebuilt.
    @Test func removingAnAttributeOfATableWithItsOwnKeyRebuilds() throws {
        let code = Schema.Entity(
            name: "Code", attributes: [A.attribute("code", .string), A.attribute("note", .string, optional: true)],
            primaryKey: ["code"])
        let stage = try P.stage(
            from: [code],
            to: [
                {
                    var c = code
                    c.attributes.removeLast()
                    return c
                }()
            ])
        #expect(stage.shapes == [.copies(.rebuildTable, "Code", destructive: true)])
        #expect(stage.steps[0].sql[0] == #"CREATE TABLE "_sm_new_Code" ("code" TEXT PRIMARY KEY NOT NULL)"#)
        #expect(stage.steps[0].sql[1] == #"INSERT OR ABORT INTO "_sm_new_Code" ("code") SELECT "code" FROM "Code""#)
    }

    @Test func renamingAnAttributeIsOneRenameColumnAndItsIndexFollows() throws {
        let stage = try P.stage(
            from: [P.person()],
            to: [
                P.person {
                    $0.attributes[0] = A.attribute("fullName", .string, default: "''", originalName: "name")
                    $0.indexes = [Schema.Index(["fullName"])]
                }
            ])
        #expect(stage.shapes == [.inPlace(.renameColumn, "Person")])
        #expect(stage.steps[0].summary == "Rename column Person.name to fullName")
        #expect(stage.steps[0].sql == [#"ALTER TABLE "Person" RENAME COLUMN "name" TO "fullName""#])
    }

    @Test func aCaseOnlyRenameOfAColumnGoesThroughATemporaryName() throws {
        let stage = try P.stage(
            from: [P.person()],
            to: [P.person { $0.attributes[2] = A.attribute("Email", .string, optional: true, originalName: "email") }])
        #expect(stage.shapes == [.inPlace(.renameColumn, "Person"), .inPlace(.renameColumn, "Person")])
        #expect(
            stage.steps.flatMap(\.sql) == [
                #"ALTER TABLE "Person" RENAME COLUMN "email" TO "_sm_tmp_0""#,
                #"ALTER TABLE "Person" RENAME COLUMN "_sm_tmp_0" TO "Email""#,
            ])
    }

    @Test func aSwapOfTwoColumnsGoesThroughTemporaryNames() throws {
        let pair = Schema.Entity(
            name: "Pair",
            attributes: [A.attribute("first", .string, optional: true), A.attribute("second", .string, optional: true)])
        var swapped = pair
        swapped.attributes = [
            A.attribute("second", .string, optional: true, originalName: "first"),
            A.attribute("first", .string, optional: true, originalName: "second"),
        ]
        let stage = try P.stage(from: [pair], to: [swapped])
        #expect(stage.shapes == Array(repeating: .inPlace(.renameColumn, "Pair"), count: 4))
        #expect(
            stage.steps.flatMap(\.sql) == [
                #"ALTER TABLE "Pair" RENAME COLUMN "first" TO "_sm_tmp_0""#,
                #"ALTER TABLE "Pair" RENAME COLUMN "second" TO "_sm_tmp_1""#,
                #"ALTER TABLE "Pair" RENAME COLUMN "_sm_tmp_0" TO "second""#,
                #"ALTER TABLE "Pair" RENAME COLUMN "_sm_tmp_1" TO "first""#,
            ])
    }

    @Test func aChainOfRenamesGoesThroughTemporaryNames() throws {
        let abc = Schema.Entity(
            name: "T",
            attributes: [A.attribute("a", .string, optional: true), A.attribute("b", .string, optional: true)])
        var chained = abc
        chained.attributes = [
            A.attribute("b", .string, optional: true, originalName: "a"),
            A.attribute("c", .string, optional: true, originalName: "b"),
        ]
        let stage = try P.stage(from: [abc], to: [chained])
        #expect(
            stage.steps.flatMap(\.sql) == [
                #"ALTER TABLE "T" RENAME COLUMN "a" TO "_sm_tmp_0""#,
                #"ALTER TABLE "T" RENAME COLUMN "b" TO "_sm_tmp_1""#,
                #"ALTER TABLE "T" RENAME COLUMN "_sm_tmp_0" TO "b""#,
                #"ALTER TABLE "T" RENAME COLUMN "_sm_tmp_1" TO "c""#,
            ])
    }

    /// `Title` is dropped while `heading` becomes `title`: the dropped column moves aside first.
    @Test func aNameADroppedColumnFreesIsTakenAfterTheDroppedColumnMovesAside() throws {
        let post = Schema.Entity(
            name: "Post",
            attributes: [
                A.attribute("Title", .string, optional: true), A.attribute("heading", .string, optional: true),
            ])
        var renamed = post
        renamed.attributes = [A.attribute("title", .string, optional: true, originalName: "heading")]
        let stage = try P.stage(from: [post], to: [renamed])
        #expect(
            stage.shapes == [
                .inPlace(.renameColumn, "Post"), .inPlace(.renameColumn, "Post"),
                .copies(.dropColumn, "Post", destructive: true),
            ])
        #expect(
            stage.steps.flatMap(\.sql) == [
                #"ALTER TABLE "Post" RENAME COLUMN "Title" TO "_sm_drop_0""#,
                #"ALTER TABLE "Post" RENAME COLUMN "heading" TO "title""#,
                #"ALTER TABLE "Post" DROP COLUMN "_sm_drop_0""#,
            ])
    }

    /// `email` with `originalName: "legacyEmail"` takes `legacyEmail`'s values; the old `email` is dropped.
    @Test func originalNameWinsOverASameNamedProperty() throws {
        let source = P.person { $0.attributes.append(A.attribute("legacyEmail", .string, optional: true)) }
        let stage = try P.stage(
            from: [source],
            to: [
                P.person {
                    $0.attributes[2] = A.attribute("email", .string, optional: true, originalName: "legacyEmail")
                }
            ])
        #expect(
            stage.steps.flatMap(\.sql) == [
                #"ALTER TABLE "Person" RENAME COLUMN "email" TO "_sm_drop_0""#,
                #"ALTER TABLE "Person" RENAME COLUMN "legacyEmail" TO "email""#,
                #"ALTER TABLE "Person" DROP COLUMN "_sm_drop_0""#,
            ])
        #expect(stage.steps.map(\.destructive) == [false, false, true])
    }

    /// A stale `originalName` from an older version, naming nothing in the previous one, is ignored.
    @Test func aStaleOriginalNameIsIgnored() throws {
        let stage = try P.stage(from: [P.person()], to: [P.person { $0.attributes[0].originalName = "title" }])
        #expect(stage.steps.isEmpty && stage.checks.isEmpty)
    }

    /// `@Attribute(column: "created_at") var createdAt`: the property keeps its name, the column is renamed.
    @Test func aColumnNameChangeIsARenameColumn() throws {
        let event = Schema.Entity(name: "Event", attributes: [A.attribute("createdAt", .double)])
        var mapped = event
        mapped.attributes[0].name = "created_at"
        mapped.attributes[0].propertyName = "createdAt"
        let stage = try P.stage(from: [event], to: [mapped])
        #expect(stage.shapes == [.inPlace(.renameColumn, "Event")])
        #expect(stage.steps[0].sql == [#"ALTER TABLE "Event" RENAME COLUMN "createdAt" TO "created_at""#])
        // And back: removing `column:` renames the column to the property's name.
        let back = try P.stage(from: [mapped], to: [event])
        #expect(back.steps.flatMap(\.sql) == [#"ALTER TABLE "Event" RENAME COLUMN "created_at" TO "createdAt""#])
    }

    /// `originalName` names the previous version's property, whatever its column was called.
    @Test func originalNameNamesThePreviousPropertyWhateverItsColumn() throws {
        var event = Schema.Entity(name: "Event", attributes: [A.attribute("created_at", .double)])
        event.attributes[0].propertyName = "createdAt"
        let renamed = Schema.Entity(
            name: "Event", attributes: [A.attribute("startedAt", .double, originalName: "createdAt")])
        let stage = try P.stage(from: [event], to: [renamed])
        #expect(stage.steps.flatMap(\.sql) == [#"ALTER TABLE "Event" RENAME COLUMN "created_at" TO "startedAt""#])
    }

    @Test func anOriginalNameThatNamesNoPropertyOfThePreviousVersionIsRefused() throws {
        let error = try #require(throws: MigrationError.self) {
            try P.stage(
                from: [P.person()],
                to: [
                    P.person { $0.attributes[2] = A.attribute("mail", .string, optional: true, originalName: "e_mail") }
                ])
        }
        #expect(error.code == .unsupportedChange)
        #expect(error.entity == "Person" && error.property == "mail" && error.version == Schema.Version(2, 0, 0))
        #expect(
            error.message
                == "property 'Person.mail' says it was renamed from 'e_mail', but version 2.0.0 is preceded by no property 'Person.e_mail'"
        )
        #expect(
            error.remedy
                == "did you mean 'email'? correct originalName to the name in the previous version, or remove it to add property 'Person.mail' as new"
        )
    }

    @Test func twoPropertiesClaimingOneOriginalNameAreRefused() throws {
        let error = try #require(throws: MigrationError.self) {
            try P.stage(
                from: [P.person()],
                to: [
                    P.person {
                        $0.attributes = [
                            A.attribute("name", .string, default: "''"), A.attribute("age", .integer, optional: true),
                            A.attribute("mail", .string, optional: true, originalName: "email"),
                            A.attribute("contact", .string, optional: true, originalName: "email"),
                        ]
                    }
                ])
        }
        #expect(error.code == .unsupportedChange)
        #expect(error.entity == "Person" && error.property == "contact")
        #expect(
            error.message
                == "property 'Person.mail' and property 'Person.contact' both continue property 'Person.email' of the previous version"
        )
        #expect(
            error.remedy
                == "only one of them can carry 'email's data: remove originalName from the other, or copy the values in a custom stage"
        )
    }
}
