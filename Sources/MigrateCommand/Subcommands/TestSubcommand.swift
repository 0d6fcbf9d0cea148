import SchemaMigrations
import SchemaMigrationsTesting

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `test`: every fixture of a directory migrated (a copy) to the latest version and validated
/// against a database created there; a line per fixture, and the worst status as the exit status.
enum TestSubcommand {
    static func make(hasSwiftPlan: Bool) -> Subcommand {
        Subcommand(
            name: "test",
            abstract: "Migrates a copy of every fixture and checks each equals a database created at the target",
            discussion: """
                Each file ending .sqlite, .sqlite3 or .db in the fixtures directory is copied, migrated to the \
                plan's latest version (or --to), and validated: its schema must mean what a database created at \
                that version from its declaration means (tables, columns, keys, indexes, CHECKs, views, \
                triggers), with no drift and SQLite's integrity check clean. The fixtures are only read.
                Exit status: 0 when every fixture passes; otherwise the worst of the fixtures': 1 for a \
                migration that failed or a result that differs, 5 for a fixture of a version the plan no \
                longer declares, of no version of the plan, or not a SQLite database (the exit statuses of \
                apply); 2 when the directory holds no fixture.
                """,
            options: [
                .value("--fixtures", "DIR", required: true, help: "the directory of fixtures (`capture` writes them)"),
                SharedOptions.plan(hasSwiftPlan: hasSwiftPlan), SharedOptions.to,
                SharedOptions.format(["text", "json"]), SharedOptions.busyTimeout,
            ],
            run: run)
    }

    static func run(_ invocation: Invocation) throws -> MigrateExitCode {
        let arguments = invocation.arguments
        let migrator = try invocation.migrator()
        let tester = MigrationTester(migrator: migrator)
        let results = try tester.testFixtures(
            in: URL(fileURLWithPath: arguments.value("--fixtures")!), to: try arguments.version("--to"))
        let statuses = results.map(status(of:))
        let status = statuses.max { $0.severity < $1.severity } ?? .success
        let failed = results.filter { !$0.passed }.count
        let summary =
            "\(results.count) fixture\(results.count == 1 ? "" : "s"): \(results.count - failed) passed, \(failed) failed"
        if invocation.format(default: "text") == "json" {
            invocation.console.output(
                JSONOutput.string([
                    "plan": try migrator.planName(),
                    "fixtures": zip(results, statuses).map { json(of: $0, status: $1) },
                    "passed": results.count - failed, "failed": failed, "exitStatus": Int(status.rawValue),
                ]))
        } else {
            invocation.console.output(results.map { $0.description + "\n" }.joined() + summary + "\n")
        }
        return status
    }

    /// A fixture's status, as `apply` would exit on it: a migration's error by its code.
    static func status(of result: FixtureResult) -> MigrateExitCode {
        guard let failure = result.failure else { return .success }
        if let error = failure.underlyingError { return MigrateExitCode(for: error) }
        switch failure.kind {
        case .versionNotDeclared, .notThePlansDatabase, .notADatabase: return .refused
        default: return .failed
        }
    }

    static func json(of result: FixtureResult, status: MigrateExitCode) -> [String: Any] {
        var object: [String: Any] = [
            "fixture": result.fixture.lastPathComponent, "path": result.fixture.path,
            "fromVersion": JSONOutput.version(result.fromVersion), "toVersion": JSONOutput.version(result.toVersion),
            "rowsBefore": result.rowsBefore.map { $0 as Any } ?? JSONNull(),
            "rowsAfter": result.rowsAfter.map { $0 as Any } ?? JSONNull(),
            "passed": result.passed, "exitStatus": Int(status.rawValue),
        ]
        if let failure = result.failure {
            object["failure"] = [
                "kind": failure.kind.rawValue, "message": failure.message,
                "code": failure.underlyingError.map { $0.code.rawValue as Any } ?? JSONNull(),
                "onlyHere": failure.onlyHere, "onlyInCreated": failure.onlyInCreated, "details": failure.details,
            ]
        } else {
            object["failure"] = JSONNull()
        }
        return object
    }
}
