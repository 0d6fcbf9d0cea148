/// Options from environment variables: `--busy-timeout` is `MIGRATE_BUSY_TIMEOUT`, `--database`
/// is `MIGRATE_DATABASE`, a flag such as `--no-backup` is set by `MIGRATE_NO_BACKUP=1` (or
/// `true`, `yes`). The command line wins over the environment.
///
/// ```sh
/// export MIGRATE_PLAN=plan/ MIGRATE_FORMAT=json
/// migrate status --database app.sqlite
/// ```
enum EnvironmentDefaults {
    /// `MIGRATE_BUSY_TIMEOUT` for `--busy-timeout`.
    static func variable(for option: CommandOption) -> String {
        "MIGRATE_" + option.name.drop { $0 == "-" }.uppercased().replacingOccurrences(of: "-", with: "_")
    }

    /// Whether a flag's variable turns it on.
    static func isOn(_ value: String) -> Bool {
        ["1", "true", "yes", "on"].contains(value.lowercased())
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
