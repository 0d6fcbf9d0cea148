import Foundation
import Testing

@testable import SchemaMigrations

/// `transactionScope = .perStage`: each stage commits on its own. A failure rolls back its own
/// stage, and the error says so and names the version the database stays at, rather than
/// claiming everything was rolled back.
@Suite struct PerStageTransactionTests {
    typealias A = PlanBuilder

    @Test func aFailingSecondStageKeepsTheFirstAndSaysWhere() throws {
        let db = TemporaryDatabase()
        let v1 = A.schema(1, [PersonFixture.person])
        let v2 = A.schema(
            2, [PersonFixture.person { $0.attributes.append(A.attribute("nickname", .string, optional: true)) }])
        let v3 = A.schema(
            3,
            [
                PersonFixture.person {
                    $0.attributes.append(A.attribute("nickname", .string, optional: true))
                    $0.attributes.append(A.attribute("title", .string, optional: true))
                }
            ])
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute(PersonFixture.rows)
        var options = MigrationOptions()
        options.transactionScope = .perStage
        let migrator = try A.migrator(
            [v1, v2, v3], kind: .custom,
            didMigrate: { context in
                if context.stage.to == Schema.Version(3, 0, 0) { throw CancellationError() }
                try context.execute("UPDATE Person SET nickname = 'n'")
            }, options: options)

        let error = try #require(throws: MigrationError.self) { try migrator.migrate(databaseAt: db.url) }
        #expect(error.code == .customStageFailed)
        #expect(error.message == "didMigrate of the stage 2.0.0 → 3.0.0 threw; this stage was rolled back")
        #expect(error.details == ["the stages before it were committed: the database stays at 2.0.0"])
        #expect(try db.recordedVersion() == "2.0.0")
        #expect(try db.rows("SELECT count(*), min(nickname) FROM Person") == [["3", "'n'"]])
    }

    @Test func everyStageRecordedWhenAllSucceed() throws {
        let db = TemporaryDatabase()
        try Migrator(plan: CustomStageErrorTests.FirstVersionPlan.self).migrate(databaseAt: db.url)
        var options = MigrationOptions()
        options.transactionScope = .perStage
        let result = try Migrator(plan: TripsPlan.self, options: options).migrate(databaseAt: db.url)
        #expect(result.fromVersion == Schema.Version(1, 0, 0) && result.toVersion == Schema.Version(3, 0, 0))
        #expect(result.stages.map(\.to) == [Schema.Version(2, 0, 0), Schema.Version(3, 0, 0)])
        #expect(
            try Migrator.history(databaseAt: db.url, plan: "default").map(\.kind) == [
                "create", "custom", "lightweight",
            ])
    }
}
