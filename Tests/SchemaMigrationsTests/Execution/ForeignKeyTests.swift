import Foundation
import Testing

@testable import SchemaMigrations

/// `PRAGMA foreign_key_check` before commit: new violations roll back, old ones are tolerated.
@Suite struct ForeignKeyTests {
    typealias A = PlanBuilder
    static let tag = Schema.Entity(name: "Tag", attributes: [A.attribute("label", .string, default: "''")])

    @Test func droppingAParentThatRowsStillReferenceIsRolledBackNamingThem() throws {
        let db = TemporaryDatabase()
        let v1 = A.schema(1, [PersonFixture.person, Self.tag])
        let v2 = A.schema(2, [PersonFixture.person])
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute(
            """
            INSERT INTO Tag (id, label) VALUES (1, 'red'), (2, 'blue');
            CREATE TABLE tagging (id INTEGER PRIMARY KEY, tag_id INTEGER REFERENCES Tag(id));
            INSERT INTO tagging VALUES (10, 1), (11, 2), (12, NULL);
            """)
        let before = try db.bytes()
        let error = try #require(throws: MigrationError.self) { try A.migrator([v1, v2]).migrate(databaseAt: db.url) }
        #expect(error.code == .dataViolation)
        #expect(
            error.message == "the migration would leave 2 rows pointing at missing parents; everything was rolled back")
        #expect(
            error.details == [
                "tagging row 10 references a missing row of Tag", "tagging row 11 references a missing row of Tag",
            ])
        #expect(try db.bytes() == before)
    }

    @Test func violationsTheDatabaseAlreadyHadDoNotBlockTheMigration() throws {
        let db = TemporaryDatabase()
        let v1 = A.schema(1, [PersonFixture.person])
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute(
            PersonFixture.rows + """
                CREATE TABLE pet (id INTEGER PRIMARY KEY, owner INTEGER REFERENCES Person(id));
                INSERT INTO pet VALUES (1, 1), (2, 99);
                """)
        let v2 = A.schema(2, [PersonFixture.person { $0.attributes[1] = A.attribute("age", .double, optional: true) }])
        let result = try A.migrator(
            [v1, v2], kind: .custom,
            willMigrate: { context in
                try context.execute("INSERT INTO pet VALUES (3, 2)")
            }
        ).migrate(databaseAt: db.url)
        #expect(result.stages[0].steps.map(\.op) == [.rebuildTable])
        // The stage ran twice (the second time knowing the old violation), but its effects are there once.
        #expect(try db.rows("SELECT id, owner FROM pet ORDER BY id") == [["1", "1"], ["2", "99"], ["3", "2"]])
        #expect(try db.rows("SELECT count(*) FROM pragma_foreign_key_check") == [["1"]])
        #expect(try db.recordedVersion() == "2.0.0")
    }
}

extension ForeignKeyTests {
    @Test func aCustomStageDeletingAParentWithRawSQLIsCaughtBeforeCommit() throws {
        let db = TemporaryDatabase()
        let v1 = A.schema(1, [PersonFixture.person])
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute(
            PersonFixture.rows + """
                CREATE TABLE pet (id INTEGER PRIMARY KEY, owner INTEGER REFERENCES Person(id));
                INSERT INTO pet VALUES (1, 1), (2, 3);
                """)
        let before = try db.bytes()
        let v2 = A.schema(
            2, [PersonFixture.person { $0.attributes.append(A.attribute("nickname", .string, optional: true)) }])
        let error = try #require(throws: MigrationError.self) {
            try A.migrator(
                [v1, v2], kind: .custom,
                willMigrate: { context in try context.execute("DELETE FROM Person WHERE id = 3") }
            ).migrate(databaseAt: db.url)
        }
        #expect(error.code == .dataViolation)
        #expect(error.details == ["pet row 2 references a missing row of Person"])
        #expect(try db.bytes() == before)
    }
}
