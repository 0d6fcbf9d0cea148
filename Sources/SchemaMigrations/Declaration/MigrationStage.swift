/// A step from one version to the next.
public enum MigrationStage: Sendable {
    /// A stage the planner infers completely from the two versions. Taken back too: migrating
    /// to an older version reverses it from the declarations (see ``MigrationOptions/targetVersion``).
    case lightweight(fromVersion: any VersionedSchema.Type, toVersion: any VersionedSchema.Type)
    /// A stage with code of yours around the inferred steps, all in one transaction:
    /// `willMigrate` sees the database at `fromVersion`, then the inferred steps run, then
    /// `didMigrate` sees it at `toVersion`. An error thrown by either rolls the whole stage back.
    /// A database past it is never taken back below `fromVersion`: declare the way back with
    /// ``custom(fromVersion:toVersion:willMigrate:didMigrate:reverseWillMigrate:reverseDidMigrate:)``.
    case custom(
        fromVersion: any VersionedSchema.Type, toVersion: any VersionedSchema.Type,
        willMigrate: (@Sendable (MigrationContext) throws -> Void)?,
        didMigrate: (@Sendable (MigrationContext) throws -> Void)?)
    /// A custom stage that declares its way back: spelled
    /// ``custom(fromVersion:toVersion:willMigrate:didMigrate:reverseWillMigrate:reverseDidMigrate:)``.
    case reversibleCustom(
        fromVersion: any VersionedSchema.Type, toVersion: any VersionedSchema.Type,
        willMigrate: (@Sendable (MigrationContext) throws -> Void)?,
        didMigrate: (@Sendable (MigrationContext) throws -> Void)?,
        reverseWillMigrate: (@Sendable (MigrationContext) throws -> Void)?,
        reverseDidMigrate: (@Sendable (MigrationContext) throws -> Void)?)

    /// A custom stage that can also be taken back, from `toVersion` to `fromVersion`.
    ///
    /// On the way forward it is ``custom(fromVersion:toVersion:willMigrate:didMigrate:)``. On the
    /// way back the steps are inferred from the declarations as for a lightweight stage, turned
    /// around (renames undone, what `toVersion` added dropped, what it dropped added again with its
    /// declared default), and `reverseWillMigrate` sees the database at `toVersion` before them,
    /// `reverseDidMigrate` at `fromVersion` after them, in the same transaction. Passing `nil` for
    /// both says that the inferred steps alone take the stage back.
    ///
    /// ```swift
    /// .custom(
    ///     fromVersion: TripsSchemaV1.self, toVersion: TripsSchemaV2.self,
    ///     willMigrate: nil,
    ///     didMigrate: { context in try context.execute("UPDATE Trip SET notes = 'imported'") },
    ///     reverseWillMigrate: { context in try context.execute("DELETE FROM Trip WHERE notes = 'new'") },
    ///     reverseDidMigrate: nil)
    /// ```
    /// - Returns: the stage.
    public static func custom(
        fromVersion: any VersionedSchema.Type, toVersion: any VersionedSchema.Type,
        willMigrate: (@Sendable (MigrationContext) throws -> Void)?,
        didMigrate: (@Sendable (MigrationContext) throws -> Void)?,
        reverseWillMigrate: (@Sendable (MigrationContext) throws -> Void)?,
        reverseDidMigrate: (@Sendable (MigrationContext) throws -> Void)?
    ) -> MigrationStage {
        .reversibleCustom(
            fromVersion: fromVersion, toVersion: toVersion, willMigrate: willMigrate, didMigrate: didMigrate,
            reverseWillMigrate: reverseWillMigrate, reverseDidMigrate: reverseDidMigrate)
    }

    /// The source version.
    public var fromVersion: Schema.Version {
        switch self {
        case .lightweight(let from, _), .custom(let from, _, _, _), .reversibleCustom(let from, _, _, _, _, _):
            return from.versionIdentifier
        }
    }

    /// The target version.
    public var toVersion: Schema.Version {
        switch self {
        case .lightweight(_, let to), .custom(_, let to, _, _), .reversibleCustom(_, let to, _, _, _, _):
            return to.versionIdentifier
        }
    }
}

/// Whether a stage is inferred alone or runs code of the user's.
public enum StageKind: String, Sendable, Codable {
    case lightweight
    case custom
}
