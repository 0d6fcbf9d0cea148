import Foundation
import Testing

@testable import SchemaMigrations

/// The foreign key check after a stage fails only on violations the stage introduced: an orphan
/// the database already had is recognised whatever the stage renamed, and a table the check
/// cannot read (an app's virtual table whose module the migrator lacks) does not block it.
@Suite struct ForeignKeyHistoryTests {
    typealias A = PlanBuilder

    static func owners(
        owner: String = "Owner", ownerOriginal: String? = nil, pet: String = "Pet", petOriginal: String? = nil,
        ownerModifier: String? = nil, petModifier: String? = nil
    ) -> [Schema.Entity] {
        [
            Schema.Entity(
                name: owner, originalName: ownerOriginal, hashModifier: ownerModifier,
                attributes: [A.attribute("name", .string, default: "''")],
                relationships: [
                    Schema.Relationship(
                        name: "pets", destination: pet, isToMany: true, deleteRule: .cascade, inverse: "owner")
                ]),
            Schema.Entity(
                name: pet, originalName: petOriginal, hashModifier: petModifier,
                attributes: [A.attribute("name", .string, default: "''")],
                relationships: [Schema.Relationship(name: "owner", destination: owner, isToMany: false)]),
        ]
    }

    /// V1 with two owners and three pets, one of which already points at a missing owner.
    static func populated() throws -> (TemporaryDatabase, Schema) {
        let db = TemporaryDatabase()
        let v1 = A.schema(1, owners())
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute(
            """
            INSERT INTO Owner (id, name) VALUES (1, 'Ada'), (2, 'Alan');
            INSERT INTO Pet (id, name, owner_id) VALUES (1, 'Rex', 1), (2, 'Tom', 99), (3, 'Kit', 2);
            """)
        return (db, v1)
    }

    @Test func anOldOrphanIsToleratedWhenItsParentIsRenamedAndRebuilt() throws {
        let (db, v1) = try Self.populated()
        let v2 = A.schema(2, Self.owners(owner: "Person", ownerOriginal: "Owner", ownerModifier: "rebuild"))
        try A.migrator([v1, v2]).migrate(databaseAt: db.url)
        #expect(try db.rows("SELECT id, owner_id FROM Pet ORDER BY id") == [["1", "1"], ["2", "99"], ["3", "2"]])
        #expect(try db.recordedVersion() == "2.0.0")
    }

    @Test func anOldOrphanIsToleratedWhenItsTableIsRenamedAndRebuilt() throws {
        let (db, v1) = try Self.populated()
        let v2 = A.schema(2, Self.owners(pet: "Animal", petOriginal: "Pet", petModifier: "rebuild"))
        try A.migrator([v1, v2]).migrate(databaseAt: db.url)
        #expect(try db.rows("SELECT id, owner_id FROM Animal ORDER BY id") == [["1", "1"], ["2", "99"], ["3", "2"]])
    }

    @Test func aNewOrphanIsStillRefusedAfterARename() throws {
        let (db, v1) = try Self.populated()
        let before = try db.bytes()
        let v2 = A.schema(2, Self.owners(pet: "Animal", petOriginal: "Pet", petModifier: "rebuild"))
        let error = try #require(throws: MigrationError.self) {
            try A.migrator(
                [v1, v2], kind: .custom, didMigrate: { try $0.execute("UPDATE Animal SET owner_id = 77 WHERE id = 3") }
            ).migrate(databaseAt: db.url)
        }
        #expect(error.code == .dataViolation)
        #expect(error.details == ["Animal row 3 references a missing row of Owner"])
        #expect(try db.bytes() == before)
    }

    @Test func anAppsVirtualTableWithAnUnknownModuleDoesNotBlockARebuild() throws {
        let (db, v1) = try Self.populated()
        try db.execute(
            """
            PRAGMA writable_schema = ON;
            INSERT INTO sqlite_schema (type, name, tbl_name, rootpage, sql) VALUES ('table', 'search', 'search', 0, 'CREATE VIRTUAL TABLE search USING app_only_module(body)');
            PRAGMA writable_schema = OFF;
            """)
        let v2 = A.schema(2, Self.owners(ownerModifier: "rebuild", petModifier: "rebuild"))
        try A.migrator([v1, v2]).migrate(databaseAt: db.url)
        #expect(try db.rows("SELECT name FROM sqlite_schema WHERE name = 'search'") == [["'search'"]])
        #expect(try db.rows("SELECT id, owner_id FROM Pet ORDER BY id") == [["1", "1"], ["2", "99"], ["3", "2"]])
    }
}

extension ForeignKeyHistoryTests {
    @Test(arguments: [false, true])
    func anAppsVirtualTableDoesNotBlockACustomStage(borrowed: Bool) throws {
        let (db, v1) = try Self.populated()
        try db.execute(
            """
            PRAGMA writable_schema = ON;
            INSERT INTO sqlite_schema (type, name, tbl_name, rootpage, sql) VALUES ('table', 'search', 'search', 0, 'CREATE VIRTUAL TABLE search USING app_only_module(body)');
            PRAGMA writable_schema = OFF;
            """)
        let v2 = A.schema(2, Self.owners(ownerModifier: "rebuild"))
        let migrator = try A.migrator(
            [v1, v2], kind: .custom, didMigrate: { try $0.execute("UPDATE Owner SET name = upper(name)") })
        if borrowed {
            let app = try db.connect()
            try migrator.migrate(connection: app.handle)
        } else {
            try migrator.migrate(databaseAt: db.url)
        }
        #expect(try db.rows("SELECT name FROM Owner ORDER BY id") == [["'ADA'"], ["'ALAN'"]])
    }
}

extension ForeignKeyHistoryTests {
    /// A rename through a temporary name (as a permutation of names needs) is followed too.
    @Test func oldViolationsAreNamedAfterEveryRenameOfTheStage() throws {
        let (db, _) = try Self.populated()
        let stage = PlannedStage(
            source: Schema(version: Schema.Version(1, 0, 0), entities: []),
            target: Schema(version: Schema.Version(2, 0, 0), entities: []), kind: .lightweight,
            steps: [
                MigrationStep(action: .renameTable(from: "Pet", to: "_tmp_Pet")),
                MigrationStep(action: .renameTable(from: "Owner", to: "Person")),
                MigrationStep(action: .renameTable(from: "_tmp_Pet", to: "Animal")),
            ])
        let connection = try db.connect()
        try connection.execute("BEGIN")
        let violations = try ToleratedViolations.record(before: stage, in: ["Animal", "Person"], db: connection)
        #expect(try violations.recorded() == [ForeignKeyGuard.Violation(table: "Animal", rowid: 2, parent: "Person")])
    }
}
