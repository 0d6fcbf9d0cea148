#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What a migration is doing: sent before each step, then, inside the long ones, as they go
/// (rows copied by a rebuild, a heartbeat while an index is built, pages of the backup, rows a
/// custom stage enumerated).
///
/// ```swift
/// options.progress = { event in
///     if let fraction = event.fraction { print(event.summary, Int(fraction * 100), "%") }
/// }
/// ```
/// The callback runs on the migrating thread, inside SQLite's progress handler for rows and
/// heartbeats: it must return quickly and must not use the database.
public struct MigrationProgress: Sendable, CustomStringConvertible {
    /// What the event reports.
    public enum Activity: String, Sendable {
        /// A step is about to run.
        case step
        /// A rebuild copies rows into the new table (``rowsDone`` of ``rowsTotal``).
        case copyingRows
        /// An index is being built (a heartbeat: ``elapsed`` only).
        case buildingIndex
        /// The backup copies pages (``pagesDone`` of ``pagesTotal``).
        case backingUp
        /// A custom stage enumerates rows (``rowsDone`` of ``rowsTotal``).
        case customStage
        /// A custom stage's code starts (``elapsed`` 0), or runs and reported nothing for a second
        /// (a heartbeat: ``elapsed`` only).
        case runningCode
        /// An online change copies rows into its shadow table, one short transaction per chunk
        /// (``rowsDone`` of about ``rowsTotal``, ``rowsPerSecond``, ``secondsLeft``).
        case copyingOnline
        /// An online change is paused by its ``OnlineRebuildOptions/shouldPause`` (a heartbeat).
        case paused
        /// An online change swaps the shadow in, in one short transaction.
        case cuttingOver
        /// The table an online cut-over set aside is emptied in chunks (``rowsDone`` of ``rowsTotal``).
        case releasingOldTable
    }

    /// The stage's source version (nil when creating the schema in an empty database).
    public var from: Schema.Version?
    /// The stage's target version.
    public var to: Schema.Version
    /// The 0-based index of the step within the run: every step a migration performs is numbered
    /// once, across its stages (the backup, each stage's `willMigrate`, its steps, its
    /// `didMigrate` and the steps after it); the events inside a step carry its index.
    public var stepIndex: Int
    /// The number of steps the run performs, the same in every event of the run.
    public var stepCount: Int
    /// The step, in words.
    public var summary: String
    /// Rows done, while a rebuild copies or a custom stage enumerates them.
    public var rowsDone: Int?
    /// Rows in all, while a rebuild copies or a custom stage enumerates them.
    public var rowsTotal: Int?
    /// What the event reports.
    public var activity: Activity
    /// Pages copied so far, during the backup.
    public var pagesDone: Int?
    /// Pages in all, during the backup.
    public var pagesTotal: Int?
    /// Seconds since the activity began (copying, building, backing up).
    public var elapsed: TimeInterval?
    /// Rows per second, while an online change copies.
    public var rowsPerSecond: Double?
    /// The estimated seconds left, while an online change copies.
    public var secondsLeft: Double?

    /// An event of `stepIndex` of `stepCount` steps of the stage from `from` to `to`, with what it counts.
    public init(
        from: Schema.Version?, to: Schema.Version, stepIndex: Int, stepCount: Int, summary: String,
        rowsDone: Int? = nil, rowsTotal: Int? = nil,
        activity: Activity? = nil, pagesDone: Int? = nil, pagesTotal: Int? = nil, elapsed: TimeInterval? = nil
    ) {
        self.from = from
        self.to = to
        self.stepIndex = stepIndex
        self.stepCount = stepCount
        self.summary = summary
        self.rowsDone = rowsDone
        self.rowsTotal = rowsTotal
        self.activity = activity ?? (rowsDone != nil ? .customStage : .step)
        self.pagesDone = pagesDone
        self.pagesTotal = pagesTotal
        self.elapsed = elapsed
    }

    /// How far the activity is, from 0 to 1, when it can tell (rows or pages).
    public var fraction: Double? {
        if let done = rowsDone, let total = rowsTotal { return total == 0 ? 1 : min(1, Double(done) / Double(total)) }
        if let done = pagesDone, let total = pagesTotal { return total == 0 ? 1 : min(1, Double(done) / Double(total)) }
        return nil
    }

    /// True for the last event of an activity that counts (all rows or pages done).
    public var isFinished: Bool { fraction == 1 }

    /// The event in one line: `from → to [step/steps] summary`, numbered across the run.
    public var description: String {
        "\(from.map { "\($0) → " } ?? "")\(to) [\(stepIndex + 1)/\(stepCount)] \(summary)"
    }
}
