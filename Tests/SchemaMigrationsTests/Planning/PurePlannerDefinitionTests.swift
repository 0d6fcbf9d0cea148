import Foundation
import Testing

@testable import SchemaMigrations

/// The planner alone, for the change kinds of MIGRATIONS.md that change a column's definition in
/// place: type (each conversion, and the refusals), optionality, default and `defaultExpression`,
/// `sqlType`, `CHECK`, collation, `hashModifier`, `dateStorage`, `STRICT`. Each is one rebuild
/// (O(rows)); the checks on the data it needs are planned here and answered by the executor.
@Suite struct PurePlannerDefinitionTests {
    typealias A = PlanBuilder
    typealias P = PurePlanning

    /// `T` with one optional column `v` of `type`.
    static func table(_ type: Schema.ValueType, _ change: (inout Schema.Attribute) -> Void = { _ in }) -> Schema.Entity
    {
        var attribute = A.attribute("v", type, optional: true)
        change(&attribute)
        return Schema.Entity(name: "T", attributes: [attribute])
    }

    static let toDouble = #"CASE WHEN typeof("v") = 'integer' THEN CAST("v" AS REAL) ELSE "v" END"#
    static let toText =
        #"CASE typeof("v") WHEN 'integer' THEN CAST("v" AS TEXT) WHEN 'real' THEN (CASE WHEN CAST(CAST("v" AS TEXT) AS REAL) = "v" THEN CAST("v" AS TEXT) WHEN CAST(printf('%!.16g', "v") AS REAL) = "v" THEN printf('%!.16g', "v") WHEN CAST(printf('%!.17g', "v") AS REAL) = "v" THEN printf('%!.17g', "v") END) ELSE "v" END"#

    /// Every exact conversion MIGRATIONS.md lists: the copy's expression for `v`, and whether a
    /// check must first find no value that would not survive it.
    @Test(arguments: [
        (Schema.ValueType.integer, Schema.ValueType.double, toDouble, true),
        (.bool, .double, toDouble, false),
        (.integer, .string, toText, true),
        (.bool, .string, toText, true),
        (.integer, .decimal, toText, true),
        (
            .double, .string,
            #"CASE WHEN typeof("v") IN ('real', 'integer') THEN (CASE WHEN CAST(CAST(CAST("v" AS REAL) AS TEXT) AS REAL) = CAST("v" AS REAL) THEN CAST(CAST("v" AS REAL) AS TEXT) WHEN CAST(printf('%!.16g', CAST("v" AS REAL)) AS REAL) = CAST("v" AS REAL) THEN printf('%!.16g', CAST("v" AS REAL)) WHEN CAST(printf('%!.17g', CAST("v" AS REAL)) AS REAL) = CAST("v" AS REAL) THEN printf('%!.17g', CAST("v" AS REAL)) END) ELSE "v" END"#,
            true
        ),
        (.bool, .integer, #""v""#, false),
        (.date, .double, #""v""#, false),
        (.uuid, .string, #""v""#, false),
        (.url, .string, #""v""#, false),
        (.decimal, .string, #""v""#, false),
        (.json, .string, #""v""#, false),
    ])
    func aTypeChangeWithAnExactConversionRebuildsCopyingThroughIt(
        _ from: Schema.ValueType, _ to: Schema.ValueType, _ expression: String, _ checked: Bool
    ) throws {
        let stage = try P.stage(from: [Self.table(from)], to: [Self.table(to)])
        #expect(stage.shapes == [.copies(.rebuildTable, "T")])
        #expect(stage.steps[0].summary == "Rebuild table T (copies every row): v: \(from.rawValue) to \(to.rawValue)")
        #expect(
            stage.steps[0].sql == [
                #"CREATE TABLE "_sm_new_T" ("id" INTEGER PRIMARY KEY, "v" "# + to.storageType.rawValue + ")",
                #"INSERT OR ABORT INTO "_sm_new_T" ("id", "v") SELECT "id", "# + expression + #" FROM "T""#,
                #"DROP TABLE "T""#,
                #"ALTER TABLE "_sm_new_T" RENAME TO "T""#,
            ])
        #expect(
            stage.checkSummaries
                == (checked ? ["T.v: every value of T converts exactly from \(from.rawValue) to \(to.rawValue)"] : []))
    }

    /// An integer above 2^53 that a double would round is refused, by a check planned here.
    @Test func integerToDoubleChecksEveryValueSurvives() throws {
        let stage = try P.stage(from: [Self.table(.integer)], to: [Self.table(.double)])
        #expect(
            stage.checks.map(P.condition) == [
                #"typeof("v") = 'integer' AND (CAST(CAST("v" AS REAL) AS INTEGER) <> "v" OR CAST("v" AS REAL) >= 9223372036854775808.0)"#
            ])
    }

    @Test(arguments: [
        (Schema.ValueType.string, Schema.ValueType.integer),
        (.double, .integer),
        (.integer, .date),
        (.string, .uuid),
        (.integer, .bool),
        (.double, .date),
    ])
    func aTypeChangeWithoutAnExactConversionIsRefused(_ from: Schema.ValueType, _ to: Schema.ValueType) throws {
        let error = try #require(throws: MigrationError.self) {
            try P.stage(from: [Self.table(from)], to: [Self.table(to)])
        }
        #expect(error.code == .unsupportedChange)
        #expect(error.entity == "T" && error.property == "v" && error.version == Schema.Version(2, 0, 0))
        #expect(
            error.message
                == "a lightweight stage cannot change 'T.v' from \(from.rawValue) to \(to.rawValue): there is no lossless conversion"
        )
        #expect(
            error.remedy
                == "add a new attribute of the new type and fill it from the old one in a custom stage's didMigrate, then remove the old one"
        )
    }

    @Test func aTypeChangeWithoutAConversionWhileRenamingSaysSoAndSuggestsTwoVersions() throws {
        let error = try #require(throws: MigrationError.self) {
            try P.stage(
                from: [Self.table(.string)],
                to: [
                    Self.table(.integer) {
                        $0.name = "w"
                        $0.originalName = "v"
                    }
                ])
        }
        #expect(error.property == "w")
        #expect(
            error.message
                == "a lightweight stage cannot change 'T.w' from string to integer while renaming it from 'v': there is no lossless conversion"
        )
        #expect(
            error.remedy
                == "add a new attribute of the new type and fill it from the old one in a custom stage's didMigrate, then remove the old one; or rename in one version and change the type in the next"
        )
    }

    /// A custom stage with a new `hashModifier` takes over a conversion the planner cannot make:
    /// the values are copied as they are, and a finalizing rebuild declares the new type after `didMigrate`.
    @Test func inACustomStageATypeChangeWithANewHashModifierIsLeftToDidMigrate() throws {
        let stage = try P.stage(
            from: [Self.table(.string)], to: [Self.table(.date) { $0.hashModifier = "parsed" }], kind: .custom)
        #expect(stage.shapes == [.copies(.rebuildTable, "T")])
        #expect(
            stage.steps[0].summary
                == "Rebuild table T (copies every row): v: string to date, values copied as they are for didMigrate to convert; v's hashModifier changed"
        )
        #expect(stage.finalizingShapes == [.copies(.rebuildTable, "T")])
        #expect(
            stage.finalizingSteps[0].summary
                == "Rebuild table T (copies every row): declare the new type of v after didMigrate converted it")
        #expect(stage.checks.isEmpty && stage.finalizingChecks.isEmpty)
        // Without the hashModifier, a custom stage refuses it as a lightweight one does.
        let error = try #require(throws: MigrationError.self) {
            try P.stage(from: [Self.table(.string)], to: [Self.table(.date)], kind: .custom)
        }
        #expect(
            error.message
                == "a lightweight stage cannot change 'T.v' from string to date: there is no lossless conversion")
    }

    @Test func optionalToNonOptionalWithADefaultRebuildsAndNullsTakeTheDefault() throws {
        let stage = try P.stage(
            from: [P.person()], to: [P.person { $0.attributes[1] = A.attribute("age", .integer, default: "0") }])
        #expect(stage.shapes == [.copies(.rebuildTable, "Person")])
        #expect(
            stage.steps[0].summary
                == "Rebuild table Person (copies every row): age becomes non-optional (NULLs take the default 0); age's default changes from none to 0"
        )
        #expect(
            stage.steps[0].sql[1]
                == #"INSERT OR ABORT INTO "_sm_new_Person" ("id", "name", "age", "email") SELECT "id", "name", IFNULL("age", 0), "email" FROM "Person""#
        )
        #expect(stage.checks.isEmpty)
    }

    /// NULLs never clash in a UNIQUE index, but the default they take can: the kept index is checked.
    @Test func optionalToNonOptionalUnderAUniqueIndexChecksTheDefaultDoesNotClash() throws {
        let source = P.person { $0.indexes.append(Schema.Index(["age"], isUnique: true)) }
        let stage = try P.stage(
            from: [source],
            to: [
                P.person {
                    $0.attributes[1] = A.attribute("age", .integer, default: "0")
                    $0.indexes.append(Schema.Index(["age"], isUnique: true))
                }
            ])
        #expect(stage.shapes == [.copies(.rebuildTable, "Person")])
        #expect(stage.checkSummaries == ["Person.(age): no duplicates in Person(age) (NULLs as age = 0)"])
    }

    @Test func optionalToNonOptionalWithoutADefaultChecksNoRowIsNull() throws {
        let stage = try P.stage(from: [P.person()], to: [P.person { $0.attributes[1] = A.attribute("age", .integer) }])
        #expect(stage.shapes == [.copies(.rebuildTable, "Person")])
        #expect(stage.steps[0].summary == "Rebuild table Person (copies every row): age becomes non-optional")
        #expect(stage.checkSummaries == ["Person.age: no NULL in Person.age"])
        #expect(
            P.remedy(stage.checks[0])
                == "give 'age' a default value for the NULLs to take, or fill them in a custom stage")
        #expect(
            stage.steps[0].sql[0]
                == #"CREATE TABLE "_sm_new_Person" ("id" INTEGER PRIMARY KEY, "name" TEXT NOT NULL DEFAULT '', "age" INTEGER NOT NULL, "email" TEXT)"#
        )
    }

    /// In a custom stage `didMigrate` fills the NULLs: the check and the rebuild run after it.
    @Test func inACustomStageOptionalToNonOptionalIsEnforcedAfterDidMigrate() throws {
        let stage = try P.stage(
            from: [P.person()], to: [P.person { $0.attributes[1] = A.attribute("age", .integer) }], kind: .custom)
        #expect(stage.steps.isEmpty && stage.checks.isEmpty)
        #expect(stage.finalizingCheckSummaries == ["Person.age: no NULL in Person.age"])
        #expect(stage.finalizingShapes == [.copies(.rebuildTable, "Person")])
        #expect(stage.finalizingSteps[0].summary == "Rebuild table Person (copies every row): enforce NOT NULL on age")
    }

    @Test func nonOptionalToOptionalRebuilds() throws {
        let stage = try P.stage(
            from: [P.person()],
            to: [P.person { $0.attributes[0] = A.attribute("name", .string, optional: true, default: "''") }])
        #expect(stage.shapes == [.copies(.rebuildTable, "Person")])
        #expect(stage.steps[0].summary == "Rebuild table Person (copies every row): name becomes optional")
        #expect(
            stage.steps[0].sql[0]
                == #"CREATE TABLE "_sm_new_Person" ("id" INTEGER PRIMARY KEY, "name" TEXT DEFAULT '', "age" INTEGER, "email" TEXT)"#
        )
        #expect(stage.checks.isEmpty)
    }

    @Test func aDefaultValueChangeRebuilds() throws {
        let stage = try P.stage(from: [P.person()], to: [P.person { $0.attributes[0].defaultValue = "'anonymous'" }])
        #expect(stage.shapes == [.copies(.rebuildTable, "Person")])
        #expect(
            stage.steps[0].summary
                == "Rebuild table Person (copies every row): name's default changes from '' to 'anonymous'")
        #expect(
            stage.steps[0].sql[0]
                == #"CREATE TABLE "_sm_new_Person" ("id" INTEGER PRIMARY KEY, "name" TEXT NOT NULL DEFAULT 'anonymous', "age" INTEGER, "email" TEXT)"#
        )
    }

    /// `@Attribute(defaultExpression:)` is the column's default written as SQL.
    @Test func aDefaultExpressionChangeRebuilds() throws {
        let stage = try P.stage(
            from: [P.person()], to: [P.person { $0.attributes[2].defaultValue = "(lower('none'))" }])
        #expect(stage.shapes == [.copies(.rebuildTable, "Person")])
        #expect(
            stage.steps[0].summary
                == "Rebuild table Person (copies every row): email's default changes from none to (lower('none'))")
        #expect(stage.steps[0].sql[0].hasSuffix(#""email" TEXT DEFAULT (lower('none')))"#))
    }

    @Test func anAttributeHashModifierChangeRebuildsCopyingTheValuesAsTheyAre() throws {
        let stage = try P.stage(from: [P.person()], to: [P.person { $0.attributes[2].hashModifier = "v2" }])
        #expect(stage.shapes == [.copies(.rebuildTable, "Person")])
        #expect(stage.steps[0].summary == "Rebuild table Person (copies every row): email's hashModifier changed")
        #expect(
            stage.steps[0].sql
                == PurePlannerColumnTests.rebuild(
                    create:
                        #"CREATE TABLE "_sm_new_Person" ("id" INTEGER PRIMARY KEY, "name" TEXT NOT NULL DEFAULT '', "age" INTEGER, "email" TEXT)"#,
                    copied: #""id", "name", "age", "email""#))
    }

    @Test func anEntityHashModifierChangeRebuilds() throws {
        let stage = try P.stage(from: [P.person()], to: [P.person { $0.hashModifier = "v2" }])
        #expect(stage.shapes == [.copies(.rebuildTable, "Person")])
        #expect(stage.steps[0].summary == "Rebuild table Person (copies every row): the entity's hashModifier changed")
    }

    @Test func anSQLTypeChangeRebuildsDeclaringTheNewType() throws {
        let stage = try P.stage(from: [P.person()], to: [P.person { $0.attributes[2].sqlType = "VARCHAR(80)" }])
        #expect(stage.shapes == [.copies(.rebuildTable, "Person")])
        #expect(
            stage.steps[0].summary == "Rebuild table Person (copies every row): email: declared TEXT to VARCHAR(80)")
        #expect(
            stage.steps[0].sql[0]
                == #"CREATE TABLE "_sm_new_Person" ("id" INTEGER PRIMARY KEY, "name" TEXT NOT NULL DEFAULT '', "age" INTEGER, "email" VARCHAR(80))"#
        )
        #expect(
            stage.steps[0].sql[1]
                == #"INSERT OR ABORT INTO "_sm_new_Person" ("id", "name", "age", "email") SELECT "id", "name", "age", "email" FROM "Person""#
        )
    }

    /// Spacing and case of the declared type are not a change.
    @Test func anSQLTypeWrittenOtherwiseIsNoChange() throws {
        let source = P.person { $0.attributes[2].sqlType = "VARCHAR(80)" }
        let stage = try P.stage(from: [source], to: [P.person { $0.attributes[2].sqlType = "varchar( 80 )" }])
        #expect(stage.steps.isEmpty)
    }

    @Test func aCheckChangeRebuildsAndSpacingOrCaseIsNoChange() throws {
        let stage = try P.stage(from: [P.person()], to: [P.person { $0.attributes[0].check = "length(name) > 0" }])
        #expect(stage.shapes == [.copies(.rebuildTable, "Person")])
        #expect(
            stage.steps[0].summary
                == "Rebuild table Person (copies every row): name: no CHECK to CHECK (length(name) > 0)")
        #expect(
            stage.steps[0].sql[0]
                == #"CREATE TABLE "_sm_new_Person" ("id" INTEGER PRIMARY KEY, "name" TEXT NOT NULL DEFAULT '' CHECK (length(name) > 0), "age" INTEGER, "email" TEXT)"#
        )
        let respaced = try P.stage(
            from: [P.person { $0.attributes[0].check = "length(name) > 0" }],
            to: [P.person { $0.attributes[0].check = "LENGTH(name)>0" }])
        #expect(respaced.steps.isEmpty)
    }

    @Test func aCollationChangeRebuildsAndCaseIsNoChange() throws {
        let stage = try P.stage(from: [P.person()], to: [P.person { $0.attributes[0].collation = "NOCASE" }])
        #expect(stage.shapes == [.copies(.rebuildTable, "Person")])
        #expect(stage.steps[0].summary == "Rebuild table Person (copies every row): name: collation BINARY to NOCASE")
        #expect(
            stage.steps[0].sql[0]
                == #"CREATE TABLE "_sm_new_Person" ("id" INTEGER PRIMARY KEY, "name" TEXT NOT NULL DEFAULT '' COLLATE NOCASE, "age" INTEGER, "email" TEXT)"#
        )
        #expect(
            stage.steps[0].sql.last == #"CREATE INDEX "Person_name" ON "Person" ("name")"#,
            "the index is recreated and takes the new collation")
        let recased = try P.stage(
            from: [P.person { $0.attributes[0].collation = "NOCASE" }],
            to: [P.person { $0.attributes[0].collation = "nocase" }])
        #expect(recased.steps.isEmpty)
    }

    @Test(arguments: [true, false])
    func strictTurnedOnOrOffRebuilds(_ on: Bool) throws {
        let stage = try P.stage(from: [P.person { $0.isStrict = !on }], to: [P.person { $0.isStrict = on }])
        #expect(stage.shapes == [.copies(.rebuildTable, "Person")])
        #expect(stage.steps[0].summary == "Rebuild table Person (copies every row): STRICT \(on ? "on" : "off")")
        #expect(
            stage.steps[0].sql[0]
                == #"CREATE TABLE "_sm_new_Person" ("id" INTEGER PRIMARY KEY, "name" TEXT NOT NULL DEFAULT '', "age" INTEGER, "email" TEXT)"#
                + (on ? " STRICT" : ""))
    }

    @Test(arguments: [
        (
            Schema.DateStorage?.none, Schema.DateStorage?.some(.iso8601Text), "a date stored as secondsSince1970",
            "a date stored as iso8601Text"
        ),
        (.some(.iso8601Text), .none, "a date stored as iso8601Text", "a date stored as secondsSince1970"),
        (.some(.julianDay), .some(.iso8601Text), "a date stored as julianDay", "a date stored as iso8601Text"),
    ])
    func aDateStorageChangeIsRefused(
        _ from: Schema.DateStorage?, _ to: Schema.DateStorage?, _ old: String, _ new: String
    ) throws {
        let error = try #require(throws: MigrationError.self) {
            try P.stage(
                from: [Self.table(.date) { $0.dateStorage = from }], to: [Self.table(.date) { $0.dateStorage = to }])
        }
        #expect(error.code == .unsupportedChange)
        #expect(error.entity == "T" && error.property == "v" && error.version == Schema.Version(2, 0, 0))
        #expect(error.message == "a lightweight stage cannot change 'T.v' from \(old) to \(new)")
        #expect(
            error.remedy
                == "add a new attribute with the new storage, fill it from the old one in a custom stage's didMigrate (the data API reads and writes each storage), then remove the old one"
        )
    }

    /// A date stored as text or Julian days has no inferred conversion to another type.
    @Test func aTypeChangeOfADateNotStoredAsSecondsIsRefused() throws {
        let error = try #require(throws: MigrationError.self) {
            try P.stage(from: [Self.table(.date) { $0.dateStorage = .iso8601Text }], to: [Self.table(.string)])
        }
        #expect(error.code == .unsupportedChange)
        #expect(
            error.message
                == "a lightweight stage cannot change 'T.v' from a date stored as iso8601Text to string values")
    }
}
