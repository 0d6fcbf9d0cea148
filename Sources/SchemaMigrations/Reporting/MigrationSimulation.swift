#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What applying the plan to a copy of a database did: whether it would succeed on the data as
/// it is, and how long each step took.
///
/// ```swift
/// let simulation = try migrator.simulate(databaseAt: url)
/// if let error = simulation.error { print("would fail:", error) }
/// for step in simulation.steps { print(step.summary, step.duration) }
/// ```
public struct MigrationSimulation: Sendable, CustomStringConvertible {
    /// One step as it ran on the copy.
    public struct Step: Sendable {
        /// `1.0.0 → 2.0.0`, or `create 3.0.0`.
        public var stage: String
        /// The step, in words.
        public var summary: String
        /// How long it took on the copy, in seconds.
        public var duration: TimeInterval
    }

    /// The database simulated.
    public var database: String
    /// The result on the copy, when the migration succeeded there.
    public var result: MigrationResult?
    /// Why it failed on the copy (the real database would fail the same way).
    public var error: MigrationError?
    /// The steps that ran, in order, with their durations (up to the failing one).
    public var steps: [Step]
    /// The whole migration on the copy, in seconds (copying excluded).
    public var duration: TimeInterval

    /// True when the migration succeeded on the copy.
    public var succeeded: Bool { error == nil }

    /// The simulation in words, as `migrate plan --simulate` prints it: the outcome, then each step's time.
    public var description: String {
        var lines = ["database: \(database)"]
        if let error {
            lines.append(
                "simulation: the migration FAILS on a copy of today's data (\((duration * 1000).fixedPoint(1)) ms before it stopped)"
            )
            lines.append(error.description)
        } else if let result {
            lines.append(
                "simulation: the migration succeeds on a copy of today's data: \(result.fromVersion.map(\.description) ?? "empty") → \(result.toVersion) in \((duration * 1000).fixedPoint(1)) ms"
            )
        }
        for step in steps {
            lines.append(
                "  " + (step.duration * 1000).fixedPoint(1).padded(toWidth: 9) + " ms  "
                    + "\(step.stage): \(step.summary)")
        }
        return lines.joined(separator: "\n")
    }

    /// ``description`` with a final newline.
    @available(*, deprecated, renamed: "description")
    public var text: String { description + "\n" }
}

/// Marks when each step starts; a step lasts until the next one starts, or the run ends.
final class StepClock: @unchecked Sendable {
    private let lock = Lock()
    private var marks: [(stage: String, summary: String, at: Date)] = []

    func start(_ stage: String, _ summary: String) {
        lock.lock()
        defer { lock.unlock() }
        marks.append((stage, summary, Date()))
    }

    func finish() -> [MigrationSimulation.Step] {
        lock.lock()
        defer { lock.unlock() }
        let end = Date()
        return marks.enumerated().map { index, mark in
            let next = index + 1 < marks.count ? marks[index + 1].at : end
            return MigrationSimulation.Step(
                stage: mark.stage, summary: mark.summary, duration: next.timeIntervalSince(mark.at))
        }
    }
}
