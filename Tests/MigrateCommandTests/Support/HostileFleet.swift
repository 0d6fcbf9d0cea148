import Foundation
import SchemaMigrations

/// Fleets a user could hand the command by accident or on purpose: paths with glob and quoting
/// characters, the same file twice or through a symlink, and look-alike files that must never be
/// touched. Every file is a copy of one SampleTrips database at 2.0.0, so that "migrated" is
/// "at 3.0.0" under the JSON plan.
struct HostileFleet {
    let scratch: Scratch
    let template: String

    init(_ scratch: Scratch) throws {
        self.scratch = scratch
        template = try scratch.sampleTrips("template-v2.sqlite", at: Schema.Version(2, 0, 0), trips: 4)
    }

    /// A V2 database at `relativePath` in the scratch directory (folders created); its full path.
    @discardableResult
    func database(_ relativePath: String) throws -> String {
        let url = scratch.directory.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: template, toPath: url.path)
        return url.path
    }

    /// A symbolic link at `relativePath` to `target`; its full path.
    @discardableResult
    func symlink(_ relativePath: String, to target: String) throws -> String {
        let url = scratch.directory.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: target)
        return url.path
    }

    /// The version a database records last, or nil when it records none.
    func version(_ path: String) throws -> String? { try HostileFleet.version(path) }

    /// The version a database records last, or nil when it records none.
    static func version(_ path: String) throws -> String? {
        try SQLiteConnection(path: path, mode: .readOnly).rows(
            "SELECT version FROM _schema_migrations ORDER BY seq DESC LIMIT 1"
        )
        .first?.first.map { String($0.sqlLiteral.dropFirst().dropLast()) }
    }
}

/// SplitMix64: a seeded generator, so that a failing random fleet can be built again from its seed.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
