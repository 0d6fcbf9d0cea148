/// A command line the command cannot run: an unknown subcommand or option, a missing or bad
/// value. The command prints it with the usage and exits with status 2.
///
/// ```swift
/// throw UsageError("--trips: 'many' is not a whole number")
/// ```
public struct UsageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, naming the option or argument.
    public var message: String
    /// The subcommand whose usage to print; nil for the command's general usage.
    public var subcommand: String?
    /// What to do instead, when the command can tell: `did you mean '--database'?`.
    public var remedy: String?

    /// A usage error: `message`, the subcommand whose usage to print (nil for the command's), and what to do instead.
    public init(_ message: String, subcommand: String? = nil, remedy: String? = nil) {
        self.message = message
        self.subcommand = subcommand
        self.remedy = remedy
    }

    /// `error: unknown option '--databse' for 'plan'`, then the remedy on its own line.
    public var description: String { "error: \(message)" + (remedy.map { "\n  \($0)" } ?? "") }
}
