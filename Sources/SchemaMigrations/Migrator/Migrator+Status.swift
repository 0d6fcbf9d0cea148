#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Where a database stands against a plan: the version it is at, and the stages a migration
/// would run to reach the target. Read without writing.
///
/// ```swift
/// let status = try Migrator(plan: TripsMigrationPlan.self).status(databaseAt: url)
/// if !status.isUpToDate { print("pending:", status.pendingStages.map(\.description)) }
/// ```
public struct MigrationStatus: Sendable, Hashable {
    /// The database's path.
    public var database: String
    /// The version it is at; nil when it holds none of the plan's tables.
    public var currentVersion: Schema.Version?
    /// True when the database's metadata records its version; false when it was recognised by
    /// its tables (a migration then records it) or is empty.
    public var isRecorded: Bool
    /// The version a migration would bring it to.
    public var targetVersion: Schema.Version
    /// The stages a migration would run, in order.
    public var pendingStages: [StageHeader]
    /// Other migration tools' bookkeeping found in the file (GRDB's `grdb_migrations`, …): which
    /// tool managed it before and what it recorded. Those tables are left alone.
    public var otherTools: [ForeignMigrationHistory] = []
    /// The online change in progress on the database (``MigrationOptions/online``), nil when none:
    /// its stage, tables, phase, how far its copy is, and whether the run that owns it is alive.
    public var onlineChange: OnlineChangeStatus?
    /// What the pending migration needs that this connection lacks (a collation or function the
    /// application registers, an extension's module), one sentence each with its remedy; empty
    /// when nothing is pending or nothing is missing. Status reads without them; `apply` refuses.
    public var environmentNeeds: [String] = []

    /// True when a migration would write nothing.
    public var isUpToDate: Bool { isRecorded && currentVersion == targetVersion }
}

extension Migrator {
    /// The version the database at `url` is at and the stages pending. Read-only, and fast: the
    /// live schema is compared with the recorded version only when `PRAGMA schema_version` shows
    /// it changed since the last migration. A missing file is reported as empty.
    /// - Throws: `MigrationError`: `drift`, `newerVersion`, `unknownVersion`, `notADatabase`, or
    ///   `unsupportedChange` when the target is older than the database.
    public func status(databaseAt url: URL) throws -> MigrationStatus {
        try status(databaseAt: url, introspecting: false)
    }

    /// Checks that the live schema of the database at `url` matches the version it records,
    /// introspecting every table whatever `PRAGMA schema_version` says. Read-only.
    ///
    /// ```swift
    /// do { _ = try migrator.verify(databaseAt: url) } catch let error as MigrationError where error.code == .drift { … }
    /// ```
    /// - Returns: the status; a database with no metadata passes when its tables match a declared version.
    /// - Throws: `MigrationError` with code `drift` listing the differences, or as ``status(databaseAt:)``.
    public func verify(databaseAt url: URL) throws -> MigrationStatus {
        try status(databaseAt: url, introspecting: true)
    }

    private func status(databaseAt url: URL, introspecting: Bool) throws -> MigrationStatus {
        guard FileManager.default.fileExists(atPath: url.path) else {
            var status = try status(reading: nil, introspecting: introspecting)
            status.database = url.path
            return status
        }
        return try advising(url) {
            try status(reading: try open(url, mode: .readOnly), introspecting: introspecting)
        }
    }

    /// The status of the database `db` reads (nil for one that does not exist yet), through any
    /// connection that answers queries: a local file's, or a dqlite cluster's leader.
    package func status(reading db: (any SQLQuerying)?, introspecting: Bool) throws -> MigrationStatus {
        let plan = try resolvedPlan()
        let target = try targetVersion(of: plan)
        let state =
            try db.map { try VersionDetection(plan: plan, db: $0).detect(trustCookie: !introspecting) } ?? .empty
        var status = MigrationStatus(
            database: db?.path ?? "", currentVersion: state.version, isRecorded: false,
            targetVersion: target, pendingStages: [])
        if let db {
            do {
                status.otherTools = try ForeignMigrationHistory.read(from: db)
            } catch let error as SQLiteError {
                throw MigrationError.wrap(error, message: "cannot read other migration tools' tables in '\(db.path)'")
            }
            do {
                status.onlineChange = try OnlineChangeStatus.read(from: db)
            } catch let error as SQLiteError {
                throw MigrationError.wrap(error, message: "cannot read the online change in progress in '\(db.path)'")
            }
        }
        var pending: [PlannedStage] = []
        switch state {
        case .empty:
            status.pendingStages = [.init(from: nil, to: target, kind: .lightweight)]
            if let schema = plan.declaredSchema(for: target) { pending = [PlannedStage.creating(schema)] }
        case .recorded(let current), .unversioned(let current):
            if case .recorded = state { status.isRecorded = true }
            if current > target {
                // A way back: its stages, each taken back, newest first (refused here as apply refuses it).
                pending = try plan.plannedStages(from: current, to: target)
                status.pendingStages = pending.map(\.header)
                break
            }
            status.pendingStages = plan.stages.filter { $0.from >= current && $0.to <= target }.map(\.header)
            // A pending stage the planner refuses (an originalName naming nothing, a change a
            // lightweight stage cannot make) is refused here as `plan` and `apply` refuse it, in
            // their words, so that a pipeline gating on status never passes a broken plan. Only
            // when something is pending: the up-to-date check stays O(1).
            if !status.pendingStages.isEmpty { pending = try plan.plannedStages(from: current, to: target) }
        }
        // What the pending stages will need that the connection lacks: the refusal `apply` would
        // give first, said here as advice (a cluster's leader, which has no SQL environment to
        // lend, is not asked).
        if let db = db as? any MigrationDatabase, !pending.isEmpty,
            let refusal = try SQLEnvironmentCheck(db: db).refusal(for: pending, version: target)
        {
            status.environmentNeeds = [refusal.message + (refusal.remedy.map { "; fix: " + $0 } ?? "")]
        }
        return status
    }

    /// The target version the options name, checked against the plan.
    func targetVersion(of plan: ResolvedPlan) throws -> Schema.Version {
        try plan.target(options.targetVersion).version
    }
}
