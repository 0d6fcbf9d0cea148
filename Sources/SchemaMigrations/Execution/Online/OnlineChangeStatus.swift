#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An online change in progress on a database, as ``MigrationStatus/onlineChange`` reports it:
/// which stage, which tables, how far the copy is, and who runs it. Read without writing.
///
/// ```swift
/// if let change = try migrator.status(databaseAt: url).onlineChange {
///     print(change.phase, change.tables.map(\.name), change.ownerIsAlive ? "running" : "stopped")
/// }
/// ```
public struct OnlineChangeStatus: Sendable, Hashable {
    /// Where the change stands.
    public enum Phase: String, Sendable, Hashable {
        /// The shadow tables are being filled, chunk by chunk; the database is at ``OnlineChangeStatus/from``.
        case copying
        /// The cut-over committed (the database is at ``OnlineChangeStatus/to``); the old tables
        /// set aside are being emptied in chunks and dropped.
        case releasing
    }

    /// One table of the change.
    public struct Table: Sendable, Hashable {
        /// Where a table stands in its change.
        public enum State: String, Sendable, Hashable {
            /// Completely copied into its shadow (the triggers keep it in step until the cut-over).
            case copied
            /// Being copied: ``Table/highWater`` is the last rowid copied.
            case copying
            /// Not started: it follows the table being copied.
            case waiting
            /// Its old version, set aside by the cut-over, is being released.
            case releasing
        }

        /// The table's name (as the application knows it).
        public var name: String
        /// How far the table's online change is.
        public var state: State
        /// The last rowid copied into the shadow (``State/copying`` only; nil before the first chunk).
        public var highWater: Int64?
        /// The table's largest rowid now (nil when it is empty or gone): with ``highWater``, how
        /// far the copy is, in rowid order.
        public var maxRowid: Int64?
    }

    /// The plan whose stage this is.
    public var plan: String
    /// The stage's versions.
    public var from: Schema.Version
    /// The version the stage reaches.
    public var to: Schema.Version
    /// How far the change is: copying into the shadows, or releasing the old tables after the cut-over.
    public var phase: Phase
    /// The stage's rebuilt tables, in the order the copy takes them.
    public var tables: [Table]
    /// When the change was prepared.
    public var startedAt: Date
    /// Its run's last sign of life (after each chunk, and every few seconds of a pause).
    public var heartbeat: Date
    /// The run that owns it, as `host:pid`.
    public var owner: String
    /// Whether that run is alive: its process runs (on this host), or it gave a sign of life
    /// within 30 seconds (elsewhere). A change whose owner is gone is resumed by the next online
    /// migration, and cleared by the next migration without the option.
    public var ownerIsAlive: Bool

    /// True when nothing moves the change on: its run stopped (its process ended, or it has been
    /// silent for 30 seconds), so the copy or the release waits where it is, holding no lock, for
    /// the next online migration to resume it.
    public var isPaused: Bool { !ownerIsAlive }
}

extension OnlineChangeStatus {
    /// The change recorded in the database, nil when none. Cheap: one row, and each table's
    /// largest rowid (an index lookup).
    static func read(from db: any SQLQuerying) throws -> OnlineChangeStatus? {
        guard let state = try OnlineState.read(from: db) else { return nil }
        let prefix = state.phase == .copying ? TableNames.onlinePrefix : TableNames.releasedPrefix
        var tables: [Table] = []
        for (index, stored) in state.tables.enumerated() {
            let name = stored.hasPrefix(prefix) ? String(stored.dropFirst(prefix.count)) : stored
            let tableState: Table.State
            switch state.phase {
            case .releasing: tableState = .releasing
            case .copying: tableState = index < state.copied ? .copied : index == state.copied ? .copying : .waiting
            }
            let measured = state.phase == .copying ? name : stored
            tables.append(
                Table(
                    name: name, state: tableState, highWater: tableState == .copying ? state.highWater : nil,
                    maxRowid: try largestRowid(of: measured, in: db)))
        }
        return OnlineChangeStatus(
            plan: state.plan, from: state.from, to: state.to, phase: state.phase == .copying ? .copying : .releasing,
            tables: tables, startedAt: state.startedAt, heartbeat: state.heartbeat, owner: state.owner,
            ownerIsAlive: state.ownerIsAlive)
    }

    /// `max(rowid)` of a table, through a rowid alias no column shadows; nil when it is empty or missing.
    private static func largestRowid(of table: String, in db: any SQLQuerying) throws -> Int64? {
        let columns = try db.rows("SELECT name FROM pragma_table_xinfo(?)", [.text(table)]).compactMap {
            $0.first?.stringValue?.sqlFolded
        }
        guard !columns.isEmpty, let rowid = SQL.freeRowidName(isColumn: columns.contains) else {
            return nil
        }
        return try db.scalar("SELECT max(\(rowid)) FROM \(SQL.quoteIdentifier(table))")?.int64Value
    }
}
