#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Works out which declared version a database is at.
///
/// - Metadata present: its version, after checking the plan declares it unchanged and (unless
///   `PRAGMA schema_version` shows nobody altered the schema since) that the live tables match it.
/// - No metadata, but tables: the newest declared version whose tables the database matches is
///   adopted — preferring one that declares every table of the plan's the file has (a file made at
///   V1, whose V2 drops a table and changes nothing else, matches V2 too, but is at V1), then one
///   whose column defaults match as well (defaults alone never make a file unadoptable).
/// - None of the plan's tables: empty.
struct VersionDetection {
    enum State {
        case empty
        case recorded(Schema.Version)
        case unversioned(Schema.Version)

        var version: Schema.Version? {
            switch self {
            case .empty: return nil
            case .recorded(let version), .unversioned(let version): return version
            }
        }
    }

    let plan: ResolvedPlan
    let db: any SQLQuerying

    /// - Parameter trustCookie: skip introspection when the schema cookie is unchanged since the last recorded stage.
    func detect(trustCookie: Bool = true) throws -> State {
        let store = MetadataStore(db: db, plan: plan.name)
        if let record = try store.current() {
            let schema = try declaredSchema(for: record)
            if trustCookie, record.schemaCookie == (try db.pragmaInteger("schema_version")) {
                return .recorded(schema.version)
            }
            let live = try LiveSchema.read(from: db, onlyTables: Set(schema.entityNames))
            let accepted = try AcceptedDifferences.load(from: db, plan: plan.name)  // what a baseline accepted
            let differences = accepted.unaccepted(
                SchemaComparison(checksDefaults: false, undeclaredUniqueIndexesDiffer: false)
                    .differences(declared: schema, live: live))
            guard differences.isEmpty else {
                throw MigrationError(
                    .drift,
                    "the database's schema no longer matches version \(schema.version), which its metadata records",
                    version: schema.version,
                    remedy: "undo the change made outside the plan, or declare it as a new version",
                    details: differences.map(\.description))
            }
            return .recorded(schema.version)
        }
        let live = try LiveSchema.read(from: db)
        let ours = plan.allEntityNames
        guard live.userTables.contains(where: { ours.contains($0.name.sqlFolded) }) else { return .empty }
        let present = Set(live.userTables.map { $0.name.sqlFolded }.filter { ours.contains($0) })
        var closest: (schema: Schema, differences: [SchemaDifference])?
        var matching: [Schema] = []
        for schema in plan.schemas.reversed() {
            let differences = SchemaComparison(checksDefaults: false).differences(declared: schema, live: live)
            if differences.isEmpty { matching.append(schema) }
            if closest == nil || differences.count < closest!.differences.count { closest = (schema, differences) }
        }
        // Newest first, preferring a version that declares every table of the plan's the file has,
        // then one whose defaults match too: a file made at V1 whose V3 only adds a default
        // matches V3 as well, but holds V1's rows (V2 may have filled NULLs V3 no longer would).
        let declaresPresent = { (schema: Schema) in present.isSubset(of: Set(schema.entityNames.map { $0.sqlFolded })) }
        let defaultsMatch = { (schema: Schema) in
            SchemaComparison(checksDefaults: true).differences(declared: schema, live: live).isEmpty
        }
        if let schema = matching.first(where: { declaresPresent($0) && defaultsMatch($0) })
            ?? matching.first(where: declaresPresent) ?? matching.first(where: defaultsMatch) ?? matching.first
        {
            return .unversioned(schema.version)
        }
        throw MigrationError(
            .unknownVersion,
            "the database has no version recorded and its tables match none of the plan's \(plan.schemas.count) versions",
            version: closest?.schema.version,
            remedy:
                "declare what the file has (the lines above), or scaffold a V1 that matches it: `migrate scaffold --database PATH --output FILE` writes its Swift declarations (`migrate snapshot --database PATH --output DIR` its JSON plan; in code: `Schema(introspecting:)`), or record a version with `migrate baseline --version V`",
            details: closest.map {
                ["closest is \($0.schema.version); to declare what the file has:"]
                    + SchemaDifference.adoptionAdvice(for: $0.differences, declared: $0.schema, live: live)
            } ?? [])
    }

    /// The declared schema of a recorded version, refusing unknown, newer and changed versions.
    func declaredSchema(for record: MetadataStore.Record) throws -> Schema {
        guard let schema = plan.schema(for: record.version), record.hash == plan.hash(of: record.version) else {
            if let clash = nameClash(record) { throw clash }
            return try refusal(for: record)
        }
        return schema
    }

    /// Another plan of the same name (two plans that both kept the default name `"default"`)
    /// recorded this version: the recorded schema shares no table with any version of this plan.
    private func nameClash(_ record: MetadataStore.Record) -> MigrationError? {
        guard let snapshot = try? MetadataStore(db: db, plan: plan.name).currentSnapshot(),
            let recorded = try? Schema(snapshotJSON: Data(snapshot.utf8))
        else { return nil }
        let theirs = recorded.entities.map(\.name)
        guard !theirs.isEmpty, theirs.allSatisfy({ !plan.allEntityNames.contains($0.sqlFolded) }) else { return nil }
        return MigrationError(
            .invalidPlan,
            "the database records version \(record.version) of another plan also named '\(plan.name)', whose tables (\(theirs.sorted().joined(separator: ", "))) are not this plan's: two plans share a name",
            version: record.version,
            remedy:
                "give this plan a name of its own (`static let name = \"…\"` in its SchemaMigrationPlan), so that each plan keeps its own versions in the file; a plan already applied under '\(plan.name)' keeps that name"
        )
    }

    private func refusal(for record: MetadataStore.Record) throws -> Schema {
        guard let schema = plan.schema(for: record.version) else {
            if record.version > plan.latest.version {
                throw MigrationError(
                    .newerVersion,
                    "the database is at version \(record.version), newer than the plan's latest version \(plan.latest.version)",
                    version: record.version,
                    remedy: "run a newer build of the app or plan; this one must not touch the database")
            }
            throw MigrationError(
                .unknownVersion,
                "the database is at version \(record.version), which the plan '\(plan.name)' does not declare",
                version: record.version, remedy: "add version \(record.version) back to the plan's schemas")
        }
        let declaredHash = plan.hash(of: record.version)
        if record.hash != declaredHash {
            // What changed, from the snapshot the database recorded when the version was applied;
            // a snapshot that cannot be read leaves the two hashes alone to say it.
            let released = (try? MetadataStore(db: db, plan: plan.name).currentSnapshot()).flatMap { $0 }
                .flatMap { try? Schema(snapshotJSON: Data($0.utf8)) }
            let changes = released.map { SchemaChanges.lines(released: $0, declared: schema) } ?? []
            throw MigrationError(
                .invalidPlan,
                "version \(record.version) was applied with schema hash \(record.hash.prefix(12))…, but the plan now declares it with hash \(declaredHash.prefix(12))…",
                version: record.version,
                remedy:
                    "a released version must never change: restore its declaration, and put the change in a new version",
                details: changes.isEmpty ? [] : ["changed since it was applied:"] + changes.map { "  " + $0 })
        }
        return schema
    }
}
