import Foundation
@_spi(MigrateCommand) import SchemaMigrations

/// JSON written by the command: objects assembled from the library's reports and the command's
/// own keys, written in the reports' canonical pretty form.
enum JSONOutput {
    /// `value` as pretty JSON with sorted keys, ending with a newline.
    static func string(_ value: Any) -> String { CommandJSON.text(value) }

    /// A JSON object written by the library (a report), to add keys to.
    static func object(parsing json: String) -> [String: Any] { CommandJSON.object(parsing: json) }

    /// A version, or JSON null.
    static func version(_ version: Schema.Version?) -> Any { version.map(\.description) ?? NSNull() }

    /// An error as an object: `code`, `message`, and the context the error has.
    static func error(_ error: Error) -> [String: Any] {
        guard let error = error as? MigrationError else { return ["code": "error", "message": "\(error)"] }
        var object: [String: Any] = ["code": error.code.rawValue, "message": error.message, "details": error.details]
        object["entity"] = error.entity
        object["property"] = error.property
        object["version"] = error.version?.description
        object["remedy"] = error.remedy
        object["sqlite"] = error.sqliteError?.description
        return object
    }

    /// A stage with its steps, as a migration ran it.
    static func stage(_ stage: PlannedStage) -> [String: Any] {
        ["from": stage.from.description, "to": stage.to.description, "kind": stage.kind.rawValue,
         "steps": stage.allSteps.map { step -> [String: Any] in
             ["op": step.op.rawValue, "table": step.table, "summary": step.summary, "sql": step.sql,
              "rewritesRows": step.rewritesRows, "destructive": step.destructive]
         }]
    }
}
