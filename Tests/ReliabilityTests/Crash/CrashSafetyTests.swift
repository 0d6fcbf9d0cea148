import Foundation
import Testing

extension Reliability {
    /// A migration killed with SIGKILL at any moment leaves the database at its old version with
    /// its old rows, or at the new version fully migrated: never a mixture, never corrupt.
    @Suite struct CrashSafety {
        /// How a trial migrates: the journal mode of the file and the transaction scope.
        struct Mode: CustomStringConvertible {
            var wal: Bool
            var perStage: Bool
            var description: String { "\(wal ? "wal" : "delete")\(perStage ? "+per-stage" : "")" }
        }

        static let modes = [
            Mode(wal: false, perStage: false), Mode(wal: true, perStage: false), Mode(wal: false, perStage: true),
        ]
        static let rows = 50_000

        @Test(.timeLimit(.minutes(60)))
        func killedMigrationsLeaveTheOldOrTheNewDatabase() throws {
            let config = ReliabilityConfig.current
            var random = SeededRandom(seed: config.seed, family: "crash", index: 0)
            let scratch = Scratch("crash")
            var plans: [CrashPlan] = []
            for (index, mode) in Self.modes.enumerated() {
                plans.append(try CrashPlan(mode: mode, scratch: scratch, name: "mode\(index)", rows: Self.rows))
            }
            var tally = CrashTally()
            for kill in 0..<config.kills {
                let plan = plans[kill % plans.count]
                // Stratified: the k-th of K kills of a mode lands in the k-th slice of its calibrated duration (plus 10%).
                let slices = (config.kills - kill % plans.count + plans.count - 1) / plans.count
                let slice = kill / plans.count
                let delay =
                    plan.duration * 1.1 * (Double(slice) + Double.random(in: 0..<1, using: &random))
                    / Double(max(1, slices))
                let trial = try plan.killTrial(number: kill, after: delay, scratch: scratch)
                let context =
                    "kill \(kill) (\(plan.mode), after \(String(format: "%.3f", delay)) s of \(String(format: "%.3f", plan.duration)) s, last step: \(trial.lastStep)); \(config.reproduction)"
                #expect(trial.state.integrity == "ok", "integrity_check failed after \(context): \(trial.state)")
                let accepted = plan.accepted.first {
                    $0.version == trial.state.version && $0.checksum == trial.state.checksum
                }
                #expect(
                    accepted != nil,
                    "after \(context) the database is \(trial.state), expected one of: \(plan.accepted.map(\.description).joined(separator: " | "))"
                )
                tally.record(trial, accepted: accepted, killed: trial.killed)
                if kill % 5 == 4, accepted != nil {
                    // After recovery, the migration runs again to the end.
                    let (status, output) = try DriverProcess.run(
                        ["migrate", "--database", trial.url.path] + (plan.mode.perStage ? ["--per-stage"] : []))
                    #expect(status == 0, "resuming after \(context): \(output)")
                    let resumed = try DatabaseState.read(trial.url, plan: CrashPlan.planName)
                    #expect(
                        resumed.version == plan.new.version && resumed.checksum == plan.new.checksum,
                        "resumed after \(context): \(resumed)")
                    tally.resumed += 1
                }
                scratch.removeDatabase(trial.url)
            }
            ReliabilityConfig.summary(
                "crash", tally.summary(durations: plans.map { "\($0.mode) \(String(format: "%.2f", $0.duration)) s" }))
        }
    }
}

/// What the kills of one run did, for the summary line.
struct CrashTally {
    var killed = 0, finishedBeforeKill = 0, atOld = 0, atIntermediate = 0, atNew = 0, invalid = 0, resumed = 0
    var delays = Set<Int>()
    var steps: [String: Int] = [:]

    mutating func record(_ trial: CrashPlan.Trial, accepted: DatabaseState?, killed: Bool) {
        if killed { self.killed += 1 } else { finishedBeforeKill += 1 }
        delays.insert(Int(trial.delay * 1000))
        steps[trial.phase, default: 0] += 1
        switch accepted?.version {
        case "1.0.0": atOld += 1
        case "2.0.0": atIntermediate += 1
        case "3.0.0": atNew += 1
        default: invalid += 1
        }
    }

    func summary(durations: [String]) -> String {
        let phases = steps.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
        return
            "kills=\(killed + finishedBeforeKill) survived=\(killed + finishedBeforeKill - invalid) sigkilled=\(killed) finished-before-kill=\(finishedBeforeKill) "
            + "distinct-kill-points-ms=\(delays.count) old=\(atOld) intermediate=\(atIntermediate) new=\(atNew) invalid=\(invalid) resumed=\(resumed) "
            + "phases=[\(phases)] calibration=[\(durations.joined(separator: ", "))]"
    }
}
