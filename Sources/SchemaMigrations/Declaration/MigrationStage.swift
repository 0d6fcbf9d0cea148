/// A step from one version to the next.
public enum MigrationStage: Sendable {
    /// A stage the planner infers completely from the two versions.
    case lightweight(fromVersion: any VersionedSchema.Type, toVersion: any VersionedSchema.Type)
    /// A stage with code of yours around the inferred steps, all in one transaction:
    /// `willMigrate` sees the database at `fromVersion`, then the inferred steps run, then
    /// `didMigrate` sees it at `toVersion`. An error thrown by either rolls the whole stage back.
    case custom(
        fromVersion: any VersionedSchema.Type, toVersion: any VersionedSchema.Type,
        willMigrate: (@Sendable (MigrationContext) throws -> Void)?,
        didMigrate: (@Sendable (MigrationContext) throws -> Void)?)

    /// The source version.
    public var fromVersion: Schema.Version {
        switch self {
        case .lightweight(let from, _), .custom(let from, _, _, _): return from.versionIdentifier
        }
    }

    /// The target version.
    public var toVersion: Schema.Version {
        switch self {
        case .lightweight(_, let to), .custom(_, let to, _, _): return to.versionIdentifier
        }
    }
}

/// Whether a stage is inferred alone or runs code of the user's.
public enum StageKind: String, Sendable, Codable {
    case lightweight
    case custom
}
