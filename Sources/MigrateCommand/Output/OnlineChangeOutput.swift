import SchemaMigrations

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// How `status` writes an online change in progress as JSON (its text is the change's description).
enum OnlineChangeOutput {
    /// The `onlineChange` object (null when there is none): every key always there.
    static func json(_ change: OnlineChangeStatus?, now: Date = Date()) -> Any {
        guard let change else { return JSONNull() }
        return [
            "plan": change.plan, "from": change.from.description, "to": change.to.description,
            "phase": change.phase.rawValue,
            "tables": change.tables.map { table -> [String: Any] in
                [
                    "name": table.name, "state": table.state.rawValue,
                    "highWater": table.highWater.map { $0 as Any } ?? JSONNull(),
                    "maxRowid": table.maxRowid.map { $0 as Any } ?? JSONNull(),
                ]
            },
            "owner": change.owner, "ownerAlive": change.ownerIsAlive, "paused": change.isPaused,
            "startedAt": SystemCalls.iso8601UTC(change.startedAt),
            "heartbeat": SystemCalls.iso8601UTC(change.heartbeat),
            "heartbeatAgeSeconds": (now.timeIntervalSince(change.heartbeat) * 10).rounded() / 10,
        ] as [String: Any]
    }

    private static func seconds(_ interval: TimeInterval) -> String { "\(max(0, interval).fixedPoint(1)) s" }
}
