import Foundation
import Testing

@testable import SchemaMigrations

/// The planner alone, for the key change kinds of MIGRATIONS.md (primary key, `AUTOINCREMENT`,
/// `WITHOUT ROWID`: refused) and for the order of a stage's steps and the coalescing of every
/// change to one table into one rebuild. Two schemas in, steps out, no database.
@Suite struct PurePlannerKeyAndOrderTests {
    typealias A = PlanBuilder
    typealias P = PurePlanning

    static func code(
        key: [String]? = ["code"], autoincrement: Bool = false, withoutRowID: Bool = false,
        _ change: (inout Schema.Entity) -> Void = { _ in }
    ) -> Schema.Entity {
        var entity = Schema.Entity(
            name: "Code", attributes: [A.attribute("code", .integer), A.attribute("region", .string, default: "''")],
            primaryKey: key, isAutoincrement: autoincrement, isWithoutRowID: withoutRowID)
        change(&entity)
        return entity
    }

    /// What MIGRATIONS.md promises: `version V changes T's primary key from (a) to (b), which a plan does not infer`.
    static func documented(_ change: String) -> String {
        "version 2.0.0 changes Code's \(change), which a plan does not infer"
    }

    @Test(
        arguments: [
            (["code"], ["code", "region"], "primary key from (code) to (code, region)"),
            (nil, ["code"], "primary key from \"id\" to (code)"),
            (["code"], nil, "primary key from (code) to \"id\""),
        ] as [([String]?, [String]?, String)])
    func aPrimaryKeyChangeIsRefused(_ from: [String]?, _ to: [String]?, _ change: String) throws {
        let error = try #require(throws: MigrationError.self) {
            try P.stage(from: [Self.code(key: from)], to: [Self.code(key: to)])
        }
        #expect(error.code == .unsupportedChange)
        #expect(error.entity == "Code" && error.property == nil && error.version == Schema.Version(2, 0, 0))
        #expect(
            error.remedy
                == "keep the key as it was; to move it, create a new entity with the new key and copy the rows in a custom stage's didMigrate"
        )
        #expect(error.message == Self.documented(change))
    }

    @Test(arguments: [true, false])
    func autoincrementOnOrOffIsRefused(_ on: Bool) throws {
        let error = try #require(throws: MigrationError.self) {
            try P.stage(from: [Self.code(autoincrement: !on)], to: [Self.code(autoincrement: on)])
        }
        #expect(error.code == .unsupportedChange)
        #expect(error.entity == "Code" && error.property == nil)
        #expect(error.message == Self.documented("AUTOINCREMENT \(on ? "on" : "off")"))
    }

    @Test(arguments: [true, false])
    func withoutRowIDOnOrOffIsRefused(_ on: Bool) throws {
        let error = try #require(throws: MigrationError.self) {
            try P.stage(from: [Self.code(withoutRowID: !on)], to: [Self.code(withoutRowID: on)])
        }
        #expect(error.code == .unsupportedChange)
        #expect(error.entity == "Code")
        #expect(error.message == Self.documented("WITHOUT ROWID \(on ? "on" : "off")"))
    }

    /// A key column renamed is the same key.
    @Test func renamingAKeyColumnIsARenameNotAKeyChange() throws {
        let stage = try P.stage(
            from: [Self.code()],
            to: [
                Self.code(key: ["number"]) { $0.attributes[0] = A.attribute("number", .integer, originalName: "code") }
            ])
        #expect(stage.shapes == [.inPlace(.renameColumn, "Code")])
        #expect(stage.steps[0].sql == [#"ALTER TABLE "Code" RENAME COLUMN "code" TO "number""#])
    }

    /// A table with its own key keeps it through a rebuild: `CREATE TABLE` declares it, the copy has no `id`.
    @Test func aRebuildOfATableWithItsOwnKeyDeclaresItAndCopiesNoID() throws {
        let stage = try P.stage(
            from: [Self.code(autoincrement: true)], to: [Self.code(autoincrement: true) { $0.hashModifier = "again" }])
        #expect(
            stage.steps[0].sql[0]
                == #"CREATE TABLE "_sm_new_Code" ("code" INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, "region" TEXT NOT NULL DEFAULT '')"#
        )
        #expect(
            stage.steps[0].sql[1]
                == #"INSERT OR ABORT INTO "_sm_new_Code" ("code", "region") SELECT "code", "region" FROM "Code""#)
    }

    /// MIGRATIONS.md: index drops, every rename (tables, then columns), table drops, each table's
    /// changes, new tables, new indexes.
    @Test func theStepsOfAStageRunInTheDocumentedOrder() throws {
        let old = Schema.Entity(name: "Old", attributes: [A.attribute("x", .string, optional: true)])
        let new = Schema.Entity(name: "New", attributes: [A.attribute("y", .string, optional: true)])
        let member = P.person {
            $0.name = "Member"
            $0.originalName = "Person"
            $0.attributes = [
                A.attribute("fullName", .string, default: "''", originalName: "name"),
                A.attribute("age", .integer, optional: true),
                A.attribute("nickname", .string, optional: true),
            ]
            $0.indexes = [Schema.Index(["age"])]
        }
        let stage = try P.stage(
            from: [P.person { $0.indexes.append(Schema.Index(["email"], isUnique: true)) }, old], to: [member, new])
        #expect(
            stage.shapes == [
                .inPlace(.dropIndex, "Person"), .inPlace(.dropIndex, "Person"),
                .inPlace(.renameTable, "Member"), .inPlace(.renameColumn, "Member"),
                .loses(.dropTable, "Old"),
                .copies(.dropColumn, "Member", destructive: true), .inPlace(.addColumn, "Member"),
                .inPlace(.createTable, "New"),
                .inPlace(.createIndex, "Member"),
            ])
        #expect(
            stage.steps.flatMap(\.sql) == [
                #"DROP INDEX "Person_name""#,
                #"DROP INDEX "Person_email_unique""#,
                #"ALTER TABLE "Person" RENAME TO "Member""#,
                #"ALTER TABLE "Member" RENAME COLUMN "name" TO "fullName""#,
                #"DROP TABLE "Old""#,
                #"ALTER TABLE "Member" DROP COLUMN "email""#,
                #"ALTER TABLE "Member" ADD COLUMN "nickname" TEXT"#,
                #"CREATE TABLE "New" ("id" INTEGER PRIMARY KEY, "y" TEXT)"#,
                #"CREATE INDEX "Member_age" ON "Member" ("age")"#,
            ])
    }

    /// Renames run first through SQLite's RENAME COLUMN; every other change to the table coalesces
    /// into one rebuild, whose summary gives every reason.
    @Test func everyChangeToOneTableCoalescesIntoOneRebuild() throws {
        let stage = try P.stage(
            from: [P.person()],
            to: [
                P.person {
                    $0.attributes = [
                        A.attribute("fullName", .string, default: "''", originalName: "name"),
                        A.attribute("age", .double, default: "0.0"),
                        A.attribute("nickname", .string, optional: true),
                    ]
                    $0.indexes = [Schema.Index(["fullName", "age"], isUnique: true)]
                }
            ])
        #expect(
            stage.shapes == [.inPlace(.renameColumn, "Person"), .copies(.rebuildTable, "Person", destructive: true)])
        #expect(
            stage.steps[1].summary
                == "Rebuild table Person (copies every row): renamed name to fullName first; age: integer to double; "
                + "age becomes non-optional (NULLs take the default 0.0); age's default changes from none to 0.0; drop email; new unique (fullName, age); no more (fullName)"
        )
        #expect(
            stage.steps[1].sql == [
                #"CREATE TABLE "_sm_new_Person" ("id" INTEGER PRIMARY KEY, "fullName" TEXT NOT NULL DEFAULT '', "age" REAL NOT NULL DEFAULT 0.0, "nickname" TEXT)"#,
                #"INSERT OR ABORT INTO "_sm_new_Person" ("id", "fullName", "age") SELECT "id", "fullName", IFNULL(CASE WHEN typeof("age") = 'integer' THEN CAST("age" AS REAL) ELSE "age" END, 0.0) FROM "Person""#,
                #"DROP TABLE "Person""#,
                #"ALTER TABLE "_sm_new_Person" RENAME TO "Person""#,
                #"CREATE UNIQUE INDEX "Person_fullName_age_unique" ON "Person" ("fullName", "age")"#,
            ])
        #expect(
            stage.checkSummaries == [
                "Person.age: every value of Person converts exactly from integer to double",
                "Person.(fullName, age): no duplicates in Person(name, age) (NULLs as age = 0.0)",
            ])
    }

    /// The public entry point plans the same stage as the planner with the library's capabilities.
    @Test func schemaMigrationStageIsThePurePlanner() throws {
        let v1 = A.schema(1, [P.person()])
        let v2 = A.schema(2, [P.person { $0.attributes.append(A.attribute("nickname", .string, optional: true)) }])
        let stage = try v1.migrationStage(to: v2)
        #expect(
            stage.from == Schema.Version(1, 0, 0) && stage.to == Schema.Version(2, 0, 0) && stage.kind == .lightweight)
        #expect(stage.shapes == [.inPlace(.addColumn, "Person")])
        #expect(stage.steps[0].sql == [#"ALTER TABLE "Person" ADD COLUMN "nickname" TEXT"#])
    }
}
