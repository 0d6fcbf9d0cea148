#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What ``Migrator/baseline(databaseAt:version:)`` recorded.
public struct BaselineResult: Sendable, Hashable {
    /// The database's path.
    public var database: String
    /// The version now recorded.
    public var version: Schema.Version
    /// The differences between the file and the version that were accepted: kept as the file
    /// has them, and tolerated by drift checks and `verify` from now on.
    public var acceptedDifferences: [String]
}

extension Migrator {
    /// Records that the unversioned database at `url` is at `version`, accepting the differences
    /// that do not stop the declared version from working on it (extra columns and unique indexes,
    /// nullability, foreign keys). Writes the metadata only; no table is changed.
    ///
    /// ```swift
    /// let result = try migrator.baseline(databaseAt: url, version: Schema.Version(1, 0, 0))
    /// result.acceptedDifferences.forEach { print("accepted:", $0) }
    /// ```
    /// - Throws: `MigrationError`, the file then unchanged: `unknownVersion` when a declared table,
    ///   column or index is missing, a column's type disagrees or a table lacks its `"id"` key (each
    ///   listed); `unsupportedChange` when the database already records a version of the plan;
    ///   `invalidPlan` when the plan does not declare `version`; `notADatabase`.
    @discardableResult
    public func baseline(databaseAt url: URL, version: Schema.Version) throws -> BaselineResult {
        let plan = try resolvedPlan()
        guard let schema = plan.schema(for: version), let declared = plan.declaredSchema(for: version) else {
            throw MigrationError(
                .invalidPlan, "version \(version) is not declared by the plan '\(plan.name)'", version: version,
                remedy: "use one of: " + plan.schemas.map(\.version.description).joined(separator: ", "))
        }
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw MigrationError(
                .notADatabase, "there is no database at '\(url.path)' to baseline",
                remedy: "check the path; an empty database needs no baseline: `migrate` creates the schema")
        }
        let db = try open(url, mode: .readWrite)
        return try db.framing.inWriteTransaction(doing: "baseline") {
            let store = MetadataStore(db: db, plan: plan.name)
            if let record = try store.current() {
                throw MigrationError(
                    .unsupportedChange,
                    "the database already records version \(record.version) of the plan '\(plan.name)'; a baseline is for a database with no version recorded",
                    version: record.version,
                    remedy: "run `migrate status` to see where it stands, and `migrate apply` to move it on")
            }
            let live = try LiveSchema.read(from: db)
            let differences = SchemaComparison(checksDefaults: false).differences(declared: schema, live: live)
            let refusals = differences.compactMap { $0.baselineRefusal(declared: schema) }
            guard refusals.isEmpty else {
                throw MigrationError(
                    .unknownVersion,
                    "the database cannot be recorded at version \(version): what the version declares is missing from the file or stored differently (\(refusals.count) difference\(refusals.count == 1 ? "" : "s"))",
                    version: version,
                    remedy:
                        "baseline at the version the file really is at, or write one that matches it: `migrate scaffold --database PATH --output FILE` (Swift) or `migrate snapshot --database PATH --output DIR` (JSON)",
                    details: refusals)
            }
            try AcceptedDifferences.save(differences, to: db, plan: plan.name)
            try store.append(
                .init(
                    version: version, hash: plan.hash(of: version), kind: "baseline", fromVersion: nil,
                    startedAt: Date(), duration: 0, snapshot: try declared.compactJSON()))
            return BaselineResult(
                database: url.path, version: version, acceptedDifferences: differences.map(\.description))
        }
    }

    /// Other migration tools' bookkeeping in the database at `url` (GRDB's `grdb_migrations`,
    /// Room, Alembic, Django, Atlas, Core Data): which tool managed it before and what it
    /// recorded. Read-only; a missing file has none.
    public func otherTools(databaseAt url: URL) throws -> [ForeignMigrationHistory] {
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        let db = try open(url, mode: .readOnly)
        do {
            return try ForeignMigrationHistory.read(from: db)
        } catch let error as SQLiteError {
            throw MigrationError.wrap(error, message: "cannot read other migration tools' tables in '\(url.path)'")
        }
    }
}

extension SchemaDifference {
    /// Why a baseline refuses this difference, in words, or nil when it accepts it. It refuses a
    /// declared table, column or index the file lacks, a column whose type (affinity) disagrees
    /// with what the attribute stores, and a table without the `"id"` key a declared entity has.
    func baselineRefusal(declared: Schema) -> String? {
        switch self {
        case .missingTable(let table):
            return "table \(table) is declared but missing from the file"
        case .noIntegerPrimaryKey(let table):
            return "table \(table) has no \"id\" INTEGER PRIMARY KEY column, which every declared entity's table has"
        case .missingColumn(let table, let column):
            return "column \(table).\(column) is declared but missing from the file"
        case .columnType(let table, let column, let live, _):
            // Types are told apart by the values the column stores: a type of the same affinity works.
            guard let attribute = declared.entity(named: table)?.attribute(named: column),
                Schema.StorageType(affinityOf: live) != attribute.storageType
            else { return nil }
            return "column \(table).\(column) is \(live.isEmpty ? "untyped" : live) in the file, declared "
                + "\(attribute.storageType.rawValue) (\(attribute.swiftType ?? attribute.valueType.rawValue))"
        case .missingIndex(let table, let index):
            // A later version dropping a missing index could not run: the file must have every declared one.
            let kind = index.isUnique ? "unique index" : "index"
            return "\(kind) on \(table)\(index.termsDescription) is declared but missing from the file: create it first"
        default:
            return nil
        }
    }
}
