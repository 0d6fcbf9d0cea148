import SchemaMigrations

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Runs a subcommand's work on every database of a fleet, `jobs` at a time, each on its own:
/// an error or a missing file makes that database's outcome and does not stop the others. Each
/// database is still migrated all or nothing, on a connection of its own.
///
/// With a ``FleetCounter``, each finished database is announced on standard error:
/// `[  3/1000] /srv/tenants/acme/app.sqlite: migrated 1.0.0 → 3.0.0 in 4.1 ms`.
struct FleetRunner {
    /// How many databases run at once (at least 1).
    var jobs: Int
    /// Announces each database as it finishes; nil for none.
    var counter: FleetCounter?
    /// Whether a missing file is an outcome (refused, 5) rather than handed to `body`.
    var missingIsRefused = true

    /// - Returns: the outcomes, in the order of `databases` whatever order they finished in.
    func run(_ databases: [URL], _ body: @escaping @Sendable (URL) throws -> DatabaseOutcome) -> [DatabaseOutcome] {
        let state = SharedState(count: databases.count)
        let work = { @Sendable (index: Int) in
            let url = databases[index]
            let started = Date()
            var outcome: DatabaseOutcome
            if missingIsRefused && !FileManager.default.fileExists(atPath: url.path) {
                outcome = .missing(url)
            } else {
                do {
                    outcome = try body(url)
                } catch {
                    outcome = DatabaseOutcome(database: url.path, error: error)
                }
            }
            outcome.duration = Date().timeIntervalSince(started)
            let done = state.finish(index, outcome)
            counter?.finished(outcome, done: done, of: databases.count)
        }
        let workers = max(1, min(jobs, databases.count))
        if workers == 1 {
            for index in databases.indices { work(index) }
        } else {
            // Threads of our own rather than Dispatch's pool, which runs no more blocks at once
            // than there are cores: the work waits on fsync, and --jobs may ask for more.
            SystemCalls.runOnThreads(workers) {
                while let index = state.next() { work(index) }
            }
        }
        return state.outcomes
    }

    /// The next database to start and the outcomes so far, shared by the workers.
    private final class SharedState: @unchecked Sendable {
        // Sendable: every access goes through the lock.
        private let lock = Lock()
        private var nextIndex = 0
        private var finished = 0
        private var results: [DatabaseOutcome?]

        init(count: Int) { results = Array(repeating: nil, count: count) }

        func next() -> Int? {
            lock.withLock {
                guard nextIndex < results.count else { return nil }
                defer { nextIndex += 1 }
                return nextIndex
            }
        }

        /// Records an outcome; returns how many databases are done.
        func finish(_ index: Int, _ outcome: DatabaseOutcome) -> Int {
            lock.withLock {
                results[index] = outcome
                finished += 1
                return finished
            }
        }

        var outcomes: [DatabaseOutcome] { lock.withLock { results.map { $0! } } }
    }
}

/// The fleet's `[k/N]` counter on standard error, with each database's full path: on a terminal
/// one line rewritten in place, elsewhere (with `--progress`) one line per database.
final class FleetCounter: @unchecked Sendable {
    // Sendable: the workers call `finished` concurrently; the lock orders the lines.
    private let console: Console
    private let lock = Lock()

    init(console: Console) { self.console = console }

    func finished(_ outcome: DatabaseOutcome, done: Int, of total: Int) {
        let width = String(total).count
        let counter = "[" + String(repeating: " ", count: width - String(done).count) + "\(done)/\(total)]"
        let line =
            "\(counter) \(outcome.database): " + (outcome.summary.isEmpty ? "\(outcome.status)" : outcome.summary)
        lock.withLock {
            if console.errorIsTerminal {
                // Erase the previous line; keep a failure's line, and the last one.
                console.error("\r\u{1B}[K" + line + (outcome.status == .success && done < total ? "" : "\n"))
            } else {
                console.error(line + "\n")
            }
        }
    }
}
