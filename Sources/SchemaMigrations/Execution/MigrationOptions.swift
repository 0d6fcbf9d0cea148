import Foundation

/// How a ``Migrator`` runs.
public struct MigrationOptions: Sendable {
    /// How much of the migration one transaction covers.
    public enum TransactionScope: String, Sendable {
        /// Every stage in one transaction: all or nothing (the default).
        case wholePlan
        /// One transaction per stage: a failure keeps the stages that completed before it.
        case perStage
    }

    /// Stop at this version instead of the plan's latest.
    public var targetVersion: Schema.Version?
    /// How long to wait for another connection's lock before failing.
    public var busyTimeout: TimeInterval
    /// One transaction for the whole plan, or one per stage.
    public var transactionScope: TransactionScope
    /// When set, the database is copied here (SQLite's online backup API) before anything is written.
    public var backupURL: URL?
    /// Called before each step with what is about to run.
    public var progress: (@Sendable (MigrationProgress) -> Void)?

    public init(targetVersion: Schema.Version? = nil, busyTimeout: TimeInterval = 5, transactionScope: TransactionScope = .wholePlan,
                backupURL: URL? = nil, progress: (@Sendable (MigrationProgress) -> Void)? = nil) {
        self.targetVersion = targetVersion
        self.busyTimeout = busyTimeout
        self.transactionScope = transactionScope
        self.backupURL = backupURL
        self.progress = progress
    }
}

/// What a migration is doing, reported before each step.
public struct MigrationProgress: Sendable, CustomStringConvertible {
    /// The stage's source version (nil when creating the schema in an empty database).
    public var from: Schema.Version?
    /// The stage's target version.
    public var to: Schema.Version
    /// The 0-based index of the step within its stage.
    public var stepIndex: Int
    /// The number of steps in the stage.
    public var stepCount: Int
    /// The step, in words.
    public var summary: String
    /// While a custom stage enumerates rows: how many are done.
    public var rowsDone: Int?
    /// While a custom stage enumerates rows: how many there are.
    public var rowsTotal: Int?

    public init(from: Schema.Version?, to: Schema.Version, stepIndex: Int, stepCount: Int, summary: String, rowsDone: Int? = nil, rowsTotal: Int? = nil) {
        self.from = from
        self.to = to
        self.stepIndex = stepIndex
        self.stepCount = stepCount
        self.summary = summary
        self.rowsDone = rowsDone
        self.rowsTotal = rowsTotal
    }

    public var description: String {
        "\(from.map { "\($0) → " } ?? "")\(to) [\(stepIndex + 1)/\(stepCount)] \(summary)"
    }
}

/// What a migration did.
public struct MigrationResult: Sendable {
    /// What happened, in one word.
    public enum Outcome: String, Sendable {
        /// The database was already at the target version: nothing was written.
        case upToDate
        /// The database was empty: the target schema was created directly.
        case created
        /// Stages ran.
        case migrated
    }

    public var outcome: Outcome
    /// The version before the migration (nil for an empty database).
    public var fromVersion: Schema.Version?
    /// The version after it.
    public var toVersion: Schema.Version
    /// True when an unversioned database was recognised as a declared version and adopted.
    public var adopted: Bool
    /// The stages that ran, with their steps.
    public var stages: [PlannedStage]
    /// How long it took, in seconds.
    public var duration: TimeInterval
}
