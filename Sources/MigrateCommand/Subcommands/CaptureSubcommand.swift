import SchemaMigrations
import SchemaMigrationsTesting

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `capture`: a fixture of a released version, from a database at that version, prepared by the
/// user's SQL (anonymised, trimmed), for `test` to migrate on every later release.
enum CaptureSubcommand {
    static func make(hasSwiftPlan: Bool) -> Subcommand {
        Subcommand(
            name: "capture",
            abstract: "Captures a fixture: a copy of a database at a released version, for `test` to migrate",
            discussion: """
                Copies the database (which must record a version of the plan, without drift) into the \
                fixtures directory as VERSION.sqlite (VERSION-NAME.sqlite with --name), compact, with the \
                plan's metadata. --sql runs a file of SQL on the copy first, in one transaction with foreign \
                keys enforced: anonymise and trim the rows there; it must not change the schema. The database \
                itself is only read. Refused (exit 5, nothing written) for a database of no version of the \
                plan; exit 4 when it drifted or the SQL changed the schema; exit 2 when the fixture exists.
                """,
            options: [
                .value("--database", "PATH", required: true, help: "the database to capture"),
                SharedOptions.plan(hasSwiftPlan: hasSwiftPlan),
                .value("--fixtures", "DIR", required: true, help: "the fixtures directory (created if missing)"),
                .value("--name", "NAME", help: "added to the file name: VERSION-NAME.sqlite"),
                .value("--sql", "FILE", help: "SQL run on the copy before it is written (anonymise, trim)"),
                SharedOptions.format(["text", "json"]), SharedOptions.busyTimeout,
            ],
            run: run)
    }

    static func run(_ invocation: Invocation) throws -> MigrateExitCode {
        let arguments = invocation.arguments
        var sql: String?
        if let path = arguments.value("--sql") {
            guard let data = SystemCalls.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
                throw UsageError(
                    "\(arguments.label("--sql")) '\(path)' cannot be read as a UTF-8 text file",
                    subcommand: arguments.subcommand)
            }
            sql = text
        }
        let tester = MigrationTester(migrator: try invocation.migrator())
        let fixture = try tester.captureFixture(
            of: URL(fileURLWithPath: arguments.value("--database")!),
            into: URL(fileURLWithPath: arguments.value("--fixtures")!), name: arguments.value("--name"),
            preparing: sql)
        let version = try tester.migrator.currentVersion(databaseAt: fixture)
        if invocation.format(default: "text") == "json" {
            invocation.console.output(
                JSONOutput.string(["fixture": fixture.path, "version": JSONOutput.version(version), "exitStatus": 0]))
        } else {
            invocation.console.output("captured \(fixture.path) at version \(version.map(\.description) ?? "?")\n")
        }
        return .success
    }
}
