#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// The errors several layers raise alike, made in one place.

extension MigrationError {
    /// The refusal of a read-only command to read a database whose last write was interrupted.
    static func interrupted(path: String, sqliteError: SQLiteError) -> MigrationError {
        MigrationError(
            .interruptedMigration,
            "a migration or another write to '\(path)' was interrupted; its journal ('\(path)-journal') holds the database as it was before, and will restore it the next time the file is opened for writing",
            remedy:
                "run `migrate apply` (it restores the database, then migrates), or open the database once with write access; do not delete the journal",
            sqliteError: sqliteError)
    }

    /// Turns an error met while first reading a file into a clear refusal when the file is not a database.
    static func fromOpening(_ error: SQLiteError, path: String) -> Error {
        if error.resultCode.isDamage {
            return MigrationError(
                .notADatabase, "'\(path)' is not a SQLite database, or is corrupt",
                remedy: "check the path; restore the file from a backup if it is corrupt", sqliteError: error)
        }
        return MigrationError(.sqlite, "cannot read the schema of '\(path)'", sqliteError: error)
    }

    /// The refusal of an online change to take a database back to an older version.
    static func onlineBackwards(from current: Schema.Version, to target: Schema.Version) -> MigrationError {
        MigrationError(
            .onlineRefused,
            "an online change goes forward only; the database is at \(current), after the target version \(target)",
            version: current, remedy: "take it back to \(target) without --online (one transaction)")
    }

    /// A SQLite error met while migrating, as a migration error.
    package static func wrap(_ error: SQLiteError, message: String) -> MigrationError {
        MigrationError(
            .sqlite, message,
            remedy: error.isBusy ? "retry when the other connection has finished, or raise the busy timeout" : nil,
            sqliteError: error)
    }
}
