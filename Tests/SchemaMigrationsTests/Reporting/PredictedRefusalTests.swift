import Foundation
import Testing

@testable import SchemaMigrations

/// The dry run predicts the refusals of stages after the first from today's data, as `apply`
/// would meet them, and says which depend on what custom code runs first.
@Suite struct PredictedRefusalTests {
    typealias A = PlanBuilder

    static let v1 = A.schema(1, [PersonFixture.person])
    static let v2 = A.schema(
        2, [PersonFixture.person { $0.attributes.append(A.attribute("nickname", .string, optional: true)) }])
    static let v3 = A.schema(
        3,
        [
            PersonFixture.person {
                $0.attributes.append(A.attribute("nickname", .string, optional: true))
                $0.attributes.append(A.attribute("rating", .integer))  // non-optional, no default
            }
        ])

    static func migrator(firstStage kind: StageKind) throws -> Migrator {
        let nothing: @Sendable (MigrationContext) throws -> Void = { _ in }
        let stages = [
            PlannedStage(from: v1.version, to: v2.version, kind: kind, willMigrate: kind == .custom ? nothing : nil),
            PlannedStage(from: v2.version, to: v3.version, kind: .lightweight),
        ]
        return Migrator(resolvedPlan: try ResolvedPlan(name: "default", schemas: [v1, v2, v3], stages: stages))
    }

    @Test(arguments: [StageKind.custom, .lightweight])
    func aLaterStagesRefusalIsPredictedAsApplyMeetsIt(firstStage: StageKind) throws {
        let db = try DryRunReportTests.populated()
        let before = try db.bytes()
        let migrator = try Self.migrator(firstStage: firstStage)
        let report = try migrator.plan(databaseAt: db.url)
        let refusal = try #require(report.refusals.first)
        #expect(report.refusals.count == 1)
        #expect(refusal.code == .unsupportedChange)
        #expect(
            refusal.message
                == "cannot add non-optional attribute 'Person.rating' without a default value to a table with 3 rows")
        #expect(
            refusal.details == [
                firstStage == .custom
                    ? "predicted from the data as it is now: depends on what the custom code of the stage 1.0.0 → 2.0.0 does first"
                    : "predicted from the data as it is now (the stages before 2.0.0 → 3.0.0 are lightweight)"
            ])
        let applied = try #require(throws: MigrationError.self) { try migrator.migrate(databaseAt: db.url) }
        #expect(applied.code == refusal.code && applied.message == refusal.message)
        #expect(try db.bytes() == before)
    }

    @Test func anEmptyTableIsNotRefused() throws {
        let db = try DryRunReportTests.populated(rows: "")
        #expect(try Self.migrator(firstStage: .custom).plan(databaseAt: db.url).refusals.isEmpty)
    }
}
