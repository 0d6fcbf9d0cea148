import SchemaMigrations

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The databases a command line names: every `--database`, then the lines of
/// `--databases-from FILE` (`-` for standard input; blank lines and lines starting with `#`
/// skipped, the ends of each line trimmed).
///
/// A path that exists is that file, whatever characters it holds. Only a `--database` that is no
/// file and holds `*`, `?` or `[` is a pattern, expanded by the command itself (glob(3), sorted, so
/// a pipeline needs no shell), and its expansion is shown on standard error. A list file's lines
/// are paths, never patterns. Each file is worked on once: a path given again, or another path to
/// the same file (a symbolic or hard link, a `dir/../` detour), is dropped with a note.
///
/// ```sh
/// find /srv/tenants -name app.sqlite | migrate apply --plan plan/ --databases-from - --jobs 4
/// ```
enum DatabaseList {
    /// - Parameter note: receives each note for standard error (an expansion, a repeat dropped).
    /// - Throws: ``UsageError`` when the list file cannot be read, a pattern matches nothing, or no
    ///   database is named at all.
    static func read(
        _ arguments: ParsedArguments, standardInput: () -> Data = { SystemCalls.readToEnd(0) },
        note: (String) -> Void = { _ in }
    ) throws -> [URL] {
        func fail(_ message: String, remedy: String? = nil) -> UsageError {
            UsageError(message, subcommand: arguments.subcommand, remedy: remedy)
        }
        let option = arguments.label("--database")
        let listOption = arguments.label("--databases-from")
        var entries = arguments.values("--database").map { (path: $0, isListed: false) }
        if let list = arguments.value("--databases-from") {
            let data: Data
            if list == "-" {
                data = standardInput()
            } else if let contents = FileManager.default.contents(atPath: list) {
                data = contents
            } else {
                throw fail(
                    "\(listOption) \(list): the file cannot be read",
                    remedy: "give a text file with one database path a line, or - for standard input")
            }
            entries += String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline)
                .map { $0.trimmingWhitespace() }
                .filter { !$0.isEmpty && !$0.hasPrefix("#") }
                .map { (path: $0, isListed: true) }
        }
        var firstPathByFile: [String: String] = [:]
        var urls: [URL] = []
        for entry in entries {
            let paths: [String]
            if !entry.isListed && !exists(entry.path) && isGlob(entry.path) {
                paths = expand(entry.path)
                if paths.isEmpty {
                    throw fail(
                        "\(option) '\(entry.path)' matches no file",
                        remedy:
                            "no file has that name, and as a pattern (*, ? and [...], expanded by the command) it matches none"
                    )
                }
                note(
                    "note: \(option) '\(entry.path)' is no file, so it is a pattern: it matches \(paths.count) file\(paths.count == 1 ? "" : "s")\n"
                        + paths.map { "  \($0)\n" }.joined())
            } else {
                paths = [entry.path]
            }
            for path in paths {
                let url = URL(fileURLWithPath: path)
                let file = identity(of: url)
                if let first = firstPathByFile[file] {
                    note(
                        first == url.path
                            ? "note: '\(first)' is given more than once: worked on once\n"
                            : "note: '\(url.path)' is the same file as '\(first)': worked on once\n")
                    continue
                }
                firstPathByFile[file] = url.path
                urls.append(url)
            }
        }
        if urls.isEmpty {
            throw fail(
                arguments.value("--databases-from").map { "\(listOption) \($0) names no database" }
                    ?? "missing --database PATH",
                remedy:
                    "give --database PATH (repeatable, patterns expanded), --databases-from FILE, or MIGRATE_DATABASE")
        }
        return urls
    }

    /// Whether a path holds glob characters.
    static func isGlob(_ path: String) -> Bool { path.contains { "*?[".contains($0) } }

    /// Whether something is at `path`: a file, a directory, or a link (even a dangling one).
    static func exists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }

    /// What makes two paths one file: its device and inode when it exists (symbolic and hard
    /// links, `dir/../` detours), else its standardized absolute path.
    static func identity(of url: URL) -> String {
        var status = stat()
        if stat(url.path, &status) == 0 { return "\(status.st_dev):\(status.st_ino)" }
        return url.standardizedFileURL.path
    }

    /// The files a glob matches, sorted (glob(3)); empty when none.
    static func expand(_ pattern: String) -> [String] {
        var matches = glob_t()
        defer { globfree(&matches) }
        guard glob(pattern, 0, nil, &matches) == 0 else { return [] }
        return (0..<Int(matches.gl_pathc)).compactMap { matches.gl_pathv[$0].map { String(cString: $0) } }
    }
}
