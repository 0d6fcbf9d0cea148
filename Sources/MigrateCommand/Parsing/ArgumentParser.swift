/// Turns the words after a subcommand's name into ``ParsedArguments``, or a ``UsageError``
/// naming the bad word: an unknown option, a missing value, a value not among the choices, an
/// option given twice that may be given once, a required option missing, a stray argument.
///
/// ```swift
/// let arguments = try ArgumentParser.parse(["--database", "a.sqlite", "--format=json"], for: status)
/// ```
enum ArgumentParser {
    static func parse(_ words: [String], for subcommand: Subcommand) throws -> ParsedArguments {
        func fail(_ message: String) -> UsageError { UsageError(message, subcommand: subcommand.name) }
        var values: [String: [String]] = [:]
        var flags = Set<String>()
        var remaining = words[...]
        while let word = remaining.popFirst() {
            guard word.hasPrefix("-"), word.count > 1 else {
                throw fail("unexpected argument '\(word)'")
            }
            let parts = word.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            let inlineValue = parts.count == 2 ? String(parts[1]) : nil
            guard let option = subcommand.options.first(where: { $0.name == name }) else {
                throw fail("unknown option '\(name)' for '\(subcommand.name)'")
            }
            guard let valueName = option.valueName else {
                if inlineValue != nil { throw fail("\(name) takes no value") }
                flags.insert(name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else if let next = remaining.first, !next.hasPrefix("--") {
                value = next
                remaining = remaining.dropFirst()
            } else {
                throw fail("missing value for \(name) \(valueName)")
            }
            if let choices = option.choices, !choices.contains(value) {
                throw fail("\(name): '\(value)' is not one of \(choices.joined(separator: ", "))")
            }
            if values[name] != nil && !option.isRepeatable {
                throw fail("\(name) is given more than once")
            }
            values[name, default: []].append(value)
        }
        for option in subcommand.options where option.isRequired && values[option.name] == nil && !flags.contains(option.name) {
            throw fail("missing \(option.name)\(option.valueName.map { " " + $0 } ?? "")")
        }
        return ParsedArguments(subcommand: subcommand.name, values: values, flags: flags)
    }
}
