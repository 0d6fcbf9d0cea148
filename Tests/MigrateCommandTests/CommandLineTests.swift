import Foundation
import SampleTripsPlan
import SchemaMigrations
import Testing

@testable import MigrateCommand

/// The command's shape, run in-process: help everywhere, usage errors that name the bad word and
/// print the usage on standard error with status 2, and an app's own subcommands.
@Suite struct CommandLineTests {
    static let embedded = MigrateCommand(
        plan: TripsMigrationPlan.self, name: "trips",
        extraSubcommands: [
            Subcommand(name: "seed", abstract: "Adds demo rows", options: [.value("--rows", "N", help: "how many")]) {
                invocation in
                invocation.console.output("seeding \(try invocation.arguments.count("--rows") ?? 1)\n")
                return .success
            }
        ])
    static let bare = MigrateCommand(name: "migrate")

    static func run(_ arguments: [String], with command: MigrateCommand = embedded) -> (
        MigrateExitCode, CapturedConsole
    ) {
        let captured = CapturedConsole()
        return (command.run(arguments, console: captured.console), captured)
    }

    @Test func helpListsTheSubcommandsAndExitStatuses() {
        for arguments in [["--help"], ["-h"], ["help"]] {
            let (status, captured) = Self.run(arguments)
            #expect(status == .success)
            #expect(captured.output.hasPrefix("usage: trips <subcommand> [options]\n"))
            for name in ["status", "plan", "apply", "verify", "snapshot", "seed", "help"] {
                #expect(captured.output.contains("\n  \(name) "), "\(name)")
            }
            #expect(captured.output.contains("  5  refused: "))
            #expect(captured.error.isEmpty)
        }
    }

    @Test func helpOfASubcommandIsItsHelpOption() {
        let (status, viaHelp) = Self.run(["help", "plan"])
        let (optionStatus, viaOption) = Self.run(["plan", "--help"])
        #expect(status == .success && optionStatus == .success)
        #expect(viaHelp.output == viaOption.output)
        #expect(
            viaHelp.output.hasPrefix(
                "usage: trips plan --database PATH... [--plan DIR] [--to VERSION] [--format text|json|sql|markdown] [--deny-destructive]"
            ))
        #expect(viaHelp.output.contains("\n  --deny-destructive "))
        // --help wins over anything wrong beside it.
        #expect(Self.run(["apply", "--bogus", "--help"]).0 == .success)
        #expect(Self.run(["help", "seed"]).1.output.hasPrefix("usage: trips seed [--rows N]"))
    }

    @Test func withoutASwiftPlanTheUsageRequiresPlanDirectories() {
        let (status, captured) = Self.run(["help", "status"], with: Self.bare)
        #expect(status == .success)
        #expect(captured.output.hasPrefix("usage: migrate status --database PATH... --plan DIR [--to VERSION]"))
        let (missing, error) = Self.run(["status", "--database", "a.sqlite"], with: Self.bare)
        #expect(missing == .usageError)
        #expect(error.error.hasPrefix("error: missing --plan DIR\n\nusage: migrate status "))
    }

    @Test func usageErrorsNameTheWordAndPrintTheUsageOnStandardError() {
        let cases: [([String], String, String)] = [
            (
                [],
                "error: missing subcommand\n  one of: status, plan, apply, revert, verify, snapshot, history, lint, baseline, scaffold, capture, test, seed, help",
                "usage: trips <subcommand>"
            ),
            (["migrate"], "error: unknown subcommand 'migrate'", "usage: trips <subcommand>"),
            (["aply"], "error: unknown subcommand 'aply'\n  did you mean 'apply'?", "usage: trips <subcommand>"),
            (["help", "nope"], "error: unknown subcommand 'nope'", "usage: trips <subcommand>"),
            (
                ["help", "plan", "apply"], "error: help takes one subcommand, not 'plan apply'",
                "usage: trips <subcommand>"
            ),
            (
                ["plan", "--databse", "x"],
                "error: unknown option '--databse' for 'plan'\n  did you mean '--database'?", "usage: trips plan "
            ),
            (["apply", "--database"], "error: missing value for --database PATH", "usage: trips apply "),
            (
                ["status", "--database", "x", "--format", "yaml"], "error: --format: 'yaml' is not one of text, json",
                "usage: trips status "
            ),
            (
                ["status", "--database", "x", "--format", "jsno"],
                "error: --format: 'jsno' is not one of text, json\n  did you mean 'json'?", "usage: trips status "
            ),
            (
                ["apply", "--database", "x", "--to", "9.0.0"],
                "error: --to 9.0.0: the plan declares 1.0.0, 2.0.0, 3.0.0", "usage: trips apply "
            ),
            (
                ["apply", "--database", "x", "--backup", "b", "--no-backup"],
                "error: --backup and --no-backup cannot be given together", "usage: trips apply "
            ),
            (
                ["seed", "--rows", "many"], "error: --rows: 'many' is not a whole number of at least 0",
                "usage: trips seed "
            ),
        ]
        for (arguments, message, usage) in cases {
            let (status, captured) = Self.run(arguments)
            #expect(status == .usageError, "\(arguments)")
            #expect(captured.error.hasPrefix(message + "\n\n" + usage), "\(arguments): \(captured.error)")
            #expect(captured.output.isEmpty, "\(arguments)")
        }
    }

    @Test func anAppsOwnSubcommandRuns() {
        let (status, captured) = Self.run(["seed", "--rows", "3"])
        #expect(status == .success)
        #expect(captured.output == "seeding 3\n")
    }

    @Test func everyErrorCodeMapsToOneExitStatus() {
        let expected: [MigrationError.Code: MigrateExitCode] = [
            .drift: .drift,
            .newerVersion: .refused, .unknownVersion: .refused, .notADatabase: .refused,
            .unsupportedChange: .refused, .invalidPlan: .refused, .invalidSchema: .refused, .unsupportedType: .refused,
            .dataViolation: .failed, .customStageFailed: .failed, .sqlite: .failed, .verificationFailed: .failed,
            .concurrentChange: .failed,
            .readOnly: .failed,
        ]
        for (code, status) in expected {
            #expect(MigrateExitCode(for: MigrationError(code, "")) == status, "\(code)")
        }
        #expect(MigrateExitCode.worst([.success, .pending, .failed, .refused, .drift]) == .refused)
        #expect(MigrateExitCode.worst([.success, .pending]) == .pending)
        #expect(MigrateExitCode.worst([]) == .success)
    }
}
