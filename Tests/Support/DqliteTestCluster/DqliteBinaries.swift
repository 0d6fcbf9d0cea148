import Foundation

/// Where `dqlite-demo` (a dqlite node, from Debian's `go-dqlite` package) is, installing the
/// package with apt-get when it is missing and this process may (root, apt-get present).
public enum DqliteBinaries {
    /// The node executable, or nil when it is absent and could not be installed.
    public static let demo: URL? = {
        if let found = locate("dqlite-demo") { return found }
        guard geteuid() == 0, let aptGet = locate("apt-get") else {
            report(
                "dqlite-demo is not installed and this process cannot install it (apt-get install go-dqlite as root)")
            return nil
        }
        let update = run(aptGet, ["update", "-qq"])
        let install = run(aptGet, ["install", "-y", "-qq", "go-dqlite"])
        if let found = locate("dqlite-demo") { return found }
        report("apt-get install go-dqlite failed (update \(update), install \(install))")
        return nil
    }()

    /// Whether the cluster tests can run; when false they are skipped, and why is printed once.
    public static var available: Bool { demo != nil }

    /// Why the cluster tests are skipped, for Swift Testing's `.enabled(if:_:)`.
    public static let skipMessage = "dqlite-demo is missing (apt-get install go-dqlite): dqlite cluster tests skipped"

    private static func locate(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":").map(String.init) + ["/usr/sbin", "/usr/bin"] {
            let url = URL(fileURLWithPath: directory).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return nil
    }

    private static func run(_ executable: URL, _ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["DEBIAN_FRONTEND": "noninteractive"]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }

    private static func report(_ message: String) {
        FileHandle.standardError.write(Data("dqlite cluster tests: \(message); they are skipped.\n".utf8))
    }
}
