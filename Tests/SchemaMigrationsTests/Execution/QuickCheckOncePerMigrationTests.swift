import Foundation
import SampleTripsPlan
import Testing

@testable import SchemaMigrations

/// `PRAGMA quick_check` reads every page of what it checks: a migration of several stages checks
/// each table once, not again before every stage that reads it.
@Suite struct QuickCheckOncePerMigrationTests {
    typealias A = PlanBuilder

    @Test(
        "SampleTrips V1 → V3: Trip, checked while the custom stage's code first touches it, is not checked again before V3's index"
    )
    func eachTableOnce() throws {
        let db = TemporaryDatabase()
        try SampleTripsFixture.createV1(at: db.url, trips: 200)
        let connection = try db.connect()
        let recorder = StatementRecorder()
        connection.startRecording(into: recorder)
        let result = try Migrator(plan: TripsMigrationPlan.self).migrate(using: connection)
        connection.stopRecording()
        #expect(result.toVersion == TripsSchemaV3.versionIdentifier)
        let checks = recorder.entries.compactMap { entry -> String? in
            guard case .statement(let sql, _) = entry, sql.hasPrefix("PRAGMA quick_check") else { return nil }
            return sql
        }
        #expect(checks.filter { $0 == "PRAGMA quick_check('Trip')" }.count == 1, "\(checks)")
        #expect(
            checks.filter { $0 != "PRAGMA quick_check('sqlite_schema')" }.count
                == Set(checks.filter { $0 != "PRAGMA quick_check('sqlite_schema')" }).count, "\(checks)")
        #expect(try db.scalar("SELECT count(*) FROM Trip") == .integer(150))
    }

    @Test("A table renamed onto a checked table's name is checked before a later stage reads it")
    func aNameTakenOverIsCheckedAgain() throws {
        // V1: Person and Pet. Stage 1 (custom) touches Person, then renames Person → Owner and Pet → Person
        // (a swap through a temporary name). Stage 2 indexes the new Person, which holds Pet's rows: checked.
        let name = [A.attribute("name", .string, default: "''")]
        let v1 = A.schema(
            1, [Schema.Entity(name: "Person", attributes: name), Schema.Entity(name: "Pet", attributes: name)])
        let v2 = A.schema(
            2,
            [
                Schema.Entity(name: "Owner", originalName: "Person", attributes: name),
                Schema.Entity(name: "Person", originalName: "Pet", attributes: name),
            ])
        let v3 = A.schema(
            3,
            [
                Schema.Entity(name: "Owner", attributes: name),
                Schema.Entity(name: "Person", attributes: name, indexes: [Schema.Index(["name"])]),
            ])
        let db = TemporaryDatabase()
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute("INSERT INTO Person (id, name) VALUES (1, 'Ada'); INSERT INTO Pet (id, name) VALUES (1, 'Tom');")
        let connection = try db.connect()
        let recorder = StatementRecorder()
        connection.startRecording(into: recorder)
        try A.migrator(
            [v1, v2, v3], kind: .custom,
            willMigrate: { context in
                _ = try context.count(context.schema.entities.contains { $0.name == "Owner" } ? "Owner" : "Person")
            }
        ).migrate(using: connection)
        connection.stopRecording()
        let checks = recorder.entries.compactMap { entry -> String? in
            guard case .statement(let sql, _) = entry, sql.hasPrefix("PRAGMA quick_check(") else { return nil }
            return sql
        }
        // Stage 1: Person, as the code first reads it. Stage 2: Person (the former Pet), read by the
        // index, is checked; so is Owner (the former Person), whose name a rename touched.
        #expect(checks.filter { $0 == "PRAGMA quick_check('Person')" }.count == 2, "\(checks)")
        #expect(checks.filter { $0 == "PRAGMA quick_check('Owner')" }.count == 1, "\(checks)")
        #expect(try db.rows("SELECT name FROM Person") == [["'Tom'"]])
    }
}
