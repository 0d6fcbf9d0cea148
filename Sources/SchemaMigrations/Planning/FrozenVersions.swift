#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Keeps released versions frozen: writes each declared version's JSON snapshot, and tells when
/// a declared version no longer matches the snapshot taken when it was released.
///
/// ```swift
/// // Once, when releasing a version (or with `migrate snapshot`):
/// try FrozenVersions.writeSnapshots(of: TripsMigrationPlan.self, to: snapshotsDirectory)
///
/// // In the app's test suite:
/// #expect(try FrozenVersions.changes(in: TripsMigrationPlan.self, comparedTo: snapshotsDirectory) == [])
/// ```
///
/// Snapshot files are named `schema-<version>.json` (``fileName(for:)``).
public enum FrozenVersions {
    /// `schema-1.0.0.json`.
    public static func fileName(for version: Schema.Version) -> String { "schema-\(version).json" }

    /// Writes one snapshot file per declared version into `directory` (created if needed).
    /// - Returns: the files written.
    @discardableResult
    public static func writeSnapshots(of plan: any SchemaMigrationPlan.Type, to directory: URL) throws -> [URL] {
        try writeSnapshots(of: ResolvedPlan(plan).declared, to: directory)
    }

    static func writeSnapshots(of schemas: [Schema], to directory: URL) throws -> [URL] {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return try schemas.map { schema in
            let url = directory.appendingPathComponent(fileName(for: schema.version))
            try Data(schema.snapshotJSON().utf8).write(to: url, options: .atomic)
            return url
        }
    }

    /// The declared versions that differ from their snapshot in `directory`, in words; empty when
    /// every version with a snapshot still declares exactly what it did. Versions with no snapshot
    /// yet (not released) are not reported.
    public static func changes(in plan: any SchemaMigrationPlan.Type, comparedTo directory: URL) throws -> [String] {
        try ResolvedPlan(plan).declared.compactMap { declared in
            let url = directory.appendingPathComponent(fileName(for: declared.version))
            guard FileManager.default.fileExists(atPath: url.path) else { return nil }
            let frozen = try Schema(snapshotJSON: Data(contentsOf: url))
            guard frozen.versionHash != declared.versionHash else { return nil }
            let changes = SchemaChanges.lines(released: frozen, declared: declared)
            return
                "version \(declared.version) changed since its snapshot \(url.lastPathComponent) (hash \(frozen.versionHash.prefix(12))… is now \(declared.versionHash.prefix(12))…); a released version must not change: declare a new version instead"
                + (changes.isEmpty ? "" : " (" + changes.joined(separator: "; ") + ")")
        }
    }
}
