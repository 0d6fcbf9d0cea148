/// The planned steps of one stage, in the order they run.
public struct PlannedStage: Sendable {
    /// The source version.
    public var from: Schema.Version
    /// The target version.
    public var to: Schema.Version
    /// Lightweight or custom.
    public var kind: StageKind
    /// The steps, in order. In a custom stage, `willMigrate` runs before the first and `didMigrate`
    /// after the last of ``steps``; ``finalizingSteps`` run after `didMigrate`.
    public var steps: [MigrationStep]
    /// Steps that run after `didMigrate` (enforcing NOT NULL on columns it had to fill).
    public var finalizingSteps: [MigrationStep]

    /// Checks on the live data that run before the steps.
    var checks: [DataCheck]
    /// Checks that run after `didMigrate`, before ``finalizingSteps``.
    var finalizingChecks: [DataCheck]

    /// Every step, finalizing ones included.
    public var allSteps: [MigrationStep] { steps + finalizingSteps }
}

/// What the SQLite library in use can do without a rebuild.
struct SQLiteCapabilities: Sendable {
    /// `ALTER TABLE … DROP COLUMN` (3.35.0).
    var dropColumn: Bool

    static var current: SQLiteCapabilities {
        let version = SQLiteConnection.libraryVersionNumber
        return SQLiteCapabilities(dropColumn: version >= 3_035_000)
    }

    /// Dropping a column rebuilds: used to test the rebuild path. (Renames always use
    /// `RENAME COLUMN`, which every SQLite this package runs on has: 3.25.0, 2018.)
    static let rebuildOnly = SQLiteCapabilities(dropColumn: false)
}
