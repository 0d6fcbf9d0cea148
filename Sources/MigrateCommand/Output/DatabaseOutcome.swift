import Foundation
import SchemaMigrations

/// What a subcommand did to one database: its exit status and its result in each form the
/// command prints (full text, one line of a fleet's summary table, a JSON object).
struct DatabaseOutcome {
    var database: String
    var status: ExitCode
    /// The result for a person, printed to standard output.
    var text: String
    /// One line for a fleet's summary table.
    var summary: String
    /// The result as a JSON object (`database` and `exitStatus` are added when printed).
    var json: [String: Any]
    /// A message for standard error (the error, or why a result is refused).
    var message: String? = nil
}

extension DatabaseOutcome {
    /// The outcome of an error: its status by ``ExitCode/init(forAny:)``, its description on standard error.
    init(database: String, error: Error) {
        let status = ExitCode(forAny: error)
        let message = (error as? MigrationError)?.message ?? "\(error)"
        self.init(database: database, status: status, text: "", summary: "\(status): \(message)",
                  json: ["error": JSONOutput.error(error)], message: "\(error)")
    }

    /// The JSON object with the keys every outcome carries.
    var jsonObject: [String: Any] {
        var object = json
        object["database"] = database
        object["exitStatus"] = Int(status.rawValue)
        return object
    }

    /// Runs `body` on each database, one after the other, each on its own: an error or a missing
    /// file makes that database's outcome and does not stop the others.
    static func each(_ databases: [URL], _ body: (URL) throws -> DatabaseOutcome) -> [DatabaseOutcome] {
        databases.map { url in
            guard FileManager.default.fileExists(atPath: url.path) else {
                return DatabaseOutcome(database: url.path, error: MigrationError(
                    .notADatabase, "there is no database at '\(url.path)'",
                    remedy: "check the path; to create a new database with the latest schema, create an empty file there first"))
            }
            do {
                return try body(url)
            } catch {
                return DatabaseOutcome(database: url.path, error: error)
            }
        }
    }
}
