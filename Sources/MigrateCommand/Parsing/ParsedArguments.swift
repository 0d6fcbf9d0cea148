import SchemaMigrations

/// The options of one subcommand's command line, parsed: values by option name, and flags.
///
/// ```swift
/// let databases = arguments.values("--database")          // every --database given
/// let target = try arguments.version("--to")              // nil when absent; a UsageError naming --to when malformed
/// if arguments.flag("--no-backup") { … }
/// ```
public struct ParsedArguments: Sendable, Hashable {
    /// The subcommand the options are for.
    public var subcommand: String
    private var valuesByName: [String: [String]]
    private var flags: Set<String>
    /// The variable each option came from, for the options the environment gave.
    private var variables: [String: String]

    /// - Parameters:
    ///   - subcommand: the subcommand the options are for (`"apply"`).
    ///   - values: each option's values, in the order given (`["--database": ["a.sqlite", "b.sqlite"]]`).
    ///   - flags: the flags given (`["--online"]`).
    ///   - variables: for each option the environment gave, its variable
    ///     (`["--jobs": "MIGRATE_JOBS"]`), so that messages name what the user set.
    public init(
        subcommand: String, values: [String: [String]] = [:], flags: Set<String> = [], variables: [String: String] = [:]
    ) {
        self.subcommand = subcommand
        self.valuesByName = values
        self.flags = flags
        self.variables = variables
    }

    /// The option as the user gave it, for messages: `--jobs`, or `MIGRATE_JOBS` when the
    /// environment gave it.
    public func label(_ name: String) -> String { variables[name] ?? name }

    /// The value of an option given once, nil when it was not given.
    public func value(_ name: String) -> String? { valuesByName[name]?.last }

    /// Every value of a repeatable option, in order.
    public func values(_ name: String) -> [String] { valuesByName[name] ?? [] }

    /// Whether a flag was given.
    public func flag(_ name: String) -> Bool { flags.contains(name) }

    /// The value of an option as a schema version (`2.0.0`).
    /// - Throws: `UsageError` naming the option when the value is not a version.
    public func version(_ name: String) throws -> Schema.Version? {
        try value(name).map { text in
            guard let version = Schema.Version(text) else { throw invalid(name, text, "is not a version like 2.0.0") }
            return version
        }
    }

    /// The value of an option as a number of at least zero (`0.5`).
    /// - Throws: `UsageError` naming the option when the value is not one.
    public func number(_ name: String) throws -> Double? {
        try value(name).map { text in
            guard let number = Double(text), number >= 0, number.isFinite else {
                throw invalid(name, text, "is not a number of at least 0")
            }
            return number
        }
    }

    /// The value of an option as a whole number of at least zero (`1000`).
    /// - Throws: `UsageError` naming the option when the value is not one.
    public func count(_ name: String) throws -> Int? {
        try value(name).map { text in
            guard let count = Int(text), count >= 0 else {
                throw invalid(name, text, "is not a whole number of at least 0")
            }
            return count
        }
    }

    private func invalid(_ name: String, _ value: String, _ problem: String) -> UsageError {
        UsageError("\(label(name)): '\(value)' \(problem)", subcommand: subcommand)
    }
}
