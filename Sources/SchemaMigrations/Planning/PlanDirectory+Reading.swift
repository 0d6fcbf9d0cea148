#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension PlanDirectory {
    /// Reads a plan directory: `plan.json` and the snapshot of every version it lists.
    ///
    /// ```swift
    /// let plan = try PlanDirectory(contentsOf: URL(fileURLWithPath: "Fixtures/SampleTrips/json-plan"))
    /// print(plan.schemas.map(\.version))   // [2.0.0, 3.0.0]
    /// ```
    /// - Throws: `MigrationError` naming the file: `invalidPlan` when the directory or `plan.json`
    ///   is missing or malformed (a key named twice with different values included), a snapshot is missing or holds another version, or the plan is
    ///   inconsistent; `invalidSchema` when a snapshot is malformed (a key named twice with
    ///   different values included) or its hash does not match
    ///   its content.
    public init(contentsOf directory: URL) throws {
        self = try PlanDirectory.read(contentsOf: directory).directory
    }

    /// Reads a plan directory, and the plan it describes as validated: the migrator's, which
    /// ``Migrator/init(planDirectory:options:)`` would otherwise validate a second time.
    /// - Throws: what ``init(contentsOf:)`` throws.
    static func read(contentsOf directory: URL) throws -> (directory: PlanDirectory, resolved: ResolvedPlan) {
        let kind = SystemCalls.fileKind(atPath: directory.path)
        guard kind != .missing else {
            throw MigrationError(
                .invalidPlan, "the plan directory '\(directory.path)' does not exist",
                remedy: "pass a directory holding plan.json and the schema snapshots, as `migrate snapshot` writes it")
        }
        guard kind == .directory else {
            let parent = directory.deletingLastPathComponent().path
            throw MigrationError(
                .invalidPlan, "'\(directory.path)' is a file, not a plan directory",
                remedy: directory.lastPathComponent == PlanDirectory.planFileName
                    ? "pass the directory holding it: --plan \(parent)"
                    : "pass a directory holding plan.json and the schema snapshots, as `migrate snapshot` writes it")
        }
        let planURL = directory.appendingPathComponent(PlanDirectory.planFileName)
        guard let data = SystemCalls.contents(atPath: planURL.path) else {
            throw MigrationError(
                .invalidPlan, "'\(planURL.path)' is missing",
                remedy: "pass a directory holding plan.json and the schema snapshots, as `migrate snapshot` writes it")
        }
        let file: PlanFile
        do {
            if let scanned = PlanFile(scanning: data) {
                file = scanned
            } else {
                // JSONDecoder reads (and refuses, with its own errors) what the reader without
                // Codable does not take, but for a key named twice, which it reads one way of two.
                if let duplicate = JSONDuplicateKey.first(in: Array(data)) {
                    throw MigrationError(
                        .invalidPlan, "'\(planURL.path)' names \(duplicate)",
                        remedy: "keep the value you mean and remove the other")
                }
                file = try JSONDecoder().decode(PlanFile.self, from: data)
            }
        } catch let error as MigrationError {
            throw error
        } catch {
            throw MigrationError(
                .invalidPlan, "'\(planURL.path)' is not a valid plan: \(Schema.describe(decodingError: error))",
                remedy:
                    #"it must read {"name": "…", "versions": ["1.0.0", …], "stages": [{"from": "1.0.0", "to": "2.0.0", "kind": "lightweight"}, …]}; regenerate it with `migrate snapshot`"#
            )
        }
        var schemas: [Schema] = []
        var hashes: [String] = []
        for version in file.versions {
            let (schema, hash) = try PlanDirectory.readSnapshot(of: version, in: directory)
            schemas.append(schema)
            hashes.append(hash)
        }
        let plan = PlanDirectory(name: file.name, schemas: schemas, stages: file.stages)
        do {
            return (plan, try plan.resolvedPlan(allowingCustomStages: true, knownHashes: hashes))
        } catch var error as MigrationError {
            error.message = "'\(planURL.path)': " + error.message
            throw error
        }
    }

    /// The snapshot of `version` and its hash.
    private static func readSnapshot(of version: Schema.Version, in directory: URL) throws -> (Schema, String) {
        let url = directory.appendingPathComponent(FrozenVersions.fileName(for: version))
        guard let data = SystemCalls.contents(atPath: url.path) else {
            throw MigrationError(
                .invalidPlan, "'\(url.path)' is missing: plan.json lists version \(version)", version: version,
                remedy: "write the snapshots with `migrate snapshot`, or remove \(version) from plan.json's versions")
        }
        let schema: Schema
        let hash: String
        do {
            (schema, hash) = try Schema.readSnapshot(data)
        } catch var error as MigrationError {
            error.message = "'\(url.path)': " + error.message
            throw error
        }
        guard schema.version == version else {
            throw MigrationError(
                .invalidPlan,
                "'\(url.path)' holds version \(schema.version), but its name and plan.json say \(version)",
                version: version, remedy: "regenerate the plan directory with `migrate snapshot`")
        }
        return (schema, hash)
    }
}
