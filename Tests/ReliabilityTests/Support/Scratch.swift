import Foundation

/// A fresh temporary directory for one test, removed (immutable flags included) when released.
final class Scratch {
    let directory: URL

    init(_ label: String = "reliability") {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "schemamigrations-\(label)-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit {
        Scratch.makeMutable(directory.path)
        try? FileManager.default.removeItem(at: directory)
    }

    /// A path in the directory.
    func url(_ name: String) -> URL { directory.appendingPathComponent(name) }

    /// Copies a database file and the files beside it (`-wal`, `-shm`, `-journal`) to `name`.
    @discardableResult
    func copyDatabase(_ source: URL, to name: String) throws -> URL {
        let target = url(name)
        for suffix in ["", "-wal", "-shm", "-journal"] {
            let from = URL(fileURLWithPath: source.path + suffix)
            let to = URL(fileURLWithPath: target.path + suffix)
            try? FileManager.default.removeItem(at: to)
            if FileManager.default.fileExists(atPath: from.path) { try FileManager.default.copyItem(at: from, to: to) }
        }
        return target
    }

    /// Removes a database file and the files beside it.
    func removeDatabase(_ url: URL) {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            try? FileManager.default.removeItem(atPath: url.path + suffix)
        }
    }

    /// Clears the immutable flag `chattr +i` may have set (as root, the only way to make a file read-only).
    static func makeMutable(_ path: String) {
        guard geteuid() == 0, FileManager.default.fileExists(atPath: "/usr/bin/chattr") else { return }
        _ = try? Shell.run("/usr/bin/chattr", ["-R", "-i", path])
    }
}

/// Runs a command to completion.
enum Shell {
    /// - Returns: the exit status and the standard output and error, interleaved.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
