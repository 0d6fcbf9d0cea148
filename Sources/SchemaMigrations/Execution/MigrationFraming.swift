/// What surrounds a migration's stages, wherever the database lives: steps 1-2 and 10-12 of
/// SQLite's generalized ALTER TABLE procedure (``AlterTableProcedure``). The connection settings
/// and their read-back (foreign keys must read back off), the write transaction, and the metadata
/// read and written inside it are carried out here once, for every place a database lives:
///
/// - ``FileFraming``: a file the library opens;
/// - ``LentConnectionFraming``: a connection the app lends (`migrate(connection:)`);
/// - `ClusterFraming` (in `SchemaMigrationsCluster`): a dqlite cluster's leader, over the wire.
///
/// An implementation says only how its transaction begins and ends; the settings, their
/// read-back and restoration, and the transaction's error handling are the same for all three.
///
/// ```swift
/// let framing = FileFraming(connection: db)
/// let result = try framing.withSettings(version: target.version) {
///     try framing.inWriteTransaction(doing: "migration") { try stages.migrate(…) }
/// }
/// ```
///
/// Related SQLite documentation: <https://www.sqlite.org/lang_altertable.html#otheralter>
package protocol MigrationFraming {
    /// The connection every statement of the migration goes through.
    var database: any MigrationDatabase { get }
    /// Step 2: `BEGIN IMMEDIATE` (no other writer from now on).
    /// - Throws: `SQLiteError` (`SQLITE_BUSY` when another connection holds the lock), or the
    ///   connection's own error.
    func beginImmediate() throws
    /// Step 11: `COMMIT`.
    func commit() throws
    /// Rolls the open transaction back, ignoring errors (a failure path).
    func rollback()
    /// How long a `BEGIN IMMEDIATE` waited for another connection's lock, for the message that says so.
    var lockWait: String { get }
}

extension MigrationFraming {
    /// Steps 1 and 12: runs `body` with the migration's settings (``ConnectionSettings/pragmas``),
    /// foreign keys read back off, then restores the connection's own, whether `body` returned or
    /// threw.
    /// - Throws: what `body` threw (with a detail when the settings could not be restored
    ///   either); or, when `body` returned, a `MigrationError` when the settings cannot be
    ///   restored: a connection the app goes on using must not silently keep foreign keys off.
    package func withSettings<T>(version: Schema.Version, _ body: () throws -> T) throws -> T {
        let settings = try ConnectionSettings.prepare(database)
        let result: T
        do {
            result = try body()
        } catch var error as MigrationError {
            if let failure = settings.restoreFailure(database, version: version) {
                error.details.append(failure.message)
            }
            throw error
        } catch {
            _ = settings.restoreFailure(database, version: version)
            throw error
        }
        if let failure = settings.restoreFailure(database, version: version, afterMigrating: true) { throw failure }
        return result
    }

    /// Steps 2 and 11: `body` in one `BEGIN IMMEDIATE … COMMIT` transaction, rolled back on any
    /// error, with SQLite's errors told as migration errors that say what was being done. A
    /// migration, each stage of a per-stage migration, each phase of an online change and a
    /// baseline all go through it.
    /// - Parameters:
    ///   - work: what the transaction does, for messages: "migration", "baseline".
    ///   - keeping: whether to commit what `body` returned; false rolls back (nothing was written).
    package func inWriteTransaction<T>(
        doing work: String, keeping: (T) -> Bool = { _ in true },
        _ body: () throws -> T
    ) throws -> T {
        do {
            try beginImmediate()
        } catch let error as SQLiteError {
            guard error.isBusy else {
                throw MigrationError.wrap(error, message: "cannot begin the \(work)'s transaction; nothing was written")
            }
            throw MigrationError(
                .locked,
                "another connection held the database's write lock for longer than the busy timeout (waited \(lockWait)); nothing was done",
                remedy:
                    "retry when it has finished (another migration of this file that finishes in time is waited for, and this one then finds the file current), or wait longer: --busy-timeout SECONDS (MigrationOptions.busyTimeout)",
                sqliteError: error)
        }
        do {
            let result = try body()
            if keeping(result) { try commit() } else { rollback() }
            return result
        } catch let error as SQLiteError {
            rollback()
            throw MigrationError.wrap(error, message: "the \(work) failed and was rolled back")
        } catch {
            rollback()
            throw error
        }
    }

    /// The plan's metadata (its recorded version, its history), read and written through this framing.
    func metadata(plan: String) -> MetadataStore { MetadataStore(db: database, plan: plan) }

    /// The plan's newest recorded version, nil when the plan never ran on this database.
    /// - Throws: `MigrationError` when the metadata holds something that is not a version.
    package func recordedVersion(plan: String) throws -> Schema.Version? {
        try metadata(plan: plan).current()?.version
    }
}
