import Foundation

extension MigrationReport {
    /// The report as JSON with the keys DESIGN.md promises: `database`, `currentVersion`,
    /// `targetVersion`, `stages` (each with `from`, `to`, `kind`, `steps`; each step with `op`,
    /// `table`, `sql`, `rewritesRows`, `destructive`, and `impact` where measured), and `refusals`.
    public func json() throws -> String {
        try CanonicalJSON.encodePretty(JSONReport(self)) + "\n"
    }
}

private struct JSONReport: Encodable {
    struct Impact: Encodable { var rows: Int64 }
    struct Step: Encodable {
        var op: String
        var table: String
        var summary: String
        var sql: [String]
        var rewritesRows: Bool
        var destructive: Bool
        var impact: Impact?
    }
    struct Stage: Encodable {
        var from: String?
        var to: String
        var kind: String
        var steps: [Step]
    }
    struct Refusal: Encodable {
        var code: String
        var message: String
        var entity: String?
        var property: String?
        var remedy: String?
        var details: [String]
    }

    var database: String
    var currentVersion: String?
    var targetVersion: String
    var unversioned: Bool
    var upToDate: Bool
    var stages: [Stage]
    var refusals: [Refusal]

    init(_ report: MigrationReport) {
        database = report.database
        currentVersion = report.currentVersion?.description
        targetVersion = report.targetVersion.description
        unversioned = report.unversioned
        upToDate = report.isUpToDate
        stages = report.stages.map { stage in
            Stage(from: stage.from?.description, to: stage.to.description, kind: stage.kind.rawValue, steps: stage.steps.map {
                Step(op: $0.step.op.rawValue, table: $0.step.table, summary: $0.step.summary, sql: $0.sql,
                     rewritesRows: $0.step.rewritesRows, destructive: $0.step.destructive, impact: $0.rowsAffected.map { Impact(rows: $0) })
            })
        }
        refusals = report.refusals.map {
            Refusal(code: $0.code.rawValue, message: $0.message, entity: $0.entity, property: $0.property, remedy: $0.remedy, details: $0.details)
        }
    }
}
