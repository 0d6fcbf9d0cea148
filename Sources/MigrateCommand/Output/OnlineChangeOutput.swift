#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SchemaMigrations

/// How `status` shows an online change in progress: its stage and phase, each table's copy, and
/// whether the run that owns it is alive.
enum OnlineChangeOutput {
    /// ```
    /// online change: 1.0.0 → 2.0.0 (plan 'default'), copying; the database stays at 1.0.0 until the cut-over
    ///   Person: copying, up to rowid 1200 of 6000 (20.0%)
    ///   owner: host:4242 (running)
    ///   heartbeat 0.3 s ago, started 2.5 s ago
    /// ```
    static func lines(_ change: OnlineChangeStatus, now: Date = Date()) -> [String] {
        let phase = change.phase == .copying
            ? "copying; the database stays at \(change.from) until the cut-over"
            : "releasing the old tables; the cut-over to \(change.to) committed"
        var lines = ["online change: \(change.from) → \(change.to) (plan '\(change.plan)'), \(phase)"]
        lines += change.tables.map { "  \($0.name): \(describe($0))" }
        lines.append("  owner: \(change.owner) (\(change.ownerIsAlive ? "running" : "stopped: the next migration picks the change up"))")
        lines.append("  heartbeat \(seconds(now.timeIntervalSince(change.heartbeat))) ago, started \(seconds(now.timeIntervalSince(change.startedAt))) ago")
        return lines
    }

    /// `copied`, `waiting`, `copying, up to rowid 1200 of 6000 (20.0%)`, `old table being released`.
    static func describe(_ table: OnlineChangeStatus.Table) -> String {
        switch table.state {
        case .copied: return "copied"
        case .waiting: return "waiting"
        case .releasing: return "old table being released"
        case .copying:
            guard let highWater = table.highWater else {
                return "copying, no chunk yet" + (table.maxRowid.map { " (largest rowid \($0))" } ?? "")
            }
            guard let largest = table.maxRowid else { return "copying, up to rowid \(highWater)" }
            let share = highWater > 0 && largest > 0 ? " (\((Double(min(highWater, largest)) / Double(largest) * 100).fixedPoint(1))%)" : ""
            return "copying, up to rowid \(highWater) of \(largest)\(share)"
        }
    }

    /// The `onlineChange` object (null when there is none): every key always there.
    static func json(_ change: OnlineChangeStatus?, now: Date = Date()) -> Any {
        guard let change else { return JSONNull() }
        return [
            "plan": change.plan, "from": change.from.description, "to": change.to.description, "phase": change.phase.rawValue,
            "tables": change.tables.map { table -> [String: Any] in
                ["name": table.name, "state": table.state.rawValue,
                 "highWater": table.highWater.map { $0 as Any } ?? JSONNull(), "maxRowid": table.maxRowid.map { $0 as Any } ?? JSONNull()]
            },
            "owner": change.owner, "ownerAlive": change.ownerIsAlive,
            "startedAt": SystemCalls.iso8601UTC(change.startedAt), "heartbeat": SystemCalls.iso8601UTC(change.heartbeat),
            "heartbeatAgeSeconds": (now.timeIntervalSince(change.heartbeat) * 10).rounded() / 10,
        ] as [String: Any]
    }

    private static func seconds(_ interval: TimeInterval) -> String { "\(max(0, interval).fixedPoint(1)) s" }
}
