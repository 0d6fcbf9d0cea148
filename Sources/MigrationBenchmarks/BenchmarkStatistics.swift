import Foundation

/// Timings of one case: median and spread, in seconds.
public struct Timing: Sendable {
    public var samples: [Double]
    public var median: Double {
        let sorted = samples.sorted()
        guard !sorted.isEmpty else { return .nan }
        return sorted.count % 2 == 1
            ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }
    public var min: Double { samples.min() ?? .nan }
    public var max: Double { samples.max() ?? .nan }
}

/// Wall-clock timing and the process's peak resident memory, read from the operating system.
enum Measure {
    static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    /// Peak resident set size of this process so far, in MiB (`VmHWM`), or nil where /proc is missing.
    static func peakResidentMiB() -> Double? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kib = Double(line.split(separator: " ").dropFirst().first ?? "")
        else { return nil }
        return kib / 1024
    }

    /// Resets the peak so the next case's peak is its own (Linux: write 5 to /proc/self/clear_refs).
    static func resetPeakResident() {
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    }

    /// Copies a database file and flushes it to disk, so a timed migration does not pay for the copy's write-back.
    static func freshCopy(of source: URL, to destination: URL) throws {
        for suffix in ["", "-journal", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: destination.path + suffix)
        }
        try FileManager.default.copyItem(at: source, to: destination)
        sync()
    }
}
