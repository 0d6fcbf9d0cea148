#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension MigrationReport {
    /// The report as JSON with the keys MIGRATIONS.md documents: `database`, `currentVersion`,
    /// `targetVersion`, `stages` (each with `from`, `to`, `kind`, `steps`; each step with `op`,
    /// `table`, `sql`, `rewritesRows`, `destructive`, and `impact` where measured: `rows`,
    /// `nulls`, `duplicates`, `nonEmptyValues`, and `replacedValues` for columns made generated), `warnings` (destructive steps first) and `refusals`;
    /// with ``MigrationOptions/online``, `online`: `chunkTargetMs` and `stages` (each with `from`, `to`, `runsOnline`,
    /// `tables`, `offlineReasons`, `cutOver`, and `rows` by table where measured).
    ///
    /// ```swift
    /// let object = try JSONSerialization.jsonObject(with: Data(report.json().utf8)) as! [String: Any]
    /// ```
    public func json() throws -> String {
        try CanonicalJSON.encodePretty(JSONReport(self)) + "\n"
    }
}

private struct JSONReport: Encodable {
    struct Impact: Encodable {
        struct ColumnCount: Encodable { var column: String; var count: Int64 }
        struct Nulls: Encodable { var column: String; var count: Int64; var defaultValue: String? }
        struct SharedValue: Encodable { var value: String; var rows: Int64 }
        struct Duplicates: Encodable { var columns: [String]; var total: Int64; var values: [SharedValue] }
        var rows: Int64?
        var nulls: [Nulls]
        var duplicates: [Duplicates]
        var nonEmptyValues: [ColumnCount]
        var replacedValues: [ColumnCount]?

        init(_ impact: MigrationReport.Impact) {
            rows = impact.rows
            nulls = impact.nulls.map { Nulls(column: $0.column, count: $0.count, defaultValue: $0.defaultValue) }
            duplicates = impact.duplicates.map { duplicates in
                Duplicates(columns: duplicates.columns, total: duplicates.total, values: duplicates.values.map { SharedValue(value: $0.value, rows: $0.rows) })
            }
            nonEmptyValues = impact.nonEmptyValues.map { ColumnCount(column: $0.column, count: $0.count) }
            replacedValues = impact.replacedValues.isEmpty ? nil : impact.replacedValues.map { ColumnCount(column: $0.column, count: $0.count) }
        }
    }
    struct Step: Encodable {
        var op: String
        var table: String
        var summary: String
        var sql: [String]
        var rewritesRows: Bool
        var destructive: Bool
        var impact: Impact?
        var carriedOver: [String]?
        var removes: [String]?
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
    var warnings: [String]
    var refusals: [Refusal]
    var online: Online?

    struct Online: Encodable {
        struct Stage: Encodable {
            var from: String
            var to: String
            var runsOnline: Bool
            var tables: [String]
            var offlineReasons: [String]
            var cutOver: [String]
            var rows: [String: Int64]
        }
        var chunkTargetMs: Double
        var stages: [Stage]
    }

    init(_ report: MigrationReport) {
        database = report.database
        currentVersion = report.currentVersion?.description
        targetVersion = report.targetVersion.description
        unversioned = report.unversioned
        upToDate = report.isUpToDate
        stages = report.stages.map { stage in
            Stage(from: stage.from?.description, to: stage.to.description, kind: stage.kind.rawValue, steps: stage.steps.map {
                Step(op: $0.step.op.rawValue, table: $0.step.table, summary: $0.step.summary, sql: $0.sql,
                     rewritesRows: $0.step.rewritesRows, destructive: $0.step.destructive, impact: $0.impact.map(Impact.init),
                     carriedOver: $0.carriedOver.isEmpty ? nil : $0.carriedOver, removes: $0.removes.isEmpty ? nil : $0.removes)
            })
        }
        warnings = report.warnings
        online = report.online.map { online in
            Online(chunkTargetMs: online.chunkTargetMilliseconds, stages: online.stages.map {
                Online.Stage(from: $0.from.description, to: $0.to.description, runsOnline: $0.runsOnline, tables: $0.tables,
                             offlineReasons: $0.offlineReasons, cutOver: $0.cutOver, rows: $0.rows)
            })
        }
        refusals = report.refusals.map {
            Refusal(code: $0.code.rawValue, message: $0.message, entity: $0.entity, property: $0.property, remedy: $0.remedy, details: $0.details)
        }
    }
}
