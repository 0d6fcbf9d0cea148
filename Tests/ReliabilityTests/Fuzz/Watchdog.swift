import Foundation

/// Runs each fuzz case with a time limit, and leaves a breadcrumb naming the case, so that a
/// hang is reported with its seed and a crash (which ends the whole test process) can be replayed.
enum Watchdog {
    /// Where the case being run is written before it starts.
    static let breadcrumb = FileManager.default.temporaryDirectory.appendingPathComponent(
        "schemamigrations-reliability-last-case")

    /// Runs `body` on another thread. Returns nil when it did not finish within `seconds` (it is
    /// then left running: a thread cannot be killed).
    static func run<T: Sendable>(_ label: String, seconds: Double, _ body: @escaping @Sendable () -> T) -> T? {
        try? Data((label + "\n").utf8).write(to: breadcrumb)
        let box = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            box.value = body()
            done.signal()
        }
        return done.wait(timeout: .now() + seconds) == .timedOut ? nil : box.value
    }

    private final class ResultBox<T>: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: T?
        var value: T? {
            get { lock.withLock { stored } }
            set { lock.withLock { stored = newValue } }
        }
    }
}

/// The outcome of one fuzz case: how it ended, and what went wrong (empty when all is well).
struct FuzzOutcome: Sendable {
    /// `migrated`, `created`, `upToDate`, `decoded`, or the `MigrationError` code.
    var ending: String
    var problems: [String]
}

/// What a fuzz family did, for the summary line.
struct FuzzTally {
    var cases = 0, hangs = 0, problems = 0
    var endings: [String: Int] = [:]
    var mutations: [String: Int] = [:]

    mutating func record(_ outcome: FuzzOutcome?, mutation: String) {
        cases += 1
        mutations[mutation, default: 0] += 1
        guard let outcome else {
            hangs += 1
            return
        }
        endings[outcome.ending, default: 0] += 1
        if !outcome.problems.isEmpty { problems += 1 }
    }

    var summary: String {
        func list(_ counts: [String: Int]) -> String {
            counts.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
        }
        return
            "cases=\(cases) hangs=\(hangs) problems=\(problems) endings=[\(list(endings))] mutations=[\(list(mutations))]"
    }
}
