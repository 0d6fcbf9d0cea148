#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A migration plan as files, so that a deploy pipeline can migrate without compiling Swift:
/// `plan.json` lists the versions and the stages between them, and one schema snapshot per
/// version sits beside it, named as ``FrozenVersions/fileName(for:)`` says (`schema-2.0.0.json`,
/// the format ``Schema/snapshotJSON()`` writes).
///
/// ```json
/// {"name": "SampleTrips", "versions": ["2.0.0", "3.0.0"],
///  "stages": [{"from": "2.0.0", "to": "3.0.0", "kind": "lightweight"}]}
/// ```
///
/// ```swift
/// try PlanDirectory(plan: TripsMigrationPlan.self).write(to: directory)   // what `migrate snapshot` does
/// let migrator = try Migrator(planDirectory: directory)                   // what `migrate --plan DIR` does
/// ```
///
/// A directory may describe a custom stage, so that the snapshot of a Swift plan is complete,
/// but only the Swift plan can run it: ``Migrator/init(planDirectory:options:)-(PlanDirectory,_)`` refuses it.
public struct PlanDirectory: Sendable, Hashable {
    /// The name of the file listing versions and stages.
    public static let planFileName = "plan.json"

    /// The plan's name, which keys its metadata in the database.
    public var name: String
    /// Every version, oldest first.
    public var schemas: [Schema]
    /// The stages between consecutive versions, each from a version to the next one listed,
    /// lightweight (inferred) or custom (only a Swift plan can run it); a missing one is lightweight.
    public var stages: [StageHeader]

    /// A plan directory of plan `name`: a snapshot of each version and the stages between them.
    public init(name: String, schemas: [Schema], stages: [StageHeader]) {
        self.name = name
        self.schemas = schemas
        self.stages = stages
    }

    /// The description of a plan declared in Swift: its versions, and every stage between them
    /// (those left implicit as lightweight).
    /// - Throws: `MigrationError` when the plan is malformed.
    public init(plan: any SchemaMigrationPlan.Type) throws {
        let resolved = try ResolvedPlan(plan)
        self.init(
            name: resolved.name, schemas: resolved.declared,
            stages: resolved.stages.map(\.header))
    }

    /// The versions from `first` through `last` (both included when given) and the stages
    /// between them: for example the lightweight tail of a plan whose first stage is custom.
    ///
    /// ```swift
    /// let tail = try PlanDirectory(plan: TripsMigrationPlan.self).restricted(from: Schema.Version(2, 0, 0))
    /// ```
    /// - Throws: `MigrationError` with code `invalidPlan` when a bound is not a declared version.
    public func restricted(from first: Schema.Version? = nil, through last: Schema.Version? = nil) throws
        -> PlanDirectory
    {
        let declared = schemas.map(\.version)
        for bound in [first, last].compactMap({ $0 }) where !declared.contains(bound) {
            throw MigrationError(
                .invalidPlan, "version \(bound) is not declared by the plan '\(name)'", version: bound,
                remedy: "use one of: " + declared.map(\.description).joined(separator: ", "))
        }
        let kept = schemas.filter { schema in
            (first.map { schema.version >= $0 } ?? true) && (last.map { schema.version <= $0 } ?? true)
        }
        let versions = Set(kept.map(\.version))
        return PlanDirectory(
            name: name, schemas: kept,
            stages: stages.filter { $0.from.map(versions.contains) == true && versions.contains($0.to) })
    }

    /// Writes `plan.json` and one snapshot per version into `directory` (created if needed).
    /// Files already there for other versions are left alone.
    /// - Returns: the files written, `plan.json` first.
    /// - Throws: `MigrationError` when the plan is malformed; file system errors as they come.
    @discardableResult
    public func write(to directory: URL) throws -> [URL] {
        _ = try resolvedPlan(allowingCustomStages: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let planURL = directory.appendingPathComponent(PlanDirectory.planFileName)
        let file = PlanFile(name: name, versions: schemas.map(\.version), stages: stages)
        try Data((CanonicalJSON.encodePretty(file) + "\n").utf8).write(to: planURL, options: .atomic)
        return [planURL] + (try FrozenVersions.writeSnapshots(of: schemas, to: directory))
    }

    /// The plan, validated, for the migrator.
    /// - Parameter knownHashes: each version's hash, when the caller computed them already.
    /// - Throws: `MigrationError` with code `invalidPlan`, naming the custom stage when `allowingCustomStages` is false.
    func resolvedPlan(allowingCustomStages: Bool, knownHashes: [String]? = nil) throws -> ResolvedPlan {
        if !allowingCustomStages { try refuseCustomStages() }
        let declared = try stages.map { stage in
            guard let from = stage.from else {
                throw MigrationError(
                    .invalidPlan, "a stage to \(stage.to) of the plan '\(name)' names no source version",
                    version: stage.to,
                    remedy: "stages go from each version to the next one listed in `schemas`")
            }
            return PlannedStage(from: from, to: stage.to, kind: stage.kind)
        }
        return try ResolvedPlan(name: name, schemas: schemas, stages: declared, knownHashes: knownHashes)
    }

    /// - Throws: `MigrationError` with code `invalidPlan` naming the first custom stage: only the
    ///   Swift plan can run one.
    func refuseCustomStages() throws {
        if let custom = stages.first(where: { $0.kind == .custom }) {
            throw MigrationError(
                .invalidPlan,
                "the stage \(custom.versions) of the plan '\(name)' is custom: its willMigrate and didMigrate are Swift code, which a JSON plan directory cannot hold",
                version: custom.to,
                remedy:
                    "run the migration from an executable of your app that embeds the command with its Swift plan: `MigrateCommand.main(plan: YourMigrationPlan.self)`"
            )
        }
    }
}

/// The on-disk form of `plan.json`.
struct PlanFile: Codable {
    var name: String
    var versions: [Schema.Version]
    var stages: [StageHeader]

    init(name: String, versions: [Schema.Version], stages: [StageHeader]) {
        self.name = name
        self.versions = versions
        self.stages = stages
    }

    init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        versions = try container.decode([Schema.Version].self, forKey: .versions)
        stages = try container.decodeIfPresent([StageHeader].self, forKey: .stages) ?? []
    }
}

extension PlanFile {
    /// `plan.json` read without `JSONDecoder`, as ``init(from:)`` reads it (see ``StrictObject``);
    /// nil when `JSONDecoder` must read it.
    init?(scanning data: Data) {
        let file = data.withUnsafeBytes { bytes in
            StrictJSON.parse(bytes).flatMap { json in
                try? PlanFile(scanning: json)
            }
        }
        guard let file else { return nil }
        self = file
    }

    private init(scanning json: StrictJSON) throws {
        let object = try StrictObject(json, keys: ["name", "versions", "stages"])
        name = try object.required("name", \.string)
        versions = try object.required("versions") { try StrictObject.array($0, Schema.Version.init(scanning:)) }
        stages = try object.optional("stages") { try StrictObject.array($0, StageHeader.init(scanning:)) } ?? []
    }
}

extension StageHeader {
    /// What ``init(from:)`` reads: a stage of `plan.json`, which always names its source version.
    init(scanning json: StrictJSON) throws {
        let object = try StrictObject(json, keys: ["from", "to", "kind"])
        self.init(
            from: try object.required("from", Schema.Version.init(scanning:)),
            to: try object.required("to", Schema.Version.init(scanning:)),
            kind: try object.required("kind") { $0.string.flatMap(StageKind.init(rawValue:)) })
    }
}
