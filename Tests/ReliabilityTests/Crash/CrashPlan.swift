import Foundation

/// One way of migrating the driver's database, calibrated: its pristine file, how long an
/// uninterrupted migration takes, and the states a killed one may leave.
struct CrashPlan {
    static let planName = "reliability"

    /// The outcome of one kill.
    struct Trial {
        var url: URL
        var delay: TimeInterval
        /// False when the migration had finished before the signal came.
        var killed: Bool
        var lastStep: String
        var phase: String
        var state: DatabaseState
    }

    let mode: CrashSafety.Mode
    let pristine: URL
    /// Seconds from launch to exit of an uninterrupted migration.
    let duration: TimeInterval
    let old: DatabaseState
    let new: DatabaseState
    /// The states a killed migration may leave: old, new, and with one transaction per stage, V2.
    let accepted: [DatabaseState]

    typealias CrashSafety = Reliability.CrashSafety

    init(mode: CrashSafety.Mode, scratch: Scratch, name: String, rows: Int) throws {
        self.mode = mode
        pristine = scratch.url("\(name)-pristine.sqlite")
        let populated = try DriverProcess.run(
            ["populate", "--database", pristine.path, "--rows", String(rows)] + (mode.wal ? ["--journal", "wal"] : []))
        guard populated.status == 0 else { throw CrashPlanError(message: "populate failed: \(populated.output)") }
        old = try DatabaseState.read(pristine, plan: CrashPlan.planName)

        let calibration = try scratch.copyDatabase(pristine, to: "\(name)-calibration.sqlite")
        let started = Date()
        let run = try DriverProcess.run(
            ["migrate", "--database", calibration.path] + (mode.perStage ? ["--per-stage"] : []))
        duration = Date().timeIntervalSince(started)
        guard run.status == 0 else { throw CrashPlanError(message: "calibration failed: \(run.output)") }
        new = try DatabaseState.read(calibration, plan: CrashPlan.planName)
        scratch.removeDatabase(calibration)

        var accepted = [old, new]
        if mode.perStage {
            let intermediate = try scratch.copyDatabase(pristine, to: "\(name)-v2.sqlite")
            let run = try DriverProcess.run(["migrate", "--database", intermediate.path, "--to", "2.0.0"])
            guard run.status == 0 else { throw CrashPlanError(message: "migration to 2.0.0 failed: \(run.output)") }
            accepted.append(try DatabaseState.read(intermediate, plan: CrashPlan.planName))
            scratch.removeDatabase(intermediate)
        }
        self.accepted = accepted
    }

    /// Copies the pristine file, starts a migration of the copy, SIGKILLs it after `delay` and reads what is left.
    func killTrial(number: Int, after delay: TimeInterval, scratch: Scratch) throws -> Trial {
        let url = try scratch.copyDatabase(pristine, to: "trial-\(number).sqlite")
        let started = Date()
        let driver = try DriverProcess(
            ["migrate", "--database", url.path, "--progress"] + (mode.perStage ? ["--per-stage"] : []))
        let remaining = delay - Date().timeIntervalSince(started)
        if remaining > 0 { usleep(useconds_t(remaining * 1_000_000)) }
        driver.kill()
        let (status, output) = driver.wait()
        let killed = status == -SIGKILL
        let lines = output.split(separator: "\n").map(String.init)
        let lastStep =
            lines.last { $0.hasPrefix("progress ") }.map { String($0.dropFirst("progress ".count)) } ?? "none"
        return Trial(
            url: url, delay: delay, killed: killed, lastStep: lastStep, phase: CrashPlan.phase(of: lines),
            state: try DatabaseState.read(url, plan: CrashPlan.planName))
    }

    /// Where the migration was when killed, coarsely: `launch`, `detect`, the last step a stage
    /// had begun (then verification, metadata and commit follow the last one), the tenth of the
    /// rows a custom stage had rewritten, or `done`.
    static func phase(of lines: [String]) -> String {
        if lines.contains(where: { $0.hasPrefix("outcome=") }) { return "done" }
        guard lines.contains("started") else { return "launch" }
        guard let last = lines.last(where: { $0.hasPrefix("progress ") }) else { return "detect" }
        let text = last.dropFirst("progress ".count)
        let stage = text.split(separator: " [").first.map(String.init) ?? ""
        if let range = text.range(of: #"(\d+) / (\d+) rows"#, options: .regularExpression) {
            let numbers = text[range].split(separator: " ").compactMap { Int($0) }
            if numbers.count == 2, numbers[1] > 0 { return "\(stage) rows \(numbers[0] * 10 / numbers[1] * 10)%" }
        }
        let step = text.split(separator: "]").first.map { String($0.split(separator: "[").last ?? "") } ?? ""
        return "\(stage) step \(step)"
    }
}

struct CrashPlanError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
