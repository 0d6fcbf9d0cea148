import SchemaMigrations

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// How the command reports an error that ends it before any database has an outcome (a usage
/// error, a plan that cannot be loaded): on standard error for a person, and, with
/// `--format json`, as one JSON object on standard output for a program:
///
/// ```json
/// {"error": {"cause": null, "code": "usage", "message": "unknown option '--databse' for 'plan'",
///            "remedy": "did you mean '--database'?"}, "exitStatus": 2}
/// ```
struct CommandErrorOutput {
    let console: Console
    let json: Bool

    /// Prints a usage error with the usage it concerns; returns status 2.
    func usage(_ error: UsageError, usage: String) -> MigrateExitCode {
        console.error("\(error)\n\n" + usage)
        if json {
            console.output(
                JSONOutput.string(
                    [
                        "exitStatus": Int(MigrateExitCode.usageError.rawValue),
                        "error": [
                            "code": "usage", "message": error.message, "remedy": error.remedy as Any? ?? JSONNull(),
                            "cause": JSONNull(),
                        ],
                    ] as [String: Any]))
        }
        return .usageError
    }

    /// Prints an error that ends the command with `status`.
    func failure(_ status: MigrateExitCode, message: String, error: Error?) -> MigrateExitCode {
        console.error(message.hasSuffix("\n") ? message : message + "\n")
        if json {
            let object =
                error.map(JSONOutput.error) ?? [
                    "code": "error", "message": message, "remedy": JSONNull(), "cause": JSONNull(),
                ]
            console.output(JSONOutput.string(["exitStatus": Int(status.rawValue), "error": object] as [String: Any]))
        }
        return status
    }
}
