import Foundation

/// The `reliability-driver` executable, run as a child process.
struct DriverProcess {
    /// The built driver, beside the test bundle in the build directory.
    static let executable: URL = {
        let candidates = [
            URL(fileURLWithPath: ProcessInfo.processInfo.arguments[0]).deletingLastPathComponent(),
            Bundle.main.bundleURL.deletingLastPathComponent(),
            Bundle.main.bundleURL,
        ]
        for directory in candidates {
            let url = directory.appendingPathComponent("reliability-driver")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return candidates[0].appendingPathComponent("reliability-driver")
    }()

    let process = Process()
    let output = OutputCollector()

    /// Starts the driver with `arguments`.
    init(_ arguments: [String]) throws {
        process.executableURL = DriverProcess.executable
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        // Read on a thread of its own, with blocking reads until end of file. A readabilityHandler
        // is a dispatch source, torn down asynchronously after its descriptor is closed; on Linux
        // libdispatch then crashed the whole test run once (in `_dispatch_event_loop_drain`) when
        // the descriptor's number was reused before the teardown finished.
        let collector = output
        let reading = pipe.fileHandleForReading
        Thread.detachNewThread {
            while case let data = reading.availableData, !data.isEmpty { collector.append(data) }
            collector.end()
        }
    }

    /// Runs the driver to completion.
    /// - Returns: its exit status and output.
    static func run(_ arguments: [String], timeout: TimeInterval = 120) throws -> (status: Int32, output: String) {
        let driver = try DriverProcess(arguments)
        return driver.wait(timeout: timeout)
    }

    /// Waits for the driver to exit, killing it after `timeout` seconds.
    func wait(timeout: TimeInterval = 120) -> (status: Int32, output: String) {
        waitForExit(timeout: timeout)
        output.waitForEnd()
        return (
            process.terminationReason == .uncaughtSignal ? -process.terminationStatus : process.terminationStatus,
            output.text
        )
    }

    /// Waits for the process to end (not for its output to drain), killing it after `timeout` seconds.
    func waitForExit(timeout: TimeInterval = 120) {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(1_000) }
        if process.isRunning { kill() }
        process.waitUntilExit()
    }

    /// SIGKILL: no handler, no cleanup, no flush; as a crash or a power cut sees the process.
    func kill() {
        Foundation.kill(process.processIdentifier, SIGKILL)
    }

    /// Waits until the output holds `text`; false when the driver exits or `timeout` passes first.
    func waitForOutput(_ text: String, timeout: TimeInterval = 60) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if output.text.contains(text) { return true }
            if !process.isRunning {
                output.waitForEnd()
                return output.text.contains(text)
            }
            usleep(2_000)
        }
        return false
    }
}

/// A child's output, gathered as it comes.
final class OutputCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    private var ended = false

    func append(_ chunk: Data) { lock.withLock { data.append(chunk) } }

    var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }

    /// Marks the end of the output (the pipe reached end of file).
    func end() { lock.withLock { ended = true } }

    /// Waits (at most two seconds) for the reading thread to drain what the exited process wrote.
    func waitForEnd() {
        let deadline = Date().addingTimeInterval(2)
        while !lock.withLock({ ended }) && Date() < deadline { usleep(1_000) }
    }
}
