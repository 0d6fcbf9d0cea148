import SchemaMigrations

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Where `apply` backs each database up: `--backup PATH` (a file for one database, a directory
/// for several), beside the database by default (`DATABASE.backup-20250101T120000Z`), or nowhere
/// with `--no-backup`. A backup never overwrites a file.
struct BackupLocation {
    private enum Place {
        case none
        case besideDatabase
        case file(URL)
        case directory(URL)
    }

    private let place: Place
    /// True when `--backup PATH` asked for the backup (rather than the default beside the database).
    var isExplicit: Bool {
        switch place {
        case .file, .directory: return true
        case .none, .besideDatabase: return false
        }
    }
    private let timestamp: String
    /// Names handed out, so that two databases of the same name, backed up at once into one
    /// directory by a fleet's workers, never get the same file.
    private let claimed = ClaimedNames()

    /// - Throws: ``UsageError`` naming `--backup` when it conflicts with `--no-backup`, names a file
    ///   that exists, or is not a directory while several databases are given.
    init(arguments: ParsedArguments, databaseCount: Int, now: Date = Date()) throws {
        timestamp = SystemCalls.compactUTC(now)
        func fail(_ message: String) -> UsageError { UsageError(message, subcommand: arguments.subcommand) }

        guard let path = arguments.value("--backup") else {
            place = arguments.flag("--no-backup") ? .none : .besideDatabase
            return
        }
        if arguments.flag("--no-backup") {
            throw fail("\(arguments.label("--backup")) and \(arguments.label("--no-backup")) cannot be given together")
        }
        let option = arguments.label("--backup")
        let url = URL(fileURLWithPath: path)
        let kind = SystemCalls.fileKind(atPath: url.path)
        let exists = kind != .missing
        if kind == .directory {
            place = .directory(url)
        } else if databaseCount > 1 {
            if exists {
                throw fail("\(option) \(path): with several databases it must name a directory, and a file is there")
            }
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            place = .directory(url)
        } else if exists {
            throw fail(
                "\(option) \(path): a file is there already; a backup never overwrites one, so choose a new path")
        } else {
            place = .file(url)
        }
    }

    /// The backup file for `database`, nil with `--no-backup`; never an existing file.
    func url(for database: URL) throws -> URL? {
        switch place {
        case .none: return nil
        case .file(let url): return url
        case .besideDatabase:
            return unused(database.deletingLastPathComponent(), database.lastPathComponent + ".backup-" + timestamp)
        case .directory(let directory): return unused(directory, database.lastPathComponent + ".backup-" + timestamp)
        }
    }

    /// `name`, or `name-2`, `name-3`… in `directory`: the first that does not exist and was not
    /// handed out already.
    private func unused(_ directory: URL, _ name: String) -> URL {
        claimed.claim { taken in
            var candidate = directory.appendingPathComponent(name)
            var counter = 2
            while taken.contains(candidate.path) || FileManager.default.fileExists(atPath: candidate.path) {
                candidate = directory.appendingPathComponent("\(name)-\(counter)")
                counter += 1
            }
            taken.insert(candidate.path)
            return candidate
        }
    }
}

/// Paths handed out, shared by a fleet's workers.
private final class ClaimedNames: @unchecked Sendable {
    // Sendable: the set is only touched under the lock.
    private let lock = Lock()
    private var taken = Set<String>()

    func claim(_ body: (inout Set<String>) -> URL) -> URL { lock.withLock { body(&taken) } }
}
