import Foundation
import Testing

/// What a run of a built executable printed and exited with.
struct CommandResult: CustomStringConvertible {
    var status: Int32
    var stdout: String
    var stderr: String

    var description: String { "exit \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)" }

    /// Standard output parsed as JSON.
    func json() throws -> Any { try JSONSerialization.jsonObject(with: Data(stdout.utf8)) }
}

/// Runs the package's built executables (`migrate`, `sample-trips`) as a user or a pipeline does.
///
/// The test target depends on both, so `swift test` builds them into the same directory as the
/// test bundle; they are looked for there, then in `.build/debug`.
enum BuiltCommand {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let directory: URL? = {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let candidates = [
            Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent(),
            executable.deletingLastPathComponent(), repositoryRoot.appendingPathComponent(".build/debug"),
        ]
        return candidates.first {
            FileManager.default.isExecutableFile(atPath: $0.appendingPathComponent("migrate").path)
        }
    }()

    /// Runs `migrate` (JSON plan directories only).
    /// - Parameters:
    ///   - environment: `MIGRATE_*` variables (and others) to set; the test process's own
    ///     `MIGRATE_*` variables are never passed on.
    ///   - directory: the working directory, for relative paths; the test's own when nil.
    static func migrate(
        _ arguments: [String], input: String? = nil, environment: [String: String] = [:], directory: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> CommandResult {
        try run(
            "migrate", arguments, input: input, environment: environment, directory: directory,
            sourceLocation: sourceLocation)
    }

    /// Runs `sample-trips` (the command embedded with the SampleTrips Swift plan).
    static func sampleTrips(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws
        -> CommandResult
    {
        try run("sample-trips", arguments, sourceLocation: sourceLocation)
    }

    static func run(
        _ name: String, _ arguments: [String], input: String? = nil, environment: [String: String] = [:],
        directory workingDirectory: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> CommandResult {
        let directory = try #require(
            directory, "the built executables were not found next to the tests nor in .build/debug",
            sourceLocation: sourceLocation)
        return try runProgram(
            directory.appendingPathComponent(name).path, arguments, input: input, environment: environment,
            directory: workingDirectory)
    }

    /// The path of a built executable.
    static func path(of name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        try #require(directory, "the built executables were not found", sourceLocation: sourceLocation)
            .appendingPathComponent(name).path
    }

    /// Runs any program, its output captured; `input` is its standard input (none when nil).
    /// It inherits the test's environment without its `MIGRATE_*` variables, plus `environment`.
    static func runProgram(
        _ path: String, _ arguments: [String], input: String? = nil, environment: [String: String] = [:],
        directory: String? = nil
    ) throws -> CommandResult {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "migrate-output-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        // Files rather than pipes: a large output can never block the child.
        let out = scratch.appendingPathComponent("stdout")
        let err = scratch.appendingPathComponent("stderr")
        try Data().write(to: out)
        try Data().write(to: err)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("MIGRATE_") }.merging(
            environment
        ) { $1 }
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        if let input {
            let inputFile = scratch.appendingPathComponent("stdin")
            try Data(input.utf8).write(to: inputFile)
            process.standardInput = try FileHandle(forReadingFrom: inputFile)
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        try process.run()
        process.waitUntilExit()
        return CommandResult(
            status: process.terminationStatus,
            stdout: try String(contentsOf: out, encoding: .utf8),
            stderr: try String(contentsOf: err, encoding: .utf8))
    }
}
