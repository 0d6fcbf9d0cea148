import CSQLite

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension MigrationError {
    /// The error with a remedy for the SQLite failures a deploy meets most, when it has none yet:
    /// another process holding a lock, a directory SQLite cannot create its journal in, a file
    /// that cannot be written or opened. Advising an error twice changes it once (``isAdvised``).
    ///
    /// ```
    /// error: cannot read the schema of 'app.sqlite': another connection holds a lock on it
    ///   SQLite error 5 (SQLITE_BUSY): database is locked - while executing `…`
    ///   fix: wait for the other process to finish (a long transaction, an open sqlite3 shell), then retry; or let it wait longer: --busy-timeout SECONDS (MigrationOptions.busyTimeout)
    /// ```
    func advised(path: String) -> MigrationError {
        guard !isAdvised else { return self }
        var error = self
        error.isAdvised = true
        // A collation or function the application registers, met by SQL this package did not
        // foresee (a custom stage's statement firing a trigger): say how to give it to the migrator.
        if let sqliteError, code != .sqlEnvironment, let need = SQLEnvironmentNeed(message: sqliteError.message) {
            error.remedy = SQLEnvironmentNeed.remedy(for: [need])
            return error
        }
        // A lock outlasting the busy timeout has its own code, message and remedy already.
        guard let sqliteError, code != .locked, remedy == nil || sqliteError.isBusy else { return error }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        switch sqliteError.resultCode {
        case .busy, .locked:
            error.message += ": another connection holds a lock on it"
            error.remedy =
                "wait for the other process to finish (a long transaction, an open sqlite3 shell), then retry; "
                + "or let it wait longer: --busy-timeout SECONDS (MigrationOptions.busyTimeout)"
        case .readOnlyDirectory:
            error.message += ": the directory '\(directory)' is read-only"
            error.remedy =
                "SQLite writes its journal beside the database: make '\(directory)' writable "
                + "(or migrate a copy in a writable directory and move it back)"
        case .readOnly:
            error.remedy = "give the migration write access to '\(path)' and to its directory '\(directory)'"
        case .cannotOpen:
            error.remedy = "check that '\(directory)' exists and is readable and writable, and that '\(path)' is a file"
        case .full:
            error.remedy =
                "free disk space (a migration needs room for the journal and, for a rebuild, a second copy of the table)"
        default:
            break
        }
        return error
    }
}
