import Foundation
import Testing

@testable import SchemaMigrations

/// Every result prints as a readable summary, in the words `migrate` prints for it; every stage a
/// result lists carries the one stage header; a step's cost is classified once, on the step.
@Suite struct ResultDescriptionTests {
    static let v1 = Schema.Version(1, 0, 0), v2 = Schema.Version(2, 0, 0), v3 = Schema.Version(3, 0, 0)

    @Test func aMigrationResultPrintsWhatApplyPrints() throws {
        let db = TemporaryDatabase()
        try Migrator(plan: TripsPlan.self, options: MigrationOptions(targetVersion: Self.v2)).migrate(
            databaseAt: db.url)
        let result = try Migrator(plan: TripsPlan.self).migrate(databaseAt: db.url)
        let lines = "\(result)".split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(result)")
        #expect(lines.first?.hasPrefix("migrated 2.0.0 → 3.0.0 in ") == true && lines.first?.hasSuffix(" ms") == true)
        #expect(lines.last?.hasPrefix("  stage 2.0.0 → 3.0.0 (lightweight): ") == true)

        let again = try Migrator(plan: TripsPlan.self).migrate(databaseAt: db.url)
        #expect("\(again)" == "up to date at 3.0.0: nothing written")
    }

    @Test func aCreatedDatabasesResultNamesTheVersionCreated() throws {
        let db = TemporaryDatabase()
        let result = try Migrator(plan: TripsPlan.self).migrate(databaseAt: db.url)
        let lines = "\(result)".split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("created version 3.0.0 in an empty database in ") == true)
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("  create 3.0.0: Create table ") }, "\(result)")
    }

    @Test func aStatusPrintsWhatStatusPrints() throws {
        let db = TemporaryDatabase()
        try Migrator(plan: TripsPlan.self, options: MigrationOptions(targetVersion: Self.v1)).migrate(
            databaseAt: db.url)
        let status = try Migrator(plan: TripsPlan.self).status(databaseAt: db.url)
        #expect(
            "\(status)" == """
                database: \(db.url.path)
                current version: 1.0.0
                target version:  3.0.0
                pending: 2 stages
                  1.0.0 → 2.0.0 (custom)
                  2.0.0 → 3.0.0 (lightweight)
                """)
        try Migrator(plan: TripsPlan.self).migrate(databaseAt: db.url)
        let current = try Migrator(plan: TripsPlan.self).status(databaseAt: db.url)
        #expect("\(current)".hasSuffix("target version:  3.0.0\nup to date: nothing to do"))
    }

    @Test func aBaselinePrintsTheVersionItRecorded() {
        let result = BaselineResult(database: "legacy.sqlite", version: Self.v1, acceptedDifferences: [])
        #expect(
            "\(result)"
                == "database: legacy.sqlite\nrecorded version 1.0.0 (baseline)\nno differences: the database matches version 1.0.0"
        )
    }

    @Test func theStatusTheDryRunTheLintAndThePlanDirectoryListTheSameStages() throws {
        let db = TemporaryDatabase()
        try Migrator(plan: TripsPlan.self, options: MigrationOptions(targetVersion: Self.v1)).migrate(
            databaseAt: db.url)
        let migrator = Migrator(plan: TripsPlan.self)
        let expected = [
            StageHeader(from: Self.v1, to: Self.v2, kind: .custom),
            StageHeader(from: Self.v2, to: Self.v3, kind: .lightweight),
        ]
        #expect(try migrator.status(databaseAt: db.url).pendingStages == expected)
        #expect(try migrator.plan(databaseAt: db.url).stages.map(\.header) == expected)
        #expect(try migrator.lint().stages.map(\.header) == expected)
        #expect(try PlanDirectory(plan: TripsPlan.self).stages == expected)
        #expect(try migrator.migrate(databaseAt: db.url).stages.map(\.header) == expected)
    }

    @Test func theLintAndTheDryRunReadTheCostOfTheStepItself() throws {
        let db = TemporaryDatabase()
        try Migrator(plan: TripsPlan.self, options: MigrationOptions(targetVersion: Self.v2)).migrate(
            databaseAt: db.url)
        let migrator = Migrator(plan: TripsPlan.self)
        let linted = try migrator.lint().stages.flatMap(\.steps)
        #expect(
            !linted.isEmpty && linted.allSatisfy { $0.cost == $0.step.cost && $0.classes.last == $0.step.cost.name })
        let reported = try migrator.plan(databaseAt: db.url).stages.flatMap(\.steps)
        #expect(
            !reported.isEmpty
                && reported.allSatisfy { $0.costDescription == $0.step.cost.description(rows: $0.rowsAffected) })
        #expect(
            Set(MigrationStep.Cost.allCases.map(\.name)) == ["rebuild", "scan", "O(1)"], "the lint's three classes")
    }
}
