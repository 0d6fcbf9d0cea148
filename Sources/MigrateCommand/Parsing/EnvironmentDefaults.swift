/// Options from environment variables: `--busy-timeout` is `MIGRATE_BUSY_TIMEOUT`, `--database`
/// is `MIGRATE_DATABASE`, a flag such as `--no-backup` is set by `MIGRATE_NO_BACKUP=1`.
///
/// The command line wins: a variable only fills an option the command line leaves out, and
/// options that are one choice (``Subcommand/alternatives``) are filled only when the command
/// line gives none of them. An empty variable is unset. A flag's variable is `1`, `true`, `yes`
/// or `on` (set) or `0`, `false`, `no` or `off` (unset), in any case; anything else is a usage
/// error naming the variable.
///
/// ```sh
/// export MIGRATE_PLAN=plan/ MIGRATE_FORMAT=json
/// migrate status --database app.sqlite
/// ```
enum EnvironmentDefaults {
    /// `MIGRATE_BUSY_TIMEOUT` for `--busy-timeout`.
    static func variable(for option: CommandOption) -> String {
        variable(forName: option.name)
    }

    /// `MIGRATE_BUSY_TIMEOUT` for the option named `--busy-timeout`.
    static func variable(forName name: String) -> String {
        // Option names are ASCII: mapped byte by byte, rather than with uppercased() and
        // replacing(_:with:), which load Unicode's case tables and the regex engine in every run.
        var bytes = Array("MIGRATE_".utf8)
        for byte in name.utf8.drop(while: { $0 == UInt8(ascii: "-") }) {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"): bytes.append(byte - 32)
            case UInt8(ascii: "-"): bytes.append(UInt8(ascii: "_"))
            case 0..<0x80: bytes.append(byte)
            default: return "MIGRATE_" + name.drop { $0 == "-" }.uppercased().replacing("-", with: "_")
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The values that set a flag, and those that leave it unset (compared in lower case).
    static let on = ["1", "true", "yes", "on"], off = ["0", "false", "no", "off"]

    /// Whether a flag's variable sets it: true, false, or nil when the value is not a boolean.
    static func boolean(_ value: String) -> Bool? {
        if on.contains(value.lowercased()) { return true }
        if off.contains(value.lowercased()) { return false }
        return nil
    }

    /// The value of `--format` the command line or the environment gives, if any, before the
    /// command line is parsed: so that even a usage error can be reported as JSON.
    static func format(in words: [String], environment: [String: String]) -> String? {
        var format: String?
        var index = 0
        while index < words.count {
            let word = words[index]
            if word == "--format", index + 1 < words.count {
                format = words[index + 1]
                index += 1
            } else if word.hasPrefix("--format=") {
                format = String(word.dropFirst("--format=".count))
            }
            index += 1
        }
        return format ?? environment["MIGRATE_FORMAT"]
    }
}
