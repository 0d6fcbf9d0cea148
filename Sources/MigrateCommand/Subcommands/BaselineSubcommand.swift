import SchemaMigrations

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `baseline`: records that an unversioned database is at a version, printing the differences it
/// accepts; refuses (exit 5, the file unchanged) when a declared table or column is missing or
/// its type disagrees.
enum BaselineSubcommand {
    static func make(hasSwiftPlan: Bool) -> Subcommand {
        Subcommand(
            name: "baseline",
            abstract: "Records that an unversioned database is at a version, listing the differences it accepts",
            discussion: """
                For a database that existed before its plan and does not match any version exactly. Only the \
                metadata is written; no table changes. Accepted differences (extra columns and unique \
                indexes, nullability, foreign keys) are kept as the file has them and tolerated by \
                verify and drift checks from then on. Refused (exit 5, nothing written) when a declared \
                table, column or index is missing, a column's type disagrees, or the database already records a \
                version.
                """,
            options: [
                .value("--database", "PATH", required: true, help: "the database file"),
                SharedOptions.plan(hasSwiftPlan: hasSwiftPlan),
                .value("--version", "VERSION", required: true, help: "the declared version the database is at"),
                SharedOptions.format(["text", "json"]), SharedOptions.busyTimeout,
            ],
            run: run)
    }

    static func run(_ invocation: Invocation) throws -> MigrateExitCode {
        let arguments = invocation.arguments
        guard let version = try arguments.version("--version") else {
            throw UsageError("missing --version VERSION", subcommand: arguments.subcommand)
        }
        let migrator = try invocation.migrator()
        let result = try migrator.baseline(
            databaseAt: URL(fileURLWithPath: arguments.value("--database")!), version: version)
        if invocation.format(default: "text") == "json" {
            invocation.console.output(
                JSONOutput.string([
                    "database": result.database, "version": result.version.description,
                    "acceptedDifferences": result.acceptedDifferences, "exitStatus": 0,
                ]))
            return .success
        }
        invocation.console.output(result.description + "\n")
        return .success
    }
}
