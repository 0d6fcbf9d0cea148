import Foundation

/// The databases a command line names: every `--database` (a glob such as `'dbs/*.sqlite'` is
/// expanded by the command itself, sorted, so a pipeline needs no shell), then the lines of
/// `--databases-from FILE` (`-` for standard input; blank lines and `#` comments skipped, globs
/// expanded too). A path is kept once, at its first place.
///
/// ```sh
/// find /srv/tenants -name app.sqlite | migrate apply --plan plan/ --databases-from - --jobs 4
/// ```
enum DatabaseList {
    /// - Throws: ``UsageError`` when the list file cannot be read, a glob matches nothing, or no
    ///   database is named at all.
    static func read(_ arguments: ParsedArguments, standardInput: () -> Data = { FileHandle.standardInput.readDataToEndOfFile() }) throws -> [URL] {
        func fail(_ message: String, remedy: String? = nil) -> UsageError { UsageError(message, subcommand: arguments.subcommand, remedy: remedy) }
        var patterns = arguments.values("--database")
        if let list = arguments.value("--databases-from") {
            let data: Data
            if list == "-" {
                data = standardInput()
            } else if let contents = FileManager.default.contents(atPath: list) {
                data = contents
            } else {
                throw fail("--databases-from \(list): the file cannot be read", remedy: "give a text file with one database path a line, or - for standard input")
            }
            patterns += String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline)
                .map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty && !$0.hasPrefix("#") }
        }
        var seen = Set<String>()
        var urls: [URL] = []
        for pattern in patterns {
            let paths: [String]
            if isGlob(pattern) {
                paths = expand(pattern)
                if paths.isEmpty { throw fail("--database '\(pattern)' matches no file", remedy: "check the pattern; the command expands *, ? and [...] itself") }
            } else {
                paths = [pattern]
            }
            for path in paths where seen.insert(path).inserted {
                urls.append(URL(fileURLWithPath: path))
            }
        }
        if urls.isEmpty {
            throw fail(arguments.value("--databases-from").map { "--databases-from \($0) names no database" } ?? "missing --database PATH",
                       remedy: "give --database PATH (repeatable, globs expanded), --databases-from FILE, or MIGRATE_DATABASE")
        }
        return urls
    }

    /// Whether a path holds glob characters.
    static func isGlob(_ path: String) -> Bool { path.contains { "*?[".contains($0) } }

    /// The files a glob matches, sorted (glob(3)); empty when none.
    static func expand(_ pattern: String) -> [String] {
        var matches = glob_t()
        defer { globfree(&matches) }
        guard glob(pattern, 0, nil, &matches) == 0 else { return [] }
        return (0..<Int(matches.gl_pathc)).compactMap { matches.gl_pathv[$0].map { String(cString: $0) } }
    }
}
