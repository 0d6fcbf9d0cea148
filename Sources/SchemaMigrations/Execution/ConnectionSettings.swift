#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The connection settings a migration needs (steps 1 and 12 of ``AlterTableProcedure``), and the
/// user's, restored afterwards: applied by ``MigrationFraming/withSettings(version:_:)``, the same
/// on a file, a lent connection and a dqlite cluster.
///
/// Besides foreign keys and `legacy_alter_table`, SQLite's sorter may use one helper thread
/// (`PRAGMA threads = 1`) while a rebuild builds its indexes, when the machine has more than one
/// core: it sorts one batch while the statement fills the next. Each thread the sorter uses holds
/// a sort buffer as large as the page cache (2 MiB by default), so one helper is the trade: on
/// two cores it builds the benchmark's 1,000,000-row indexes as fast as two helpers did, with one
/// buffer less.
/// Related SQLite documentation: <https://www.sqlite.org/pragma.html#pragma_threads>
struct ConnectionSettings {
    /// A pragma a migration sets outside its transaction.
    struct Pragma: Sendable {
        /// The pragma's name, as SQLite spells it.
        var name: String
        /// The value a migration needs.
        var value: String
        /// True when correctness depends on it (a script written for the `sqlite3` shell sets it);
        /// false for a speed setting.
        var isRequired: Bool

        /// `PRAGMA name = value`.
        var statement: String { "PRAGMA \(name) = \(value)" }
    }

    /// Every pragma a migration sets, in the order it sets them: the one list the migration,
    /// the rehearsal (which leaves them out of what it records) and the written script read.
    static let pragmas: [Pragma] = [
        Pragma(name: "foreign_keys", value: "OFF", isRequired: true),
        Pragma(name: "legacy_alter_table", value: "OFF", isRequired: true),
        Pragma(name: "threads", value: ProcessInfo.processInfo.activeProcessorCount > 1 ? "1" : "0", isRequired: false),
    ]

    /// The connection's own values, in the order of ``pragmas``.
    private let saved: [Int64]

    /// Step 1: reads the connection's values, sets the migration's and reads foreign keys back.
    static func prepare(_ db: any SQLQuerying) throws -> ConnectionSettings {
        let settings = ConnectionSettings(saved: try pragmas.map { try db.pragmaInteger($0.name) })
        for pragma in pragmas { try db.execute(pragma.statement) }
        guard try db.pragmaInteger("foreign_keys") == 0 else {
            _ = settings.restoreFailure(db, version: nil)
            throw MigrationError(
                .sqlite,
                "cannot turn foreign keys off, so rebuilding a table could cascade deletes to its children; nothing was done",
                remedy: "call the migrator outside any transaction")
        }
        return settings
    }

    /// Step 12: sets every pragma back (all of them are tried), and describes the first that
    /// failed, nil when all were restored.
    func restoreFailure(_ db: any SQLQuerying, version: Schema.Version?, afterMigrating: Bool = false)
        -> MigrationError?
    {
        var failure: MigrationError?
        for (pragma, value) in zip(Self.pragmas, saved) {
            let statement = "PRAGMA \(pragma.name) = \(value)"
            do {
                try db.execute(statement)
            } catch {
                guard failure == nil else { continue }
                let outcome =
                    afterMigrating
                    ? "the migration to \(version.map { "\($0)" } ?? "the target") committed, but"
                    : "after the failure,"
                failure = MigrationError(
                    .sqlite,
                    "\(outcome) the connection's \(pragma.name) could not be set back to \(value) (\(statement) failed); it is still \(pragma.value)",
                    version: version,
                    remedy:
                        "set it on the connection yourself before using it again (an authorizer or a transaction of the app's may have refused it)",
                    sqliteError: error as? SQLiteError, underlyingError: error)
            }
        }
        return failure
    }
}
