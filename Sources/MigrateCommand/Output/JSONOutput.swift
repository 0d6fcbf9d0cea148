import SchemaMigrations

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// JSON written by the command: objects assembled from the library's reports and the command's
/// own keys, written in the reports' canonical pretty form.
enum JSONOutput {
    /// `value` as pretty JSON with sorted keys, ending with a newline.
    static func string(_ value: Any) -> String { CommandJSON.text(value) }

    /// A JSON object written by the library (a report), to add keys to.
    static func object(parsing json: String) -> [String: Any] { CommandJSON.object(parsing: json) }

    /// A version, or JSON null.
    static func version(_ version: Schema.Version?) -> Any { version.map(\.description) ?? JSONNull() }

    /// An error as an object: `code`, `message`, `remedy` and `cause` (null when there is none:
    /// the keys are always there), and the context the error has (`entity`, `property`, `column`
    /// when it is not the property's name, `version`, `details`, `sqlite`). The cause is what lies underneath: the error a custom
    /// stage's code threw, or SQLite's.
    static func error(_ error: Error) -> [String: Any] {
        guard let error = error as? MigrationError else {
            return ["code": "error", "message": "\(error)", "remedy": JSONNull(), "cause": JSONNull()]
        }
        var object: [String: Any] = [
            "code": error.code.rawValue, "message": error.message, "details": error.details,
            "remedy": error.remedy ?? JSONNull(),
            "cause": error.causeDescription ?? error.sqliteError?.description ?? JSONNull(),
        ]
        object["entity"] = error.entity
        object["property"] = error.property
        object["column"] = error.column
        object["version"] = error.version?.description
        object["sqlite"] = error.sqliteError.map {
            [
                "code": Int($0.resultCode.rawValue), "name": $0.resultCode.description, "message": $0.message,
                "sql": $0.sql ?? JSONNull(),
            ] as [String: Any]
        }
        return object
    }

    /// A stage with its steps, as a migration ran it.
    static func stage(_ stage: PlannedStage) -> [String: Any] {
        [
            "from": stage.from.description, "to": stage.to.description, "kind": stage.header.kindName,
            "steps": stage.allSteps.map { step -> [String: Any] in
                [
                    "op": step.op.rawValue, "table": step.table, "summary": step.summary, "sql": step.sql,
                    "rewritesRows": step.rewritesRows, "destructive": step.destructive,
                ]
            },
        ]
    }
}
