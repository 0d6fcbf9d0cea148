import Foundation
import SchemaMigrations
import Testing

/// Random fleets, from fixed seeds: file and folder names full of glob and quoting characters,
/// look-alike files that a glob of those names would match, and a list naming each file once or
/// several times, by its path, through a symbolic link or by a `dir/../` detour, in a random
/// order. Each distinct file must be migrated exactly once, and nothing else touched.
@Suite struct RandomFleetTests {
    static let alphabet = Array("ab1[]?*' \"-_.")

    /// A name that starts with a letter and ends with `.sqlite` (a list file trims the ends of a
    /// line and skips lines starting with #), with glob and quoting characters between.
    static func name(_ generator: inout SeededGenerator) -> String {
        let length = Int.random(in: 1...6, using: &generator)
        return "n" + String((0..<length).map { _ in alphabet.randomElement(using: &generator)! }) + ".sqlite"
    }

    struct Fleet {
        var distinct: [String] = []
        /// Files that a glob reading of the listed names could match, never listed.
        var lookAlikes: [String] = []
        /// The list, each entry naming one of `distinct`.
        var entries: [(path: String, file: String)] = []
    }

    static func make(seed: UInt64, in scratch: Scratch, files: HostileFleet) throws -> Fleet {
        var generator = SeededGenerator(seed: seed)
        var fleet = Fleet()
        var used = Set<String>()
        let folders = ["t[1]", "t1", "t?", "t*", "it's", "a b"]
        while fleet.distinct.count < 12 {
            let relative = folders.randomElement(using: &generator)! + "/" + name(&generator)
            guard used.insert(relative).inserted else { continue }
            fleet.distinct.append(try files.database(relative))
        }
        // What `t[1]/n?.sqlite` or `t*/n*.sqlite` would match if they were globbed.
        for path in fleet.distinct {
            let relative = String(path.dropFirst(scratch.directory.path.count + 1))
            let lookAlike = relative.replacingOccurrences(of: "[1]", with: "1").replacingOccurrences(of: "?", with: "Q")
                .replacingOccurrences(of: "*", with: "STAR").replacingOccurrences(of: "[", with: "(")
                .replacingOccurrences(of: "]", with: ")")
            guard lookAlike != relative, used.insert(lookAlike).inserted else { continue }
            fleet.lookAlikes.append(try files.database(lookAlike))
        }
        var entries: [(path: String, file: String)] = []
        for (index, file) in fleet.distinct.enumerated() {
            entries.append((file, file))
            for _ in 0..<Int.random(in: 0...2, using: &generator) {
                switch Int.random(in: 0...2, using: &generator) {
                case 0: entries.append((file, file))
                case 1: entries.append((try files.symlink("links/\(index)-\(entries.count).sqlite", to: file), file))
                default:
                    let url = URL(fileURLWithPath: file)
                    let folder = url.deletingLastPathComponent().lastPathComponent
                    entries.append(
                        (url.deletingLastPathComponent().path + "/../" + folder + "/" + url.lastPathComponent, file))
                }
            }
        }
        entries.shuffle(using: &generator)
        fleet.entries = entries
        return fleet
    }

    @Test(arguments: [UInt64(1), 7, 2024])
    func eachDistinctFileIsMigratedOnceAndNothingElseTouched(seed: UInt64) throws {
        let scratch = Scratch()
        let files = try HostileFleet(scratch)
        let fleet = try Self.make(seed: seed, in: scratch, files: files)
        let lookAlikeBytes = try fleet.lookAlikes.map { try scratch.bytes($0) }
        for (index, via) in ["list", "options"].enumerated() {
            let arguments =
                ["apply", "--plan", Scratch.jsonPlan, "--no-backup", "--jobs", "3", "--format", "json"]
                + (via == "list" ? ["--databases-from", "-"] : fleet.entries.flatMap { ["--database", $0.path] })
            let result = try BuiltCommand.migrate(
                arguments, input: fleet.entries.map(\.path).joined(separator: "\n") + "\n")
            #expect(result.status == 0, "seed \(seed) via \(via): \(result)")
            let outcomes = try #require(try result.json() as? [[String: Any]], "seed \(seed): \(result)")
            // Once each, under the first name the list gives it, in the list's order.
            var firstNames: [String] = []
            var seen = Set<String>()
            for entry in fleet.entries where seen.insert(entry.file).inserted { firstNames.append(entry.path) }
            #expect(outcomes.map { $0["database"] as? String } == firstNames, "seed \(seed) via \(via)")
            #expect(
                outcomes.map { $0["outcome"] as? String }
                    == Array(repeating: index == 0 ? "migrated" : "upToDate", count: fleet.distinct.count),
                "seed \(seed) via \(via)")
            let notes = result.stderr.split(separator: "\n").filter {
                $0.hasPrefix("note: ") && $0.hasSuffix(": worked on once")
            }
            #expect(
                notes.count == fleet.entries.count - fleet.distinct.count, "seed \(seed) via \(via): \(result.stderr)")
            for file in fleet.distinct { #expect(try files.version(file) == "3.0.0", "seed \(seed): \(file)") }
            #expect(
                try fleet.lookAlikes.map { try scratch.bytes($0) } == lookAlikeBytes,
                "seed \(seed) via \(via): a look-alike was touched")
        }
    }
}
