import Testing

@testable import MigrateCommand

/// The small argument parser: options with values (`--x v`, `--x=v`), flags, repeats, choices,
/// and a usage error naming the word at fault for everything else.
@Suite struct ArgumentParserTests {
    static let subcommand = Subcommand(
        name: "plan", abstract: "",
        options: [
            .value("--database", "PATH", repeatable: true, required: true, help: ""),
            .value("--to", "VERSION", help: ""),
            .value("--format", "FORMAT", choices: ["text", "json"], help: ""),
            .flag("--no-backup", help: ""),
        ]
    ) { _ in .success }

    static func parse(_ words: [String]) throws -> ParsedArguments {
        try ArgumentParser.parse(words, for: subcommand)
    }

    static func usageError(_ words: [String]) throws -> String {
        let error = try #require(throws: UsageError.self) { try parse(words) }
        #expect(error.subcommand == "plan")
        return error.message
    }

    @Test func valuesFlagsAndRepeats() throws {
        let arguments = try Self.parse([
            "--database", "a.sqlite", "--database=b.sqlite", "--to", "2.0.0", "--no-backup", "--format=json",
        ])
        #expect(arguments.values("--database") == ["a.sqlite", "b.sqlite"])
        #expect(arguments.value("--to") == "2.0.0")
        #expect(arguments.value("--format") == "json")
        #expect(arguments.flag("--no-backup"))
        #expect(!arguments.flag("--deny-destructive"))
        #expect(arguments.value("--plan") == nil)
    }

    @Test func anUnknownOptionIsNamed() throws {
        #expect(try Self.usageError(["--database", "a", "--databse", "b"]) == "unknown option '--databse' for 'plan'")
        #expect(try Self.usageError(["--database", "a", "--to=2", "-x"]) == "unknown option '-x' for 'plan'")
    }

    @Test func aMissingValueIsNamedWithWhatItShouldBe() throws {
        #expect(try Self.usageError(["--database"]) == "missing value for --database PATH")
        #expect(try Self.usageError(["--database", "--to", "2.0.0"]) == "missing value for --database PATH")
        #expect(try Self.usageError(["--database", "a", "--format"]) == "missing value for --format text|json")
    }

    @Test func aRequiredOptionMissingIsNamed() throws {
        #expect(try Self.usageError([]) == "missing --database PATH")
        #expect(try Self.usageError(["--to", "2.0.0"]) == "missing --database PATH")
    }

    @Test func aValueOutsideTheChoicesIsRefused() throws {
        #expect(
            try Self.usageError(["--database", "a", "--format", "xml"]) == "--format: 'xml' is not one of text, json")
    }

    @Test func anOptionGivenTwiceThatMayBeGivenOnce() throws {
        #expect(try Self.usageError(["--database", "a", "--to", "1", "--to", "2"]) == "--to is given more than once")
    }

    @Test func aStrayArgumentOrAFlagWithAValue() throws {
        #expect(try Self.usageError(["--database", "a", "b.sqlite"]) == "unexpected argument 'b.sqlite'")
        #expect(try Self.usageError(["--database", "a", "--no-backup=yes"]) == "--no-backup takes no value")
    }

    @Test func typedValuesNameTheOptionWhenMalformed() throws {
        let arguments = ParsedArguments(
            subcommand: "apply", values: ["--to": ["two"], "--busy-timeout": ["-1"], "--trips": ["1.5"]])
        #expect(throws: UsageError("--to: 'two' is not a version like 2.0.0", subcommand: "apply")) {
            try arguments.version("--to")
        }
        #expect(throws: UsageError("--busy-timeout: '-1' is not a number of at least 0", subcommand: "apply")) {
            try arguments.number("--busy-timeout")
        }
        #expect(throws: UsageError("--trips: '1.5' is not a whole number of at least 0", subcommand: "apply")) {
            try arguments.count("--trips")
        }
        #expect(
            try ParsedArguments(subcommand: "apply", values: ["--to": ["2.1"]]).version("--to")?.description == "2.1.0")
        #expect(try arguments.version("--absent") == nil)
    }

    @Test func theUsageLineShowsRequiredAndOptionalOptions() {
        #expect(
            Self.subcommand.options.map(\.usage) == [
                "--database PATH...", "[--to VERSION]", "[--format text|json]", "[--no-backup]",
            ])
    }
}
