#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What a migration did.
public struct MigrationResult: Sendable, CustomStringConvertible {
    /// What happened, in one word.
    public enum Outcome: String, Sendable {
        /// The database was already at the target version: nothing was written.
        case upToDate
        /// The database was empty: the target schema was created directly.
        case created
        /// Stages ran.
        case migrated
    }

    /// Whether the file was created, adopted, migrated or already up to date.
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
    /// The backup written before anything else (``MigrationOptions/backupURL``); nil when none
    /// was asked, when the database was already current, or when it held nothing to back up (a
    /// new or empty file, which the migration creates).
    public var backupURL: URL? = nil
}

extension MigrationResult {
    /// The result as `migrate apply` prints it: what happened, then each stage's steps.
    ///
    /// ```
    /// migrated 1.0.0 → 2.0.0 in 3.2 ms
    ///   stage 1.0.0 → 2.0.0 (lightweight): Add column Trip.notes TEXT
    /// ```
    public var description: String {
        ([summary]
            + stages.map { stage in
                (outcome == .created ? "  create \(stage.to): " : "  stage \(stage.header): ")
                    + stage.allSteps.map(\.summary).joined(separator: "; ")
            }).joined(separator: "\n")
    }

    /// What happened, in one line: `up to date at 2.0.0: nothing written`, `migrated 1.0.0 → 2.0.0 in 3.2 ms`,
    /// `reverted 3.0.0 → 2.0.0 in 2.9 ms` (taken back to an older version).
    package var summary: String {
        let milliseconds = (duration * 1000).fixedPoint(1) + " ms"
        switch outcome {
        case .upToDate: return "up to date at \(toVersion): nothing written"
        case .created: return "created version \(toVersion) in an empty database in \(milliseconds)"
        case .migrated:
            let verb = stages.first?.isReversal == true ? "reverted" : "migrated"
            return "\(verb) \(fromVersion.map(\.description) ?? "empty") → \(toVersion) in \(milliseconds)"
                + (adopted ? " (its version, found by its tables, is now recorded)" : "")
        }
    }

    /// This result, then `next` (run in a transaction of its own): one result for both.
    func followed(by next: MigrationResult, started: Date) -> MigrationResult {
        MigrationResult(
            outcome: next.outcome == .upToDate ? outcome : next.outcome, fromVersion: fromVersion,
            toVersion: next.toVersion,
            adopted: adopted || next.adopted, stages: stages + next.stages, duration: Date().timeIntervalSince(started))
    }
}
