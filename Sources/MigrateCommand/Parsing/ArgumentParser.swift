import SchemaMigrations

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Turns the words after a subcommand's name into ``ParsedArguments``, or a ``UsageError``
/// naming the bad word: an unknown option (with the closest known one), a missing value, a value
/// not among the choices, an option given twice that may be given once, a required option
/// missing, an empty value, a stray argument. Options not on the command line are taken from the
/// environment (``EnvironmentDefaults``): the command line wins.
///
/// ```swift
/// let arguments = try ArgumentParser.parse(["--database", "a.sqlite", "--format=json"], for: status)
/// ```
enum ArgumentParser {
    static func parse(_ words: [String], for subcommand: Subcommand, environment: [String: String] = [:]) throws
        -> ParsedArguments
    {
        func fail(_ message: String, remedy: String? = nil) -> UsageError {
            UsageError(message, subcommand: subcommand.name, remedy: remedy)
        }
        var values: [String: [String]] = [:]
        var flags = Set<String>()
        var remaining = words[...]
        while let word = remaining.popFirst() {
            guard word.hasPrefix("-"), word.count > 1 else {
                throw fail(
                    "unexpected argument '\(word)'",
                    remedy: subcommand.options.contains { $0.name == "--database" }
                        ? "a database is given with --database '\(word)'" : nil)
            }
            let parts = word.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            let inlineValue = parts.count == 2 ? String(parts[1]) : nil
            guard let option = subcommand.options.first(where: { $0.name == name }) else {
                throw fail(
                    "unknown option '\(name)' for '\(subcommand.name)'",
                    remedy: Suggestion.remedy(for: name, among: subcommand.options.map(\.name) + ["--help"]))
            }
            guard let valueName = option.valueName else {
                if inlineValue != nil { throw fail("\(name) takes no value") }
                flags.insert(name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else if let next = remaining.first, !next.hasPrefix("--") || next == "-" {
                value = next
                remaining = remaining.dropFirst()
            } else {
                throw fail("missing value for \(name) \(valueName)")
            }
            if value.isEmpty {
                throw fail("\(name): the value is empty", remedy: "give \(name) \(valueName), or leave \(name) out")
            }
            if let choices = option.choices, !choices.contains(value) {
                throw fail(
                    "\(name): '\(value)' is not one of \(choices.joined(separator: ", "))",
                    remedy: Suggestion.remedy(for: value, among: choices))
            }
            if values[name] != nil && !option.isRepeatable {
                throw fail("\(name) is given more than once")
            }
            values[name, default: []].append(value)
        }
        // The environment fills what the command line leaves out; one choice's options only
        // when the command line gives none of them.
        let given = Set(values.keys).union(flags)
        let chosen = Set(subcommand.alternatives.filter { !given.isDisjoint(with: $0) }.joined())
        var variables: [String: String] = [:]
        for option in subcommand.options where !given.contains(option.name) && !chosen.contains(option.name) {
            let variable = EnvironmentDefaults.variable(for: option)
            guard let value = environment[variable], !value.isEmpty else { continue }
            if option.takesValue {
                if let choices = option.choices, !choices.contains(value) {
                    throw fail(
                        "\(variable): '\(value)' is not one of \(choices.joined(separator: ", "))",
                        remedy: "unset \(variable), or give \(option.name) on the command line")
                }
                values[option.name] = [value]
                variables[option.name] = variable
            } else {
                guard let isOn = EnvironmentDefaults.boolean(value) else {
                    throw fail(
                        "\(variable): '\(value)' is not a boolean",
                        remedy: EnvironmentDefaults.on.joined(separator: ", ").replacingLastComma()
                            + " sets \(option.name); "
                            + EnvironmentDefaults.off.joined(separator: ", ").replacingLastComma() + " leaves it unset")
                }
                if isOn {
                    flags.insert(option.name)
                    variables[option.name] = variable
                }
            }
        }
        for option in subcommand.options
        where option.isRequired && values[option.name] == nil && !flags.contains(option.name) {
            // the list file names them
            if option.name == "--database" && values["--databases-from"] != nil { continue }
            throw fail(
                "missing \(option.name)\(option.valueName.map { " " + $0 } ?? "")",
                remedy: option.name == "--database"
                    ? "give --database PATH (repeatable, patterns expanded), --databases-from FILE, or MIGRATE_DATABASE"
                    : nil)
        }
        return ParsedArguments(subcommand: subcommand.name, values: values, flags: flags, variables: variables)
    }
}

extension String {
    /// `1, true, yes or on`.
    fileprivate func replacingLastComma() -> String {
        guard let range = ranges(of: ", ").last else { return self }
        return String(self[..<range.lowerBound]) + " or " + String(self[range.upperBound...])
    }
}
