import CFaultVFS
import Foundation
import Testing

@testable import SchemaMigrations

extension Reliability {
    /// Every write, sync or read of a migration fails in turn (once, or from then on): the
    /// migration ends with a `MigrationError` and the database is as it was, or, when SQLite got
    /// past the fault, fully migrated.
    @Suite struct IOFaults {
        @Test(.timeLimit(.minutes(60)), arguments: FaultMode.allCases)
        func everyFailedCallLeavesTheOldDatabaseIntact(mode: FaultMode) throws {
            let config = ReliabilityConfig.current
            var random = SeededRandom(seed: config.seed, family: "faults-\(mode)", index: 0)
            let scratch = Scratch("faults")
            let pristine = scratch.url("pristine.sqlite")
            try FaultFixture.populate(pristine, wal: mode == .wal)
            let sweep = try FaultSweep(pristine: pristine, mode: mode, scratch: scratch)
            let counts = try sweep.counts()
            var tally = FaultTally()
            // Quick mode alternates transient and persistent faults; long mode tries both at every point.
            let persistence = config.faultPoints == 0 ? [false, true] : [Bool.random(using: &random)]
            for persistent in persistence {
                for fault in FaultKind.all(persistent: persistent) {
                    for n in FaultSweep.points(
                        count: counts[Int(fault.kind)], sample: config.faultPoints, random: &random)
                    {
                        let outcome = try sweep.run(fault, at: n)
                        tally.record(outcome)
                        #expect(
                            outcome.problems.isEmpty,
                            "\(fault) at call \(n) of \(counts[Int(fault.kind)]) (\(mode)): \(outcome.problems.joined(separator: "; ")); \(config.reproduction)"
                        )
                    }
                }
            }
            ReliabilityConfig.summary(
                "faults-\(mode)",
                "calls=[writes \(counts[0]), syncs \(counts[1]), reads \(counts[2])] " + tally.summary)
        }
    }
}

/// What a sweep did, for the summary line.
struct FaultTally {
    var runs = 0, injected = 0, succeeded = 0, problems = 0
    var codes: [String: Int] = [:]

    mutating func record(_ outcome: FaultSweep.Outcome) {
        runs += 1
        injected += outcome.injected
        if let code = outcome.errorCode { codes[code, default: 0] += 1 } else { succeeded += 1 }
        if !outcome.problems.isEmpty { problems += 1 }
    }

    var summary: String {
        "runs=\(runs) faults-injected=\(injected) failed-cleanly=\(runs - succeeded - problems) succeeded=\(succeeded) problems=\(problems) "
            + "errors=[" + codes.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
            + "]"
    }
}
