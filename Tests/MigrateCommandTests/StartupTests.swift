import Foundation
import SampleTripsPlan
import SchemaMigrations
import Testing

@testable import MigrateCommand

/// What every run of the command does before its subcommand's work, done without the costly parts
/// (a URL parsed for the executable's name, `ProcessInfo`, every subcommand's help built, the
/// Unicode case tables): the same name, environment, subcommands and variables as those gave.
@Suite(.serialized) struct StartupTests {
    @Test func theExecutablesNameIsTheLastComponentAsAURLGivesIt() {
        let paths = [
            "/usr/bin/migrate", "migrate", "./migrate", ".build/release/migrate", "a b/c d", "x/%20y", "x/a%b",
            "x/a?b#c", "x/a;b", "/x/é", "/x/e\u{301}", "x/\u{301}y", "x//y", "x/y/", "/", "", ".", "..", "x/.", "x/..",
            "~/m", "x/a:b", "x/[a]", "x/😀",
        ]
        for path in paths {
            #expect(
                MigrateCommand.executableName(of: path) == URL(fileURLWithPath: path).lastPathComponent, "\(path)")
        }
    }

    @Test func theEnvironmentIsReadAsProcessInfoReadsIt() {
        let set = [
            ("SM_STARTUP_PLAIN", "value"), ("SM_STARTUP_EQUALS", "a=b=c"), ("SM_STARTUP_EMPTY", ""),
            ("SM_STARTUP_UNICODE", "é 😀"), ("SM_STARTUP_COMBINING", "\u{301}joins the equals sign"),
            ("SM_STARTUP_É", "non-ASCII name"), ("SM_STARTUP_PREPEND\u{600}", "a prepended mark before ="),
        ]
        for (name, value) in set { setenv(name, value, 1) }
        defer { for (name, _) in set { unsetenv(name) } }
        #expect(MigrateCommand.processEnvironment() == ProcessInfo.processInfo.environment)
        #expect(MigrateCommand.processEnvironment()["SM_STARTUP_EQUALS"] == "a=b=c")
    }

    /// The subcommands the command lists are those it built at `init` before: each built-in one
    /// with `--load-extension` where it opens databases and the cluster note where it has a
    /// cluster form, then the app's.
    @Test func theSubcommandsAreTheBuiltInOnesThenTheApps() {
        let seed = Subcommand(name: "seed", abstract: "Adds demo rows", options: []) { _ in .success }
        let shadow = Subcommand(name: "apply", abstract: "An app's apply", options: []) { _ in .success }
        for hasSwiftPlan in [false, true] {
            let command = MigrateCommand(
                plan: hasSwiftPlan ? TripsMigrationPlan.self : nil, extraSubcommands: [seed, shadow])
            let expected =
                ClusterSubcommands.noting(BuiltInSubcommands.all(hasSwiftPlan: hasSwiftPlan)) + [seed, shadow]
            #expect(command.subcommands.map(\.name) == expected.map(\.name))
            #expect(
                command.subcommands.map(\.name).prefix(10) == [
                    "status", "plan", "apply", "revert", "verify", "snapshot", "history", "lint", "baseline",
                    "scaffold",
                ])
            for (made, built) in zip(command.subcommands, expected) {
                #expect(made.options == built.options && made.discussion == built.discussion, "\(made.name)")
                #expect(made.abstract == built.abstract && made.alternatives == built.alternatives)
            }
            // One subcommand alone is the first of that name in the list: the built-in apply, not the app's.
            for name in expected.map(\.name) + ["help", "bogus", ""] {
                let alone = command.subcommand(named: name)
                let listed = command.subcommands.first { $0.name == name }
                #expect(alone?.name == listed?.name && alone?.options == listed?.options, "\(name)")
                #expect(alone?.discussion == listed?.discussion && alone?.abstract == listed?.abstract)
            }
            #expect(BuiltInSubcommands.all(hasSwiftPlan: hasSwiftPlan).map(\.name) == BuiltInSubcommands.names)
        }
        var replaced = MigrateCommand(extraSubcommands: [seed])
        replaced.subcommands = [seed]
        #expect(replaced.subcommands.map(\.name) == ["seed"])
        #expect(replaced.subcommand(named: "apply") == nil && replaced.subcommand(named: "seed") != nil)
        replaced.subcommands.append(shadow)
        #expect(replaced.subcommand(named: "apply")?.abstract == "An app's apply")
    }

    @Test func variablesAreNamedAsBefore() {
        let names =
            BuiltInSubcommands.all(hasSwiftPlan: false).flatMap { $0.options.map(\.name) } + [
                "--a-b-c", "---x", "-y", "--Mixed-Case", "--é-option", "--", "", "--with_underscore9",
            ]
        for name in names {
            let before = "MIGRATE_" + name.drop { $0 == "-" }.uppercased().replacing("-", with: "_")
            #expect(EnvironmentDefaults.variable(forName: name) == before, "\(name)")
        }
        #expect(EnvironmentDefaults.variable(forName: "--busy-timeout") == "MIGRATE_BUSY_TIMEOUT")
    }

    /// One database runs alone: the cores are not counted for it, and `--jobs` is still checked.
    @Test func jobsAreCheckedForOneDatabaseWithoutCountingCores() throws {
        func invocation(_ values: [String: [String]]) -> Invocation {
            Invocation(
                arguments: ParsedArguments(subcommand: "apply", values: values), console: CapturedConsole().console,
                commandName: "migrate", plan: nil)
        }
        #expect(try invocation([:]).jobs(databaseCount: 1) == 1)
        #expect(try invocation([:]).jobs(databaseCount: 3) == ProcessInfo.processInfo.activeProcessorCount)
        #expect(try invocation(["--jobs": ["5"]]).jobs(databaseCount: 1) == 5)
        #expect(throws: UsageError.self) { try invocation(["--jobs": ["0"]]).jobs(databaseCount: 1) }
        #expect(throws: UsageError.self) { try invocation(["--jobs": ["x"]]).jobs(databaseCount: 1) }
    }
}
