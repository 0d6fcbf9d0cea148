import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs a program with its standard error on a pseudo-terminal, as a person at a terminal sees
/// it: `isatty(2)` is true in the program, and every byte it writes there (carriage returns and
/// escape sequences included) is captured.
enum PseudoTerminal {
    /// - Returns: the exit status, standard output (a file), and what the terminal received.
    static func run(_ path: String, _ arguments: [String]) throws -> (status: Int32, stdout: String, terminal: String) {
        var master: Int32 = -1
        var slave: Int32 = -1
        guard openpty(&master, &slave, nil, nil, nil) == 0 else { throw POSIXError(.ENODEV) }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("pty-stdout-\(UUID().uuidString)")
        try Data().write(to: output)
        defer { try? FileManager.default.removeItem(at: output) }

        let received = Received()
        let masterFD = master
        let reader = Thread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(masterFD, &buffer, buffer.count)
                if count <= 0 { break }  // EIO once the program has exited and the terminal is closed
                received.append(buffer[0..<count])
            }
        }
        reader.start()

        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
        try process.run()
        close(slave)  // the program holds its own copy: the reader sees EIO when the program exits
        process.waitUntilExit()
        while !received.isClosed(afterWaiting: 0.05) && !reader.isFinished {}
        close(master)
        return (process.terminationStatus, try String(contentsOf: output, encoding: .utf8), received.text)
    }

    /// The bytes the terminal received, from the reader thread.
    private final class Received: @unchecked Sendable {
        // Sendable: guarded by the lock.
        private let lock = NSLock()
        private var bytes: [UInt8] = []
        private var lastCount = -1

        func append(_ chunk: ArraySlice<UInt8>) { lock.withLock { bytes += chunk } }
        var text: String { lock.withLock { String(decoding: bytes, as: UTF8.self) } }

        /// True when nothing arrived during `seconds`.
        func isClosed(afterWaiting seconds: Double) -> Bool {
            Thread.sleep(forTimeInterval: seconds)
            return lock.withLock {
                defer { lastCount = bytes.count }
                return bytes.count == lastCount
            }
        }
    }
}
