import Foundation

/// Runs a program found on the `PATH` (through `/usr/bin/env`) to its end, standard output and
/// standard error gathered together, standard input given or empty: the tests that build or
/// type-check Swift, or run the `sqlite3` shell.
enum ProgramRun {
    /// - Returns: the exit status and everything the program printed.
    static func run(_ arguments: [String], input: String? = nil) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        let stdin = Pipe()
        process.standardInput = stdin
        try process.run()
        stdin.fileHandleForWriting.write(Data((input ?? "").utf8))
        try stdin.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }
}
