import Foundation
import Testing

@testable import SchemaMigrations

/// The planner alone, for the index and uniqueness change kinds of MIGRATIONS.md: add and remove
/// an index or a uniqueness, a declared index name (`indexNames`) changing, and indexes following
/// a renamed column. Two schemas in, steps out, no database.
@Suite struct PurePlannerIndexTests {
    typealias A = PlanBuilder
    typealias P = PurePlanning

    @Test func addingAnIndexIsOneCreateIndex() throws {
        let stage = try P.stage(
            from: [P.person()], to: [P.person { $0.indexes.append(Schema.Index(["age", "name"])) }])
        #expect(stage.shapes == [.inPlace(.createIndex, "Person")])
        #expect(stage.steps[0].summary == "Create index Person_age_name on Person(age, name)")
        #expect(stage.steps[0].sql == [#"CREATE INDEX "Person_age_name" ON "Person" ("age", "name")"#])
        #expect(stage.checks.isEmpty)
    }

    @Test func removingAnIndexIsOneDropIndex() throws {
        let stage = try P.stage(from: [P.person()], to: [P.person { $0.indexes = [] }])
        #expect(stage.shapes == [.inPlace(.dropIndex, "Person")])
        #expect(stage.steps[0].summary == "Drop index on Person(name)")
        #expect(stage.steps[0].sql == [#"DROP INDEX "Person_name""#])
    }

    /// The duplicate check is planned here; the executor answers it before anything is written.
    @Test func addingUniquenessCreatesAUniqueIndexAfterCheckingForDuplicates() throws {
        let stage = try P.stage(
            from: [P.person()], to: [P.person { $0.indexes.append(Schema.Index(["email"], isUnique: true)) }])
        #expect(stage.shapes == [.inPlace(.createIndex, "Person")])
        #expect(stage.steps[0].summary == "Create unique index Person_email_unique on Person(email)")
        #expect(stage.steps[0].sql == [#"CREATE UNIQUE INDEX "Person_email_unique" ON "Person" ("email")"#])
        #expect(stage.checkSummaries == ["Person.(email): no duplicates in Person(email)"])
    }

    @Test func removingUniquenessIsOneDropIndex() throws {
        let unique = P.person { $0.indexes.append(Schema.Index(["email"], isUnique: true)) }
        let stage = try P.stage(from: [unique], to: [P.person()])
        #expect(stage.shapes == [.inPlace(.dropIndex, "Person")])
        #expect(stage.steps[0].summary == "Drop unique index on Person(email)")
        #expect(stage.steps[0].sql == [#"DROP INDEX "Person_email_unique""#])
        #expect(stage.checks.isEmpty)
    }

    /// A declared index is dropped under its declared name (the live table's name, if it differs, when it runs).
    @Test func removingANamedIndexDropsItByItsName() throws {
        let stage = try P.stage(
            from: [P.person { $0.indexes = [Schema.Index(["name"], name: "IFK_PersonName")] }],
            to: [P.person { $0.indexes = [] }])
        #expect(stage.shapes == [.inPlace(.dropIndex, "Person")])
        #expect(stage.steps[0].sql == [#"DROP INDEX "IFK_PersonName""#])
    }

    /// In a custom stage the duplicate check is planned as in a lightweight one: the executor runs
    /// `willMigrate` before it, so the code can remove the duplicates first.
    @Test func inACustomStageANewUniquenessIsStillChecked() throws {
        let stage = try P.stage(
            from: [P.person()], to: [P.person { $0.indexes.append(Schema.Index(["email"], isUnique: true)) }],
            kind: .custom)
        #expect(stage.shapes == [.inPlace(.createIndex, "Person")])
        #expect(stage.checkSummaries == ["Person.(email): no duplicates in Person(email)"])
        #expect(stage.finalizingChecks.isEmpty && stage.finalizingSteps.isEmpty)
    }

    /// An index and its unique twin are different structures: one is dropped, the other created.
    @Test func makingAnIndexUniqueDropsTheOldAndChecksTheNew() throws {
        let stage = try P.stage(
            from: [P.person()], to: [P.person { $0.indexes = [Schema.Index(["name"], isUnique: true)] }])
        #expect(stage.shapes == [.inPlace(.dropIndex, "Person"), .inPlace(.createIndex, "Person")])
        #expect(
            stage.steps.flatMap(\.sql) == [
                #"DROP INDEX "Person_name""#, #"CREATE UNIQUE INDEX "Person_name_unique" ON "Person" ("name")"#,
            ])
        #expect(stage.checkSummaries == ["Person.(name): no duplicates in Person(name)"])
    }

    /// Index drops run first, new indexes last.
    @Test func indexDropsComeFirstAndNewIndexesLast() throws {
        let stage = try P.stage(
            from: [P.person()],
            to: [
                P.person {
                    $0.attributes.append(A.attribute("nickname", .string, optional: true))
                    $0.indexes = [Schema.Index(["email"], isUnique: true), Schema.Index(["name", "age"])]
                }
            ])
        #expect(stage.steps.map(\.op) == [.dropIndex, .addColumn, .createIndex, .createIndex])
    }

    /// The check runs before the renames: it names the columns as the table has them then, and
    /// the properties as the new version does.
    @Test func aNewUniquenessOverARenamedColumnIsCheckedUnderItsOldName() throws {
        let stage = try P.stage(
            from: [P.person()],
            to: [
                P.person {
                    $0.attributes[0] = A.attribute("fullName", .string, default: "''", originalName: "name")
                    $0.indexes = [Schema.Index(["fullName"]), Schema.Index(["fullName", "age"], isUnique: true)]
                }
            ])
        #expect(stage.shapes == [.inPlace(.renameColumn, "Person"), .inPlace(.createIndex, "Person")])
        #expect(
            stage.steps[1].sql == [#"CREATE UNIQUE INDEX "Person_fullName_age_unique" ON "Person" ("fullName", "age")"#]
        )
        #expect(stage.checkSummaries == ["Person.(fullName, age): no duplicates in Person(name, age)"])
    }

    /// SQLite has no `RENAME INDEX`, and only the live table knows the old name: the rebuild
    /// retires the index found by its columns and creates it under the declared name.
    @Test func aDeclaredIndexNameChangeRebuilds() throws {
        let stage = try P.stage(
            from: [P.person()],
            to: [
                P.person {
                    $0.indexes = [Schema.Index(["name"], name: "IFK_PersonName")]
                    $0.hashModifier = "named"
                }
            ])
        #expect(stage.shapes == [.copies(.rebuildTable, "Person")])
        #expect(
            stage.steps[0].summary
                == "Rebuild table Person (copies every row): the entity's hashModifier changed; index (name) named IFK_PersonName"
        )
        #expect(stage.steps[0].sql.last == #"CREATE INDEX "IFK_PersonName" ON "Person" ("name")"#)
    }

    /// Index names compare without case, as SQLite's do.
    @Test func aDeclaredIndexNameInAnotherCaseIsNoChange() throws {
        let named = P.person { $0.indexes = [Schema.Index(["name"], name: "Person_name")] }
        let stage = try P.stage(
            from: [named], to: [P.person { $0.indexes = [Schema.Index(["name"], name: "PERSON_NAME")] }])
        #expect(stage.steps.isEmpty)
    }

    /// Removing a uniqueness as part of a rebuild drops nothing separately: the retired index goes with the old table.
    @Test func aRebuildRetiresIndexesItselfWithoutSeparateDrops() throws {
        let stage = try P.stage(
            from: [P.person()],
            to: [
                P.person {
                    $0.attributes[1] = A.attribute("age", .double, optional: true)
                    $0.indexes = [Schema.Index(["age"])]
                }
            ])
        #expect(stage.shapes == [.copies(.rebuildTable, "Person")])
        #expect(
            stage.steps[0].summary
                == "Rebuild table Person (copies every row): age: integer to double; new (age); no more (name)")
        #expect(stage.steps[0].sql.last == #"CREATE INDEX "Person_age" ON "Person" ("age")"#)
        #expect(!stage.steps[0].sql.contains(#"CREATE INDEX "Person_name" ON "Person" ("name")"#))
    }
}
