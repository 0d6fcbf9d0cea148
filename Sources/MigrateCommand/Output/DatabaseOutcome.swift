import SchemaMigrations

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What a subcommand did to one database: its exit status and its result in each form the
/// command prints (full text, one line of a fleet's summary table, a JSON object).
struct DatabaseOutcome {
    var database: String
    var status: MigrateExitCode
    /// The result for a person, printed to standard output.
    var text: String
    /// One line for a fleet's summary table.
    var summary: String
    /// The result as a JSON object (`database` and `exitStatus` are added when printed).
    var json: [String: Any]
    /// A message for standard error (the error, or why a result is refused).
    var message: String? = nil
    /// The backup kept, for the fleet's summary.
    var backup: String? = nil
    /// How long the database took, start to end, in seconds (set by ``FleetRunner``).
    var duration: TimeInterval? = nil
}

extension DatabaseOutcome {
    /// The outcome of an error: its status by ``MigrateExitCode/init(forAny:)``, its description on standard error.
    init(database: String, error: Error) {
        let status = MigrateExitCode(forAny: error)
        let message = (error as? MigrationError)?.message ?? "\(error)"
        self.init(
            database: database, status: status, text: "", summary: "\(status): \(message)",
            json: ["error": JSONOutput.error(error)], message: "\(error)")
    }

    /// The JSON object with the keys every outcome carries.
    var jsonObject: [String: Any] {
        var object = json
        object["database"] = database
        object["exitStatus"] = Int(status.rawValue)
        if let duration, object["durationMs"] == nil { object["durationMs"] = (duration * 1_000_000).rounded() / 1000 }
        return object
    }

    /// The outcome for a path where there is no file.
    static func missing(_ url: URL) -> DatabaseOutcome {
        DatabaseOutcome(
            database: url.path,
            error: MigrationError(
                .notADatabase, "there is no database at '\(url.path)'",
                remedy: "check the path; to create a new database with the latest schema, run apply with --create"))
    }
}
