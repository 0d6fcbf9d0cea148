/// One option a subcommand accepts: a flag (`--no-backup`) or an option with a value
/// (`--database PATH`), written `--name value` or `--name=value`.
///
/// ```swift
/// let trips = CommandOption.value("--trips", "N", help: "how many trips to create (default 1000)")
/// let force = CommandOption.flag("--force", help: "replace an existing file")
/// ```
public struct CommandOption: Sendable, Hashable {
    /// The name, with its dashes: `--database`.
    public var name: String
    /// What the value is, for the usage line (`PATH`); nil for a flag.
    public var valueName: String?
    /// The values allowed, when only some are (`text`, `json`).
    public var choices: [String]?
    /// Whether the option may be given more than once.
    public var isRepeatable: Bool
    /// Whether the subcommand cannot run without it.
    public var isRequired: Bool
    /// One line of help.
    public var help: String

    /// Whether the option takes a value.
    public var takesValue: Bool { valueName != nil }

    /// An option with a value.
    public static func value(
        _ name: String, _ valueName: String, choices: [String]? = nil, repeatable: Bool = false,
        required: Bool = false, help: String
    ) -> CommandOption {
        CommandOption(
            name: name, valueName: choices?.joined(separator: "|") ?? valueName, choices: choices,
            isRepeatable: repeatable, isRequired: required, help: help)
    }

    /// A flag: present or not.
    public static func flag(_ name: String, help: String) -> CommandOption {
        CommandOption(name: name, valueName: nil, choices: nil, isRepeatable: false, isRequired: false, help: help)
    }

    /// The same option, required or not.
    public func required(_ isRequired: Bool = true) -> CommandOption {
        var copy = self
        copy.isRequired = isRequired
        return copy
    }

    /// `--database PATH`, `[--to VERSION]`, `--database PATH...`: how the usage line shows it.
    var usage: String {
        let text = name + (valueName.map { " " + $0 } ?? "") + (isRepeatable ? "..." : "")
        return isRequired ? text : "[\(text)]"
    }
}
