/// One stage of a migration: its versions and kind, the declaration's custom code, and, once
/// planned, its steps in the order they run and the schemas on either side. The one value that
/// carries a stage from the declaration (the ``SchemaMigrationPlan``) through the planner and the
/// executor into the reports (``MigrationReport``) and results (``MigrationResult``).
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
    /// True when the stage takes a declared stage back, from its newer version to its older one
    /// (``from`` is then after ``to``): a migration to an older ``MigrationOptions/targetVersion``.
    public internal(set) var isReversal = false

    /// Checks on the live data that run before the steps.
    var checks: [DataCheck]
    /// Checks that run after `didMigrate`, before ``finalizingSteps``.
    var finalizingChecks: [DataCheck]

    /// The source version's stored schema (set by ``ResolvedPlan`` for a stage as declared).
    var source: Schema
    /// The target version's stored schema (set by ``ResolvedPlan`` for a stage as declared).
    var target: Schema
    /// The declaration's code before the steps (custom stages only).
    var willMigrate: (@Sendable (MigrationContext) throws -> Void)? = nil
    /// The declaration's code after the steps, before the finalizing ones (custom stages only).
    var didMigrate: (@Sendable (MigrationContext) throws -> Void)? = nil
    /// Whether the declaration says how to take the stage back: always for a lightweight stage,
    /// for a custom one only when it declares its reverse code (even as nil; set by the plan).
    var isReversible = true
    /// The declaration's code before the steps of the way back (custom stages only).
    var reverseWillMigrate: (@Sendable (MigrationContext) throws -> Void)? = nil
    /// The declaration's code after the steps of the way back.
    var reverseDidMigrate: (@Sendable (MigrationContext) throws -> Void)? = nil
    /// For a stage taking a declared one back: which tables and columns continue which, and what
    /// the way back drops.
    var reversal: StageReversal? = nil

    init(
        source: Schema, target: Schema, kind: StageKind, steps: [MigrationStep] = [],
        finalizingSteps: [MigrationStep] = []
    ) {
        self.from = source.version
        self.to = target.version
        self.kind = kind
        self.source = source
        self.target = target
        self.steps = steps
        self.finalizingSteps = finalizingSteps
        self.checks = []
        self.finalizingChecks = []
    }

    /// A stage as declared, before the plan gives it its schemas and the planner its steps.
    init(
        from: Schema.Version, to: Schema.Version, kind: StageKind,
        willMigrate: (@Sendable (MigrationContext) throws -> Void)? = nil,
        didMigrate: (@Sendable (MigrationContext) throws -> Void)? = nil
    ) {
        self.init(source: Schema(version: from, entities: []), target: Schema(version: to, entities: []), kind: kind)
        self.willMigrate = willMigrate
        self.didMigrate = didMigrate
        self.isReversible = kind == .lightweight
    }

    /// What makes an empty database `schema`: its tables with their indexes, then its views,
    /// triggers and virtual tables in the order declared, then the header values it sets. What a new install runs, and what the
    /// dry run of a missing file shows.
    static func creating(_ schema: Schema) -> PlannedStage {
        PlannedStage(
            source: schema, target: schema, kind: .lightweight,
            steps: schema.entities.map { MigrationStep(action: .createTable($0)) }
                + schema.sqlObjects.map { MigrationStep(action: .createObject($0, reason: .new)) }
                + Planner.headerChanges(from: nil, to: schema).map { MigrationStep(action: $0) })
    }

    /// The stage's versions and kind.
    public var header: StageHeader {
        var header = StageHeader(from: from, to: to, kind: kind)
        header.isReversal = isReversal
        return header
    }

    /// Whether the stage runs code of the app's.
    var runsCode: Bool { willMigrate != nil || didMigrate != nil }

    /// Every step, finalizing ones included.
    public var allSteps: [MigrationStep] { steps + finalizingSteps }
}

extension PlannedStage {
    /// Whether the source version's code keeps working on the database this stage leaves
    /// (``StageCompatibility``), from the two schemas alone.
    public var compatibility: StageCompatibility {
        StageCompatibility.classify(source: source, target: target, kind: kind)
    }
}
