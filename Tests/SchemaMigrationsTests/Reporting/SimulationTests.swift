import Foundation
import Testing

@testable import SchemaMigrations

/// `simulate`: the plan applied to a temporary copy, timed step by step; the database only read.
@Suite struct SimulationTests {
    typealias A = PlanBuilder

    @Test func aSucceedingSimulationTimesEveryStepAndLeavesTheDatabaseAsItWas() throws {
        let db = try SwiftDataExampleTests.populatedV1()
        let before = try db.bytes()
        let simulation = try Migrator(plan: TripsPlan.self).simulate(databaseAt: db.url)
        #expect(simulation.succeeded)
        #expect(simulation.result?.toVersion == Schema.Version(3, 0, 0))
        #expect(
            simulation.steps.map(\.summary) == [
                "willMigrate runs", "Create unique index Trip_name_unique on Trip(name)",
                "Rename column Trip.start_date to startDate",
                "Rename column Trip.end_date to endDate", "Add column Trip.notes TEXT",
            ])
        #expect(simulation.steps.allSatisfy { $0.duration >= 0 })
        #expect(
            simulation.description.contains(
                "simulation: the migration succeeds on a copy of today's data: 1.0.0 → 3.0.0 in "))
        #expect(try db.bytes() == before)
        #expect(try db.recordedVersion() == "1.0.0")
    }

    @Test func aDataDependentFailureIsReportedNotThrownAndTheDatabaseIsUntouched() throws {
        let db = TemporaryDatabase()
        let v1 = A.schema(1, [PersonFixture.person])
        let v2 = A.schema(2, [PersonFixture.person { $0.attributes.append(A.attribute("rating", .integer)) }])
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute(PersonFixture.rows)
        let before = try db.bytes()
        // didMigrate fills rating from age, which is NULL for one row: only running it shows that.
        let simulation = try A.migrator(
            [v1, v2], kind: .custom,
            didMigrate: { context in
                try context.execute("UPDATE Person SET rating = age")
            }
        ).simulate(databaseAt: db.url)
        #expect(!simulation.succeeded)
        #expect(simulation.error?.code == .dataViolation)
        #expect(simulation.error?.details == ["rows with NULL (id): 2"])
        #expect(simulation.description.contains("simulation: the migration FAILS on a copy of today's data"))
        #expect(try db.bytes() == before)
    }
}
