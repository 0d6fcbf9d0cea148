#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One stage a database went through, as its metadata table recorded it: what `migrate history`
/// prints.
///
/// ```swift
/// for stage in try Migrator(plan: TripsMigrationPlan.self).history(databaseAt: url) {
///     print(stage.from.map(\.description) ?? "-", "→", stage.to, stage.kind, stage.appliedAt, stage.duration)
/// }
/// ```
public struct AppliedStage: Sendable, Hashable, CustomStringConvertible {
    /// The plan that applied it (several plans can share one file).
    public var plan: String
    /// Its place in the plan's history, from 1.
    public var sequence: Int
    /// The version before it; nil when the schema was created or an existing database adopted.
    public var from: Schema.Version?
    /// The version it brought the database to.
    public var to: Schema.Version
    /// `lightweight`, `custom`, `create` (the latest schema created in an empty database) or
    /// `adopt` (an unversioned database recognised by its tables and recorded).
    public var kind: String
    /// When it started.
    public var appliedAt: Date
    /// How long it took, in seconds.
    public var duration: TimeInterval

    /// The stage as a row of `migrate history`: `2  1.0.0  2.0.0  lightweight  2026-11-22T15:30:00.123Z  3.2 ms`.
    public var description: String { cells.joined(separator: "  ") }

    /// The row's cells: sequence, from (`-` when none), to, kind, when (UTC), how long.
    package var cells: [String] {
        let took = duration < 1 ? (duration * 1000).fixedPoint(1) + " ms" : duration.fixedPoint(2) + " s"
        return [
            "\(sequence)", from.map(\.description) ?? "-", to.description, kind, SystemCalls.iso8601UTC(appliedAt),
            took,
        ]
    }
}

extension Migrator {
    /// Every stage the plan applied to the database at `url`, oldest first. Read-only; empty
    /// when the plan never ran there (or there is no file).
    /// - Throws: `MigrationError` when the file is not a database, or cannot be read.
    public func history(databaseAt url: URL) throws -> [AppliedStage] {
        try Migrator.history(databaseAt: url, plan: try resolved.get().name, busyTimeout: options.busyTimeout)
    }

    /// Every stage recorded in the database at `url`, for one plan or (nil) every plan in it,
    /// oldest first within each plan. Needs no plan: any tool can read what a database went through.
    public static func history(databaseAt url: URL, plan: String? = nil, busyTimeout: TimeInterval = 5) throws
        -> [AppliedStage]
    {
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        do {
            // reads only the metadata table
            let db = try Migrator.open(url, mode: .readOnly, busyTimeout: busyTimeout, vfs: nil, environment: .none)
            guard try MetadataStore(db: db, plan: plan ?? "").exists() else { return [] }
            let filter = plan == nil ? "" : #"WHERE "plan" = ?"#
            return try db.rows(
                """
                SELECT "plan", "seq", "fromVersion", "version", "kind", "startedAt", "durationMs" FROM "\(TableNames.metadata)" \(filter) ORDER BY "plan", "seq"
                """, plan.map { [.text($0)] } ?? []
            ).compactMap { row in
                guard let to = row[3].stringValue.flatMap(Schema.Version.init) else { return nil }
                return AppliedStage(
                    plan: row[0].stringValue ?? "", sequence: Int(row[1].int64Value ?? 0),
                    from: row[2].stringValue.flatMap(Schema.Version.init),
                    to: to, kind: row[4].stringValue ?? "",
                    appliedAt: Date(timeIntervalSince1970: row[5].doubleValue ?? 0),
                    duration: (row[6].doubleValue ?? 0) / 1000)
            }
        } catch let error as SQLiteError {
            throw MigrationError.wrap(error, message: "cannot read the history of '\(url.path)'").advised(
                path: url.path)
        } catch let error as MigrationError {
            throw error.advised(path: url.path)
        }
    }
}
