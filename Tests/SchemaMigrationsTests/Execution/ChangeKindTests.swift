import Foundation
import Testing

@testable import SchemaMigrations

/// Each change kind a lightweight stage infers, on a populated table: the schema and every row after.
@Suite struct ChangeKindTests {
    typealias A = PlanBuilder

    @Test func addEntity() throws {
        let tag = Schema.Entity(
            name: "Tag", attributes: [A.attribute("label", .string, default: "''")],
            indexes: [Schema.Index(["label"], isUnique: true)])
        let (db, result) = try PersonFixture.migrate(to: [PersonFixture.person, tag])
        #expect(result.stages[0].steps.map(\.op) == [.createTable])
        #expect(try db.columns("Tag") == ["id": "INTEGER", "label": "TEXT NOT NULL DEFAULT ''"])
        #expect(try db.indexes("Tag") == ["UNIQUE (label)"])
        #expect(try db.rows("SELECT count(*) FROM Person") == [["3"]])
    }

    @Test func removeEntity() throws {
        let tag = Schema.Entity(name: "Tag", attributes: [A.attribute("label", .string, default: "''")])
        let (db, result) = try PersonFixture.migrate(to: [tag], source: [PersonFixture.person, tag])
        #expect(result.stages[0].steps.map(\.op) == [.dropTable])
        #expect(result.stages[0].steps[0].destructive)
        #expect(try db.scalar("SELECT count(*) FROM sqlite_schema WHERE name = 'Person'")?.int64Value == 0)
    }

    @Test func renameEntity() throws {
        var renamed = PersonFixture.person
        renamed.name = "Member"
        renamed.originalName = "Person"
        let (db, result) = try PersonFixture.migrate(to: [renamed])
        #expect(result.stages[0].steps.map(\.op) == [.renameTable])
        #expect(
            try db.rows("SELECT id, name, age FROM Member ORDER BY id") == [
                ["1", "'Ada'", "36"], ["2", "'Alan'", "NULL"], ["3", "'Grace'", "85"],
            ])
        #expect(try db.indexes("Member") == ["(name)"])
    }

    @Test func addOptionalAttributeIsAnAlterNotARebuild() throws {
        let (db, result) = try PersonFixture.migrate(to: [
            PersonFixture.person { $0.attributes.append(A.attribute("nickname", .string, optional: true)) }
        ])
        #expect(result.stages[0].steps.map(\.op) == [.addColumn])
        #expect(result.stages[0].steps[0].sql == [#"ALTER TABLE "Person" ADD COLUMN "nickname" TEXT"#])
        #expect(
            try db.rows("SELECT id, nickname FROM Person ORDER BY id") == [
                ["1", "NULL"], ["2", "NULL"], ["3", "NULL"],
            ])
    }

    @Test func addNonOptionalAttributeWithDefault() throws {
        let (db, result) = try PersonFixture.migrate(to: [
            PersonFixture.person { $0.attributes.append(A.attribute("score", .double, default: "1.5")) }
        ])
        #expect(result.stages[0].steps.map(\.op) == [.addColumn])
        #expect(try db.columns("Person")["score"] == "REAL NOT NULL DEFAULT 1.5")
        #expect(try db.rows("SELECT score FROM Person ORDER BY id") == [["1.5"], ["1.5"], ["1.5"]])
    }

    @Test func removeAttributeDropsTheColumnAndKeepsTheRest() throws {
        let (db, result) = try PersonFixture.migrate(to: [
            PersonFixture.person { $0.attributes.removeAll { $0.name == "email" } }
        ])
        #expect(result.stages[0].steps.map(\.op) == [.dropColumn])
        #expect(try db.columns("Person").keys.sorted() == ["age", "id", "name"])
        #expect(
            try db.rows("SELECT id, name, age FROM Person ORDER BY id") == [
                ["1", "'Ada'", "36"], ["2", "'Alan'", "NULL"], ["3", "'Grace'", "85"],
            ])
    }

    @Test func removeAnIndexedAttributeDropsItsIndexFirst() throws {
        let (db, result) = try PersonFixture.migrate(to: [
            PersonFixture.person {
                $0.attributes.removeAll { $0.name == "name" }
                $0.indexes = []
            }
        ])
        #expect(result.stages[0].steps.map(\.op) == [.dropIndex, .dropColumn])
        #expect(try db.indexes("Person") == [])
        #expect(try db.rows("SELECT id, age FROM Person ORDER BY id") == [["1", "36"], ["2", "NULL"], ["3", "85"]])
    }

    @Test func renameAttributeKeepsValuesAndIndex() throws {
        let (db, result) = try PersonFixture.migrate(to: [
            PersonFixture.person {
                $0.attributes[0] = A.attribute("fullName", .string, default: "''", originalName: "name")
                $0.indexes = [Schema.Index(["fullName"])]
            }
        ])
        #expect(result.stages[0].steps.map(\.op) == [.renameColumn])
        #expect(try db.rows("SELECT fullName FROM Person ORDER BY id") == [["'Ada'"], ["'Alan'"], ["'Grace'"]])
        #expect(try db.indexes("Person") == ["(fullName)"])
    }

    @Test func typeChangeWithALosslessConversionRebuilds() throws {
        let (db, result) = try PersonFixture.migrate(to: [
            PersonFixture.person { $0.attributes[1] = A.attribute("age", .double, optional: true) }
        ])
        #expect(result.stages[0].steps.map(\.op) == [.rebuildTable])
        #expect(try db.columns("Person")["age"] == "REAL")
        #expect(
            try db.rows("SELECT id, age, typeof(age) FROM Person ORDER BY id") == [
                ["1", "36.0", "'real'"], ["2", "NULL", "'null'"], ["3", "85.0", "'real'"],
            ])
        #expect(try db.indexes("Person") == ["(name)"])
    }

    @Test func optionalBecomesNonOptionalAndNullsTakeTheDefault() throws {
        let (db, _) = try PersonFixture.migrate(to: [
            PersonFixture.person { $0.attributes[1] = A.attribute("age", .integer, default: "0") }
        ])
        #expect(try db.columns("Person")["age"] == "INTEGER NOT NULL DEFAULT 0")
        #expect(try db.rows("SELECT id, age FROM Person ORDER BY id") == [["1", "36"], ["2", "0"], ["3", "85"]])
    }

    @Test func optionalBecomesNonOptionalWithoutDefaultWhenNoRowIsNull() throws {
        let (db, _) = try PersonFixture.migrate(
            to: [PersonFixture.person { $0.attributes[1] = A.attribute("age", .integer) }],
            rows: "INSERT INTO Person (id, name, age) VALUES (1, 'Ada', 36)")
        #expect(try db.columns("Person")["age"] == "INTEGER NOT NULL")
        #expect(try db.rows("SELECT id, age FROM Person") == [["1", "36"]])
    }

    @Test func nonOptionalBecomesOptional() throws {
        let (db, _) = try PersonFixture.migrate(to: [
            PersonFixture.person { $0.attributes[0] = A.attribute("name", .string, optional: true) }
        ])
        #expect(try db.columns("Person")["name"] == "TEXT")
        try db.execute("INSERT INTO Person (name) VALUES (NULL)")
        #expect(try db.rows("SELECT count(*) FROM Person") == [["4"]])
    }

    @Test func addAndRemoveUniqueConstraintsAndIndexes() throws {
        let (db, result) = try PersonFixture.migrate(to: [
            PersonFixture.person {
                $0.indexes = [Schema.Index(["email"], isUnique: true), Schema.Index(["name", "age"])]
            }
        ])
        #expect(result.stages[0].steps.map(\.op) == [.dropIndex, .createIndex, .createIndex])
        #expect(try db.indexes("Person") == ["UNIQUE (email)", "(name, age)"])
    }

    @Test func hashModifierChangeRebuildsTheTableKeepingValues() throws {
        let (db, result) = try PersonFixture.migrate(to: [PersonFixture.person { $0.attributes[2].hashModifier = "v2" }]
        )
        #expect(result.stages[0].steps.map(\.op) == [.rebuildTable])
        #expect(
            try db.rows("SELECT id, name, age, email FROM Person ORDER BY id") == [
                ["1", "'Ada'", "36", "'ada@example.com'"], ["2", "'Alan'", "NULL", "NULL"],
                ["3", "'Grace'", "85", "'grace@example.com'"],
            ])
    }

    /// Renames run first, through SQLite's RENAME COLUMN (which rewrites every reference to the
    /// column); every other change coalesces into one rebuild.
    @Test func everyChangeToOneTableCoalescesIntoOneRebuild() throws {
        let target = PersonFixture.person {
            $0.attributes = [
                A.attribute("fullName", .string, default: "''", originalName: "name"),
                A.attribute("age", .double, default: "0.0"),
                A.attribute("nickname", .string, optional: true),
            ]
            $0.indexes = [Schema.Index(["fullName", "age"], isUnique: true)]
        }
        let (db, result) = try PersonFixture.migrate(to: [target])
        #expect(result.stages[0].steps.map(\.op) == [.renameColumn, .rebuildTable])
        #expect(result.stages[0].steps[1].destructive)
        #expect(
            try db.rows("SELECT id, fullName, age, nickname FROM Person ORDER BY id") == [
                ["1", "'Ada'", "36.0", "NULL"], ["2", "'Alan'", "0.0", "NULL"], ["3", "'Grace'", "85.0", "NULL"],
            ])
        #expect(try db.indexes("Person") == ["UNIQUE (fullName, age)"])
    }

    @Test func withoutAlterSupportEveryChangeRebuildsToTheSameResult() throws {
        let target = PersonFixture.person {
            $0.attributes = [
                A.attribute("fullName", .string, default: "''", originalName: "name"),
                A.attribute("age", .integer, optional: true),
            ]
            $0.indexes = [Schema.Index(["fullName"])]
        }
        let db = TemporaryDatabase()
        let v1 = A.schema(1, [PersonFixture.person])
        let v2 = A.schema(2, [target])
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute(PersonFixture.rows)
        let stage = try Planner(capabilities: .rebuildOnly).plan(from: v1, to: v2, kind: .lightweight)
        #expect(stage.steps.map(\.op) == [.renameColumn, .rebuildTable])
        let connection = try db.connect()
        try connection.transaction {
            try StageExecutor(db: connection, progress: nil).runSteps(stage.steps, from: v1.version, to: v2.version)
        }
        #expect(
            try db.rows("SELECT id, fullName, age FROM Person ORDER BY id") == [
                ["1", "'Ada'", "36"], ["2", "'Alan'", "NULL"], ["3", "'Grace'", "85"],
            ])
        #expect(
            try SchemaComparison(checksDefaults: true).differences(
                declared: v2, live: LiveSchema.read(from: connection)) == [])
    }

    @Test func aRebuildKeepsHandMadeIndexesTriggersAndViews() throws {
        let db = TemporaryDatabase()
        let v1 = A.schema(1, [PersonFixture.person])
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute(
            PersonFixture.rows + """
                CREATE INDEX person_age ON Person(age);
                CREATE TABLE audit (what TEXT);
                CREATE TRIGGER person_insert AFTER INSERT ON Person BEGIN INSERT INTO audit VALUES ('insert ' || new.name); END;
                CREATE VIEW adults AS SELECT name FROM Person WHERE age >= 18;
                """)
        let v2 = A.schema(2, [PersonFixture.person { $0.attributes[2] = A.attribute("email", .string, default: "''") }])
        let result = try A.migrator([v1, v2]).migrate(databaseAt: db.url)
        #expect(result.stages[0].steps.map(\.op) == [.rebuildTable])
        #expect(try db.rows("SELECT name FROM adults ORDER BY name") == [["'Ada'"], ["'Grace'"]])
        #expect(try db.indexes("Person") == ["(name)", "(age)"])
        try db.execute("INSERT INTO Person (name) VALUES ('Linus')")
        #expect(try db.rows("SELECT what FROM audit") == [["'insert Linus'"]])
        #expect(try db.rows("SELECT email FROM Person WHERE id = 2") == [["''"]])
    }

    @Test func aHundredThousandRowsSurviveARebuild() throws {
        let db = TemporaryDatabase()
        let v1 = A.schema(1, [PersonFixture.person])
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute(
            """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000)
            INSERT INTO Person (id, name, age, email) SELECT i, 'person ' || i, CASE WHEN i % 7 = 0 THEN NULL ELSE i % 90 END, 'p' || i || '@example.com' FROM n;
            """)
        let checksum =
            "SELECT count(*), sum(id), sum(length(name)), sum(IFNULL(age, -1)), sum(length(email)) FROM Person"
        let before = try db.rows(checksum)
        let v2 = A.schema(
            2,
            [
                PersonFixture.person {
                    $0.attributes[1] = A.attribute("age", .integer, optional: true, hashModifier: "rebuild")
                }
            ])
        let result = try A.migrator([v1, v2]).migrate(databaseAt: db.url)
        #expect(result.stages[0].steps.map(\.op) == [.rebuildTable])
        #expect(try db.rows(checksum) == before)
        #expect(before[0][0] == "100000")
    }
}
