#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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

extension MigrationResult {
    /// This result, then `next` (run in a transaction of its own): one result for both.
    func followed(by next: MigrationResult, started: Date) -> MigrationResult {
        MigrationResult(outcome: next.outcome == .upToDate ? outcome : next.outcome, fromVersion: fromVersion, toVersion: next.toVersion,
                        adopted: adopted || next.adopted, stages: stages + next.stages, duration: Date().timeIntervalSince(started))
    }
}
