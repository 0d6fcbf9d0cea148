import SchemaMigrations

/// The command's exit statuses, the contract deploy pipelines rely on.
///
/// ```sh
/// migrate status --plan plan/ --database app.sqlite; [ $? -eq 3 ] && echo "migrations pending"
/// ```
public enum MigrateExitCode: Int32, Sendable, CaseIterable, CustomStringConvertible {
    /// 0: done, or nothing to do.
    case success = 0
    /// 1: the migration failed and was rolled back: the database is as it was.
    case failed = 1
    /// 2: the command line is wrong, or the plan cannot be loaded.
    case usageError = 2
    /// 3: migrations are pending (`status`).
    case pending = 3
    /// 4: the live schema does not match the version the database records (`verify`, or found before `apply`).
    case drift = 4
    /// 5: refused: the database is newer than the plan, of an unknown version, or not a database;
    /// the plan cannot make a change safely (or not online: a custom stage under `--online`); or
    /// `--deny-destructive` met a step that can lose data, or `--require-compatible` a stage that
    /// breaks the previous version's code; or `snapshot` was asked for a directory
    /// the command could not load (a plan with a custom stage) or a table it cannot declare.
    case refused = 5
    /// 6: another connection held the database's lock longer than the busy timeout
    /// (`--busy-timeout`): nothing was done; retry later or wait longer.
    case locked = 6

    /// The status for an error met while working on a database. The one place codes map to statuses.
    public init(for error: MigrationError) {
        switch error.code {
        case .drift:
            self = .drift
        case .newerVersion, .unknownVersion, .notADatabase, .unsupportedChange, .invalidPlan, .invalidSchema,
            .unsupportedType, .sqlEnvironment, .onlineRefused, .incompatibleChange:
            self = .refused
        case .invalidOption:
            self = .usageError
        case .locked:
            self = .locked
        // dataViolation, customStageFailed, sqlite (a lock, too), verificationFailed, concurrentChange, readOnly
        default:
            self = .failed
        }
    }

    /// The status for any error met while working on a database: a `MigrationError` by its code,
    /// anything else (a file that cannot be written) as a failure.
    public init(forAny error: Error) {
        if let error = error as? MigrationError { self.init(for: error) } else { self = .failed }
    }

    /// The status when the plan cannot be loaded (a `--plan DIR` that is missing, malformed or
    /// names a custom stage, or a malformed Swift plan): the command was pointed at the wrong thing.
    public static let planNotLoaded = MigrateExitCode.usageError

    /// How bad a status is, to give a fleet the worst of its databases' statuses:
    /// success < pending < locked (nothing done, retry) < failed < drift < refused < usage error.
    var severity: Int {
        switch self {
        case .success: return 0
        case .pending: return 1
        case .locked: return 2
        case .failed: return 3
        case .drift: return 4
        case .refused: return 5
        case .usageError: return 6
        }
    }

    /// The worst of several statuses; success for none.
    static func worst(_ statuses: [MigrateExitCode]) -> MigrateExitCode {
        statuses.max { $0.severity < $1.severity } ?? .success
    }

    /// `refused (5)`.
    public var description: String {
        switch self {
        case .success: return "ok (0)"
        case .failed: return "failed (1)"
        case .usageError: return "usage error (2)"
        case .pending: return "pending (3)"
        case .drift: return "drift (4)"
        case .refused: return "refused (5)"
        case .locked: return "locked (6)"
        }
    }
}
