#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension OnlineChangeStatus: CustomStringConvertible {
    /// The change as `migrate status` shows it: its stage and phase, each table's copy, and
    /// whether the run that owns it is alive.
    ///
    /// ```
    /// online change: 1.0.0 → 2.0.0 (plan 'default'), copying; the database stays at 1.0.0 until the cut-over
    ///   Person: copying, up to rowid 1200 of 6000 (20.0%)
    ///   owner: host:4242 (running)
    ///   heartbeat 0.3 s ago, started 2.5 s ago
    /// ```
    public var description: String { lines(now: Date()).joined(separator: "\n") }

    /// ``description``, line by line, with the ages counted from `now`.
    package func lines(now: Date) -> [String] {
        let phase =
            self.phase == .copying
            ? "copying; the database stays at \(from) until the cut-over"
            : "releasing the old tables; the cut-over to \(to) committed"
        var lines = ["online change: \(from) → \(to) (plan '\(plan)'), \(phase)"]
        lines += tables.map { "  \($0.name): \($0.progress)" }
        lines.append(
            "  owner: \(owner) (\(ownerIsAlive ? "running" : "stopped: the next migration picks the change up"))")
        lines.append(
            "  heartbeat \(Self.seconds(now.timeIntervalSince(heartbeat))) ago, started \(Self.seconds(now.timeIntervalSince(startedAt))) ago"
        )
        return lines
    }

    private static func seconds(_ interval: TimeInterval) -> String { "\(max(0, interval).fixedPoint(1)) s" }
}

extension OnlineChangeStatus.Table {
    /// `copied`, `waiting`, `copying, up to rowid 1200 of 6000 (20.0%)`, `old table being released`.
    var progress: String {
        switch state {
        case .copied: return "copied"
        case .waiting: return "waiting"
        case .releasing: return "old table being released"
        case .copying:
            guard let highWater else {
                return "copying, no chunk yet" + (maxRowid.map { " (largest rowid \($0))" } ?? "")
            }
            guard let largest = maxRowid else { return "copying, up to rowid \(highWater)" }
            let share =
                highWater > 0 && largest > 0
                ? " (\((Double(min(highWater, largest)) / Double(largest) * 100).fixedPoint(1))%)" : ""
            return "copying, up to rowid \(highWater) of \(largest)\(share)"
        }
    }
}
