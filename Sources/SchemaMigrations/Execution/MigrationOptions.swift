#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// How a ``Migrator`` runs.
public struct MigrationOptions: Sendable {
    /// How much of the migration one transaction covers.
    public enum TransactionScope: String, Sendable {
        /// Every stage in one transaction: all or nothing (the default).
        case wholePlan
        /// One transaction per stage: a failure keeps the stages that completed before it.
        case perStage
    }

    /// Stop at this version instead of the plan's latest. A version older than the database's
    /// takes it back: each declared stage in between is reversed from the declarations, newest
    /// first (renames undone, what the newer version added dropped, what it dropped added again
    /// with its declared default), in one transaction with the same checks as going forward; a
    /// custom stage is taken back only when it declares its reverse code. The history records each
    /// such stage as a `revert`.
    public var targetVersion: Schema.Version?
    /// Whether a way back to an older ``targetVersion`` may drop data: rows of tables, and
    /// non-empty values of columns, that the newer versions added. False by default: such a
    /// migration, and its dry run, are refused (`unsupportedChange`) naming each stage, table or
    /// column and count, before anything is written. Going forward, it changes nothing.
    public var allowDataLoss: Bool
    /// How long to wait for another connection's lock before failing, in seconds. Zero, negative
    /// and NaN do not wait; SQLite waits at most `Int32.max` milliseconds (about 24.8 days), so
    /// anything longer, infinity included, waits that long.
    public var busyTimeout: TimeInterval
    /// One transaction for the whole plan, or one per stage.
    public var transactionScope: TransactionScope
    /// When set, the database is copied here (SQLite's online backup API) before anything is
    /// written; not when it holds nothing (a new or empty file, whose schema the migration
    /// creates): ``MigrationResult/backupURL`` says whether it was.
    public var backupURL: URL?
    /// Called before each step with what is about to run.
    public var progress: (@Sendable (MigrationProgress) -> Void)?
    /// The registered SQLite VFS the migrator opens files through (`sqlite3_open_v2`'s last
    /// argument), or nil for the default one. For special storage, and for the reliability tests'
    /// fault-injecting VFS. Unused by `migrate(connection:)`, whose connection is already open.
    public var vfsName: String?
    /// When set, table rebuilds run as online changes: the application keeps writing the table
    /// and waits only for short moments (see ``OnlineRebuildOptions`` and "Online rebuilds" in
    /// MIGRATIONS.md). Each stage then commits on its own, as with ``TransactionScope/perStage``.
    public var online: OnlineRebuildOptions?
    /// The application's collations, functions and extensions, given to every connection the
    /// migrator opens (its migrations, dry runs and their copies, status, verify, baseline, and the
    /// check of declared SQL): a database whose indexes, CHECKs or generated columns need them is
    /// read and rebuilt as the application reads it. Unused by `migrate(connection:)`, whose
    /// connection the app prepared itself.
    ///
    /// ```swift
    /// let options = MigrationOptions(sqlEnvironment: SQLEnvironment(
    ///     collations: [SQLCollation("unicase") { $0.lowercased() == $1.lowercased() ? .orderedSame : $0.lowercased() < $1.lowercased() ? .orderedAscending : .orderedDescending }],
    ///     extensions: [SQLExtension(path: "/usr/lib/app/libappsql.so")]))
    /// try Migrator(plan: AppMigrationPlan.self, options: options).migrate(databaseAt: url)
    /// ```
    public var sqlEnvironment: SQLEnvironment
    /// When true, a migration with a pending stage that breaks the code of the version it starts
    /// from (``StageCompatibility``: a column that code reads renamed or dropped, a NOT NULL column
    /// its inserts leave out, …) is refused before anything is written, with the code
    /// `incompatibleChange`, naming each such stage and reason: for a rolling deploy, where
    /// instances of the previous version still run. The dry run (``Migrator/plan(databaseAt:)``)
    /// lists the same refusal. A custom stage is judged by its declared schema change; its code is
    /// not classified. Off by default.
    public var requireCompatible = false

    /// Options; each defaults to what a migration does without being asked (the latest version, one transaction, no backup).
    public init(
        targetVersion: Schema.Version? = nil, busyTimeout: TimeInterval = 5,
        transactionScope: TransactionScope = .wholePlan,
        backupURL: URL? = nil, progress: (@Sendable (MigrationProgress) -> Void)? = nil, vfsName: String? = nil,
        sqlEnvironment: SQLEnvironment = .none, online: OnlineRebuildOptions? = nil, allowDataLoss: Bool = false
    ) {
        self.online = online
        self.allowDataLoss = allowDataLoss
        self.targetVersion = targetVersion
        self.busyTimeout = busyTimeout
        self.transactionScope = transactionScope
        self.backupURL = backupURL
        self.progress = progress
        self.vfsName = vfsName
        self.sqlEnvironment = sqlEnvironment
    }
}
