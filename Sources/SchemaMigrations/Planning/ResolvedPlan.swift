/// A plan read into schemas and stages, validated: what the migrator works from, whether the
/// plan was declared in Swift or read from a JSON plan directory.
struct ResolvedPlan: Sendable {
    var name: String
    /// Every version as stored (relationships laid out as foreign-key columns and join tables),
    /// oldest first: what the planner, the executor and the comparisons work with.
    var schemas: [Schema]
    /// Every version as declared: what snapshots and hashes are made of.
    var declared: [Schema]
    /// One stage between each pair of consecutive versions, as declared: schemas and code, no steps yet.
    var stages: [PlannedStage]
    /// Each declared version and its hash, computed once (an up-to-date check compares it with
    /// the metadata). Two arrays rather than a dictionary keyed by version: a plan has few
    /// versions, and a short-lived process pays for each generic type it instantiates.
    private var hashedVersions: [Schema.Version]
    private var hashes: [String]
    /// The application's SQL environment, for the in-memory check of declared SQL
    /// (``DeclaredSQLCheck``): set from ``MigrationOptions/sqlEnvironment`` by each entry point.
    var environment = SQLEnvironment.none
    /// Whether a way back to an older version may drop data: set from
    /// ``MigrationOptions/allowDataLoss`` by each entry point, as ``environment`` is.
    var allowsDataLoss = false

    var latest: Schema { schemas[schemas.count - 1] }

    /// The version hash of a declared version.
    func hash(of version: Schema.Version) -> String {
        hashedVersions.firstIndex(of: version).map { hashes[$0] } ?? schema(for: version)?.versionHash ?? ""
    }

    /// The stored layout of a declared version.
    func schema(for version: Schema.Version) -> Schema? {
        schemas.first { $0.version == version }
    }

    /// The version a run goes to: `version` when given (it must be declared), else the latest.
    /// Every entry point (migrate, status, verify, plan, script, simulate) resolves it here.
    /// - Throws: `MigrationError` with code `invalidPlan` for a version the plan does not declare.
    func target(_ version: Schema.Version?) throws -> Schema {
        guard let version else { return latest }
        guard let schema = schema(for: version) else {
            throw MigrationError(
                .invalidPlan, "the target version \(version) is not declared by the plan '\(name)'",
                version: version, remedy: "use one of: " + schemas.map(\.version.description).joined(separator: ", "))
        }
        return schema
    }

    /// A version as declared.
    func declaredSchema(for version: Schema.Version) -> Schema? {
        declared.first { $0.version == version }
    }

    /// Every table name any version uses: a database holding none of them is empty for this plan.
    var allEntityNames: Set<String> {
        Set(schemas.flatMap { $0.entities.map { $0.name.sqlFolded } })
    }

    /// Reads and validates a Swift plan.
    init(_ plan: any SchemaMigrationPlan.Type) throws {
        try self.init(
            name: plan._name, schemas: plan.schemas.map { try Schema($0) },
            stages: plan._stages.map(PlannedStage.init(declared:)))
    }

    /// Validates versions and stages, and fills the gaps between consecutive versions with lightweight stages.
    /// - Parameter knownHashes: each schema's ``Schema/versionHash`` when the caller computed them
    ///   already (reading a snapshot checks its hash), in the order of `schemas`.
    /// - Throws: `MigrationError` with code `invalidPlan`.
    init(name: String, schemas: [Schema], stages: [PlannedStage], knownHashes: [String]? = nil) throws {
        func fail(_ message: String, version: Schema.Version? = nil, remedy: String) -> MigrationError {
            MigrationError(.invalidPlan, message, version: version, remedy: remedy)
        }
        guard !name.isEmpty else { throw fail("the plan's name is empty", remedy: "give the plan a name") }
        guard !schemas.isEmpty else {
            throw fail(
                "the plan '\(name)' lists no schema versions",
                remedy: "list every released version in `schemas`, oldest first")
        }
        for schema in schemas { try schema.validate() }
        let stored = try StorageLayout.expand(versions: schemas)
        var versionsByHash: [String: Schema.Version] = [:]
        var hashes: [String] = []
        // Consecutive pairs by index rather than zip(_:_:): a short-lived process pays for each generic
        // type it instantiates, and the `migrate` command resolves its plan on every run.
        for index in schemas.indices.dropFirst() where !(schemas[index - 1].version < schemas[index].version) {
            let (previous, next) = (schemas[index - 1], schemas[index])
            throw fail(
                previous.version == next.version
                    ? "version \(next.version) is listed twice in the plan '\(name)'"
                    : "the plan '\(name)' lists version \(next.version) after \(previous.version)",
                version: next.version, remedy: "list each version once, oldest first")
        }
        for index in schemas.indices {
            let schema = schemas[index]
            let hash = knownHashes?[index] ?? schema.versionHash
            if let other = versionsByHash[hash] {
                throw fail(
                    "versions \(other) and \(schema.version) declare the same schema (hash \(hash.prefix(12))…)",
                    version: schema.version,
                    remedy:
                        "a new version must change something; set a hashModifier to force a rebuild, or remove the duplicate version"
                )
            }
            versionsByHash[hash] = schema.version
            hashes.append(hash)
        }
        var resolved: [PlannedStage] = []
        for index in stored.indices.dropFirst() {
            let (previous, next) = (stored[index - 1], stored[index])
            let matching = stages.filter { $0.from == previous.version && $0.to == next.version }
            if matching.count > 1 {
                throw fail(
                    "the plan '\(name)' has \(matching.count) stages from \(previous.version) to \(next.version)",
                    version: next.version, remedy: "keep one stage per pair of consecutive versions")
            }
            var stage = matching.first ?? PlannedStage(from: previous.version, to: next.version, kind: .lightweight)
            (stage.source, stage.target) = (previous, next)
            resolved.append(stage)
        }
        for stage in stages where !resolved.contains(where: { $0.from == stage.from && $0.to == stage.to }) {
            let known = Set(schemas.map(\.version))
            let message =
                !known.contains(stage.from) || !known.contains(stage.to)
                ? "a stage goes from \(stage.from) to \(stage.to), but the plan '\(name)' does not list version \(!known.contains(stage.from) ? stage.from : stage.to)"
                : "a stage goes from \(stage.from) to \(stage.to), which are not consecutive versions"
            throw fail(
                message, version: stage.to, remedy: "stages go from each version to the next one listed in `schemas`")
        }
        self.name = name
        self.declared = schemas
        self.schemas = stored
        self.stages = resolved
        self.hashedVersions = schemas.map(\.version)
        self.hashes = hashes
    }
}

extension ResolvedPlan {
    /// The stages from `current` to `target`, each planned and carrying its declaration's code.
    /// - Throws: `MigrationError` for any change a stage cannot make (before anything runs).
    func plannedStages(from current: Schema.Version, to target: Schema.Version, planner: Planner? = nil) throws
        -> [PlannedStage]
    {
        // Declared SQL is checked with the application's collations and functions, whichever
        // planner (an online change has its own capabilities).
        var planner = planner ?? Planner()
        planner.environment = environment
        if target < current { return try reversedStages(from: current, to: target, planner: planner) }
        // One stage between each pair of consecutive versions, in order (see `init`).
        return
            try stages
            .filter { $0.from >= current && $0.to <= target }
            .map { declared in
                var stage = try planner.plan(from: declared.source, to: declared.target, kind: declared.kind)
                stage.willMigrate = declared.willMigrate
                stage.didMigrate = declared.didMigrate
                return stage
            }
    }
}

extension PlannedStage {
    /// A stage as the Swift plan declares it, before planning.
    init(declared stage: MigrationStage) {
        switch stage {
        case .lightweight(let from, let to):
            self.init(from: from.versionIdentifier, to: to.versionIdentifier, kind: .lightweight)
        case .custom(let from, let to, let will, let did):
            self.init(
                from: from.versionIdentifier, to: to.versionIdentifier, kind: .custom, willMigrate: will,
                didMigrate: did)
        case .reversibleCustom(let from, let to, let will, let did, let reverseWill, let reverseDid):
            self.init(
                from: from.versionIdentifier, to: to.versionIdentifier, kind: .custom, willMigrate: will,
                didMigrate: did)
            isReversible = true
            reverseWillMigrate = reverseWill
            reverseDidMigrate = reverseDid
        }
    }
}
