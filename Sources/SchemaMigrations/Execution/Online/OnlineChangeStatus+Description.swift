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
    ///
    /// A change whose run stopped is ``isPaused``, and says so with what it knows:
    ///
    /// ```
    /// online change: 1.0.0 → 2.0.0 (plan 'default'), paused: its run stopped; the database stays at 1.0.0 until the next online migration resumes the copy and cuts over
    ///   Person: paused after copying up to rowid 1200 of 6000 (20.0%)
    ///   owner: host:4242 (stopped: the next migration picks the change up)
    ///   last heartbeat 95.0 s ago, started 97.5 s ago
    /// ```
    public var description: String { lines(now: Date()).joined(separator: "\n") }

    /// ``description``, line by line, with the ages counted from `now`.
    package func lines(now: Date) -> [String] {
        let phase: String
        switch (self.phase, isPaused) {
        case (.copying, false): phase = "copying; the database stays at \(from) until the cut-over"
        case (.copying, true):
            phase =
                "paused: its run stopped; the database stays at \(from) until the next online migration resumes the copy and cuts over"
        case (.releasing, false): phase = "releasing the old tables; the cut-over to \(to) committed"
        case (.releasing, true):
            phase =
                "releasing the old tables, paused: its run stopped; the cut-over to \(to) committed, the next migration finishes the release"
        }
        var lines = ["online change: \(from) → \(to) (plan '\(plan)'), \(phase)"]
        lines += tables.map { "  \($0.name): \($0.progress(paused: isPaused))" }
        lines.append(
            "  owner: \(owner) (\(ownerIsAlive ? "running" : "stopped: the next migration picks the change up"))")
        lines.append(
            "  \(isPaused ? "last " : "")heartbeat \(Self.seconds(now.timeIntervalSince(heartbeat))) ago, started \(Self.seconds(now.timeIntervalSince(startedAt))) ago"
        )
        return lines
    }

    private static func seconds(_ interval: TimeInterval) -> String { "\(max(0, interval).fixedPoint(1)) s" }
}

extension OnlineChangeStatus.Table {
    /// `copied`, `waiting`, `copying, up to rowid 1200 of 6000 (20.0%)`, `old table being released`;
    /// when the change is paused, `paused after copying up to rowid 1200 of 6000 (20.0%)`,
    /// `paused, no chunk copied yet`, `old table being released (paused)`.
    func progress(paused: Bool) -> String {
        switch state {
        case .copied: return "copied"
        case .waiting: return "waiting"
        case .releasing: return "old table being released" + (paused ? " (paused)" : "")
        case .copying:
            guard let highWater else {
                return (paused ? "paused, no chunk copied yet" : "copying, no chunk yet")
                    + (maxRowid.map { " (largest rowid \($0))" } ?? "")
            }
            let head = paused ? "paused after copying" : "copying,"
            guard let largest = maxRowid else { return "\(head) up to rowid \(highWater)" }
            let share =
                highWater > 0 && largest > 0
                ? " (\((Double(min(highWater, largest)) / Double(largest) * 100).fixedPoint(1))%)" : ""
            return "\(head) up to rowid \(highWater) of \(largest)\(share)"
        }
    }
}
