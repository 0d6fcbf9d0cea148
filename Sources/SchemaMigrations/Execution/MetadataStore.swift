#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The package's metadata table in the migrated database: one row per applied stage (or
/// creation, or adoption), keyed by plan name, so any tool can read what a database is without
/// the app's code.
///
/// ```sql
/// CREATE TABLE "_schema_migrations" (
///   "plan" TEXT NOT NULL, "seq" INTEGER NOT NULL, "version" TEXT NOT NULL, "hash" TEXT NOT NULL,
///   "kind" TEXT NOT NULL, "fromVersion" TEXT, "startedAt" REAL NOT NULL, "durationMs" REAL NOT NULL,
///   "schemaCookie" INTEGER NOT NULL, "snapshot" TEXT NOT NULL, PRIMARY KEY ("plan", "seq"))
/// ```
/// The newest row of a plan is its current version. `schemaCookie` is `PRAGMA schema_version`
/// right after the row's stage: while it is unchanged, nobody altered the schema since, and an
/// up-to-date check needs no introspection.
struct MetadataStore {
    /// The newest record of a plan: what an up-to-date check reads (not the snapshot, which can be
    /// large and is needed only to explain a refusal: ``currentSnapshot()``).
    struct Record: Sendable, Hashable {
        var version: Schema.Version
        var hash: String
        var schemaCookie: Int64
    }

    /// One applied stage, for history.
    struct Entry: Sendable {
        var version: Schema.Version
        var hash: String
        var kind: String
        var fromVersion: Schema.Version?
        var startedAt: Date
        var duration: TimeInterval
        var snapshot: String
    }

    let db: any SQLQuerying
    let plan: String

    static let createSQL = """
        CREATE TABLE IF NOT EXISTS "\(TableNames.metadata)" ("plan" TEXT NOT NULL, "seq" INTEGER NOT NULL, \
        "version" TEXT NOT NULL, "hash" TEXT NOT NULL, "kind" TEXT NOT NULL, "fromVersion" TEXT, \
        "startedAt" REAL NOT NULL, "durationMs" REAL NOT NULL, "schemaCookie" INTEGER NOT NULL, \
        "snapshot" TEXT NOT NULL, PRIMARY KEY ("plan", "seq"))
        """

    /// Whether the metadata table exists.
    func exists() throws -> Bool {
        try db.scalar("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?", [.text(TableNames.metadata)])
            != nil
    }

    /// The plan's newest record, or nil when the plan never ran on this database.
    func current() throws -> Record? {
        guard try exists() else { return nil }
        let row = try db.rows(
            """
            SELECT "version", "hash", "schemaCookie" FROM "\(TableNames.metadata)" \
            WHERE "plan" = ? ORDER BY "seq" DESC LIMIT 1
            """, [.text(plan)]
        ).first
        guard let row else { return nil }
        guard let text = row[0].stringValue, let version = Schema.Version(text) else {
            throw MigrationError(
                .unknownVersion,
                "the metadata of plan '\(plan)' records a version that is not a version: \(row[0].sqlLiteral)",
                remedy: "the metadata table '\(TableNames.metadata)' was edited by hand; restore it from a backup")
        }
        return Record(version: version, hash: row[1].stringValue ?? "", schemaCookie: row[2].int64Value ?? -1)
    }

    /// The JSON snapshot of the schema the plan's newest record applied, or nil without one.
    func currentSnapshot() throws -> String? {
        guard try exists() else { return nil }
        return try db.scalar(
            """
            SELECT "snapshot" FROM "\(TableNames.metadata)" WHERE "plan" = ? ORDER BY "seq" DESC LIMIT 1
            """, [.text(plan)]
        )?.stringValue
    }

    /// When the plan's newest record ended (its start plus its duration), if it started at or
    /// after `start`: the record an earlier transaction of the same run wrote (one stage per
    /// transaction). Nil otherwise.
    func end(ofRecordSince start: Date) throws -> Date? {
        guard try exists() else { return nil }
        let row = try db.rows(
            #"SELECT "startedAt", "durationMs" FROM "\#(TableNames.metadata)" WHERE "plan" = ? ORDER BY "seq" DESC LIMIT 1"#,
            [.text(plan)]
        ).first
        guard let row, let started = row[0].doubleValue, started >= start.timeIntervalSince1970 else { return nil }
        return Date(timeIntervalSince1970: started + (row[1].doubleValue ?? 0) / 1000)
    }

    /// Appends a record; call inside the migration's transaction, after its last schema change.
    func append(_ entry: Entry) throws {
        try db.execute(MetadataStore.createSQL)
        let cookie = try db.pragmaInteger("schema_version")
        try db.execute(
            """
            INSERT INTO "\(TableNames.metadata)" ("plan", "seq", "version", "hash", "kind", "fromVersion", "startedAt", "durationMs", "schemaCookie", "snapshot") \
            VALUES (?, (SELECT IFNULL(max("seq"), 0) + 1 FROM "\(TableNames.metadata)" WHERE "plan" = ?), ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(plan), .text(plan), .text(entry.version.description), .text(entry.hash), .text(entry.kind),
                entry.fromVersion.map { .text($0.description) } ?? .null, .real(entry.startedAt.timeIntervalSince1970),
                .real(entry.duration * 1000), .integer(cookie), .text(entry.snapshot),
            ])
    }
}
