import SchemaMigrations

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Where the command writes: standard output for results, standard error for errors, warnings
/// and progress.
///
/// ```swift
/// let status = MigrateCommand(plan: AppMigrationPlan.self).run(["status", "--database", path], console: .standard)
/// ```
public struct Console: Sendable {
    /// Writes text to standard output as it is (the caller ends lines).
    public var output: @Sendable (String) -> Void
    /// Writes text to standard error as it is.
    public var error: @Sendable (String) -> Void
    /// Whether standard error is a terminal: progress is shown there only then (or with `--progress`).
    public var errorIsTerminal: Bool

    /// Where the command writes: its output, its errors, and whether errors go to a terminal.
    public init(
        output: @escaping @Sendable (String) -> Void, error: @escaping @Sendable (String) -> Void, errorIsTerminal: Bool
    ) {
        self.output = output
        self.error = error
        self.errorIsTerminal = errorIsTerminal
    }

    /// The process's standard output and standard error.
    public static var standard: Console {
        Console(
            output: { SystemCalls.write($0, to: 1) }, error: { SystemCalls.write($0, to: 2) },
            errorIsTerminal: SystemCalls.isTerminal(2))
    }
}
