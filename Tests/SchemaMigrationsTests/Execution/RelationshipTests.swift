import Foundation
import Testing

@testable import SchemaMigrations

/// Relationships are declared, stored as foreign keys and join tables, and kept intact by every migration.
@Suite struct RelationshipTests {
    typealias A = PlanBuilder

    static func populatedGraphV1() throws -> TemporaryDatabase {
        let db = TemporaryDatabase()
        try Migrator(plan: GraphPlan.self, options: MigrationOptions(targetVersion: Schema.Version(1, 0, 0))).migrate(
            databaseAt: db.url)
        try db.execute(
            """
            INSERT INTO Trip (id, name, destination, start_date, end_date) VALUES (1, 'Paris', 'France', 10, 20), (2, 'Rome', 'Italy', 30, 40), (3, 'Kyoto', 'Japan', 50, 60);
            INSERT INTO BucketListItem (id, title, trip_id) VALUES (1, 'Louvre', 1), (2, 'Eiffel Tower', 1), (3, 'Colosseum', 2), (4, 'Fushimi Inari', 3), (5, 'Orphan idea', NULL);
            INSERT INTO LivingAccommodation (id, address, placeName, trip_id) VALUES (1, 'Rue X', 'Hotel A', 1), (2, 'Via Y', 'Hotel B', 2);
            """)
        return db
    }

    @Test func theDeclaredGraphIsStoredAsForeignKeysWithTheDeleteRules() throws {
        let db = TemporaryDatabase()
        try Migrator(plan: GraphPlan.self).migrate(databaseAt: db.url)
        #expect(
            try db.rows("SELECT \"from\", \"table\", \"to\", on_delete FROM pragma_foreign_key_list('BucketListItem')")
                == [["'trip_id'", "'Trip'", "'id'", "'CASCADE'"]])
        #expect(
            try db.rows("SELECT \"from\", \"table\", on_delete FROM pragma_foreign_key_list('LivingAccommodation')")
                == [["'trip_id'", "'Trip'", "'CASCADE'"]])
        #expect(try db.rows("SELECT count(*) FROM pragma_foreign_key_list('Trip')") == [["0"]])
        #expect(try db.indexes("BucketListItem") == ["(trip_id)"])
        #expect(try db.indexes("LivingAccommodation") == ["UNIQUE (trip_id)"])
    }

    @Test func sampleTripsKeepsEveryChildPointingAtItsTripAndCascadesAsDeclared() throws {
        let db = try Self.populatedGraphV1()
        let result = try Migrator(plan: GraphPlan.self).migrate(databaseAt: db.url)
        #expect(result.stages[0].steps.map(\.op) == [.renameColumn, .renameColumn, .createIndex, .createIndex])
        #expect(try db.indexes("Trip") == ["(name, startDate, endDate)", "UNIQUE (name, startDate, endDate)"])
        #expect(
            try db.rows(
                "SELECT b.title, t.name FROM BucketListItem b LEFT JOIN Trip t ON t.id = b.trip_id ORDER BY b.id") == [
                    ["'Louvre'", "'Paris'"], ["'Eiffel Tower'", "'Paris'"], ["'Colosseum'", "'Rome'"],
                    ["'Fushimi Inari'", "'Kyoto'"], ["'Orphan idea'", "NULL"],
                ])
        #expect(
            try db.rows("SELECT placeName, trip_id FROM LivingAccommodation ORDER BY id") == [
                ["'Hotel A'", "1"], ["'Hotel B'", "2"],
            ])
        let connection = try db.connect()
        try connection.execute("PRAGMA foreign_keys = ON; DELETE FROM Trip WHERE name = 'Paris'")
        #expect(try db.rows("SELECT id FROM BucketListItem ORDER BY id") == [["3"], ["4"], ["5"]])
        #expect(try db.rows("SELECT id FROM LivingAccommodation") == [["2"]])
    }

    static func parentAndChild(rule: Schema.Relationship.DeleteRule, childOptional: Bool = true) -> [Schema.Entity] {
        [
            Schema.Entity(
                name: "Owner", attributes: [A.attribute("name", .string, default: "''")],
                relationships: [
                    Schema.Relationship(
                        name: "pets", destination: "Pet", isToMany: true, deleteRule: rule, inverse: "owner")
                ]),
            Schema.Entity(
                name: "Pet", attributes: [A.attribute("name", .string, default: "''")],
                relationships: [
                    Schema.Relationship(name: "owner", destination: "Owner", isToMany: false, isOptional: childOptional)
                ]),
        ]
    }

    @Test(arguments: Schema.Relationship.DeleteRule.allCases)
    func eachDeleteRuleHoldsAfterAMigration(rule: Schema.Relationship.DeleteRule) throws {
        let db = TemporaryDatabase()
        let v1 = A.schema(1, Self.parentAndChild(rule: rule))
        var v2 = A.schema(2, Self.parentAndChild(rule: rule))
        v2.entities[0].hashModifier = "rebuild the parent"
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute(
            "INSERT INTO Owner (id, name) VALUES (1, 'Ada'), (2, 'Alan'); INSERT INTO Pet (id, name, owner_id) VALUES (1, 'Rex', 1), (2, 'Tom', 1), (3, 'Kit', 2);"
        )
        let result = try A.migrator([v1, v2]).migrate(databaseAt: db.url)
        #expect(result.stages[0].steps.map(\.op) == [.rebuildTable])
        let connection = try db.connect()
        try connection.execute("PRAGMA foreign_keys = ON")
        switch rule {
        case .cascade:
            try connection.execute("DELETE FROM Owner WHERE id = 1")
            #expect(try db.rows("SELECT id, owner_id FROM Pet ORDER BY id") == [["3", "2"]])
        case .nullify:
            try connection.execute("DELETE FROM Owner WHERE id = 1")
            #expect(
                try db.rows("SELECT id, owner_id FROM Pet ORDER BY id") == [
                    ["1", "NULL"], ["2", "NULL"], ["3", "2"],
                ])
        case .deny, .noAction:
            let error = try #require(throws: SQLiteError.self) {
                try connection.execute("DELETE FROM Owner WHERE id = 1")
            }
            // RESTRICT reports SQLITE_CONSTRAINT_TRIGGER, NO ACTION _FOREIGNKEY
            #expect(error.resultCode.primary.rawValue == 19)
            #expect(error.message == "FOREIGN KEY constraint failed")
            #expect(try db.rows("SELECT count(*) FROM Pet") == [["3"]])
        }
    }

    @Test func changingADeleteRuleRebuildsTheChildTable() throws {
        let db = TemporaryDatabase()
        let v1 = A.schema(1, Self.parentAndChild(rule: .nullify))
        let v2 = A.schema(2, Self.parentAndChild(rule: .cascade))
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute("INSERT INTO Owner (id) VALUES (1); INSERT INTO Pet (id, owner_id) VALUES (1, 1);")
        let result = try A.migrator([v1, v2]).migrate(databaseAt: db.url)
        #expect(result.stages[0].steps.map(\.op) == [.rebuildTable])
        #expect(result.stages[0].steps[0].table == "Pet")
        #expect(try db.rows("SELECT on_delete FROM pragma_foreign_key_list('Pet')") == [["'CASCADE'"]])
        #expect(try db.rows("SELECT id, owner_id FROM Pet") == [["1", "1"]])
    }

    @Test func rebuildingAParentWithTenThousandChildrenKeepsEveryChild() throws {
        let db = TemporaryDatabase()
        let v1 = A.schema(1, Self.parentAndChild(rule: .cascade))
        var v2 = A.schema(2, Self.parentAndChild(rule: .cascade))
        v2.entities[0].attributes[0] = A.attribute("name", .string, optional: true)  // NOT NULL dropped: a rebuild
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute(
            """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100) INSERT INTO Owner (id, name) SELECT i, 'owner ' || i FROM n;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10000) INSERT INTO Pet (id, name, owner_id) SELECT i, 'pet ' || i, 1 + i % 100 FROM n;
            """)
        let checksum = "SELECT count(*), sum(id), sum(owner_id), sum(length(name)) FROM Pet"
        let before = try db.rows(checksum)
        let connection = try db.connect()
        // the app's setting: the migrator must switch it off around the rebuild
        try connection.execute("PRAGMA foreign_keys = ON")
        let result = try A.migrator([v1, v2]).migrate(connection: connection.handle)
        #expect(result.stages[0].steps.map(\.op) == [.rebuildTable])
        #expect(result.stages[0].steps[0].table == "Owner")
        #expect(try db.rows(checksum) == before)
        #expect(before == [["10000", "50005000", "505000", "78894"]])
    }

    @Test func renamingAnEntityKeepsTheReferencesToItWithoutARebuild() throws {
        let db = TemporaryDatabase()
        let v1 = A.schema(1, Self.parentAndChild(rule: .cascade))
        var v2entities = Self.parentAndChild(rule: .cascade)
        v2entities[0].name = "Person"
        v2entities[0].originalName = "Owner"
        v2entities[1].relationships[0].destination = "Person"
        let v2 = A.schema(2, v2entities)
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute("INSERT INTO Owner (id) VALUES (1); INSERT INTO Pet (id, owner_id) VALUES (1, 1);")
        let result = try A.migrator([v1, v2]).migrate(databaseAt: db.url)
        #expect(result.stages[0].steps.map(\.op) == [.renameTable])
        #expect(
            try db.rows("SELECT \"table\", on_delete FROM pragma_foreign_key_list('Pet')") == [
                ["'Person'", "'CASCADE'"]
            ])
        #expect(try db.rows("SELECT count(*) FROM pragma_foreign_key_check") == [["0"]])
    }

    @Test func addingAndRemovingARelationship() throws {
        let db = TemporaryDatabase()
        let plain = [
            Schema.Entity(name: "Owner", attributes: [A.attribute("name", .string, default: "''")]),
            Schema.Entity(name: "Pet", attributes: [A.attribute("name", .string, default: "''")]),
        ]
        let v1 = A.schema(1, plain)
        let v2 = A.schema(2, Self.parentAndChild(rule: .cascade))
        var v3entities = plain
        v3entities[0].hashModifier = "3"
        let v3 = A.schema(3, v3entities)
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute("INSERT INTO Owner (id) VALUES (1); INSERT INTO Pet (id) VALUES (1);")
        let added = try A.migrator([v1, v2], name: "default").migrate(databaseAt: db.url)
        #expect(added.stages[0].steps.map(\.op) == [.addColumn, .createIndex])
        #expect(try db.columns("Pet")["owner_id"] == "INTEGER")
        try db.execute("UPDATE Pet SET owner_id = 1")
        let removed = try A.migrator([v1, v2, v3]).migrate(databaseAt: db.url)
        #expect(removed.stages[0].steps.map(\.op) == [.rebuildTable, .rebuildTable])
        #expect(try db.columns("Pet").keys.sorted() == ["id", "name"])
    }

    @Test func renamingARelationshipRenamesItsColumn() throws {
        let db = TemporaryDatabase()
        let v1 = A.schema(1, Self.parentAndChild(rule: .cascade))
        var v2entities = Self.parentAndChild(rule: .cascade)
        v2entities[1].relationships[0].name = "keeper"
        v2entities[1].relationships[0].originalName = "owner"
        v2entities[0].relationships[0].inverse = "keeper"
        let v2 = A.schema(2, v2entities)
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute("INSERT INTO Owner (id) VALUES (1); INSERT INTO Pet (id, owner_id) VALUES (1, 1);")
        let result = try A.migrator([v1, v2]).migrate(databaseAt: db.url)
        #expect(result.stages[0].steps.map(\.op) == [.renameColumn])
        #expect(try db.rows("SELECT id, keeper_id FROM Pet") == [["1", "1"]])
        #expect(try db.indexes("Pet") == ["(keeper_id)"])
    }
}
