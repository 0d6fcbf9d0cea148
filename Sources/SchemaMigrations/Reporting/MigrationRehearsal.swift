#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Runs a migration on a temporary copy of a database (SQLite's online backup API), recording
/// every statement it executes: the exact script `apply` would run, checked to succeed on the
/// data as it is now. The database itself is only read.
struct MigrationRehearsal {
    /// What the rehearsal did.
    struct Outcome {
        var result: MigrationResult
        /// `PRAGMA schema_version` of the database when it was copied.
        var schemaCookie: Int64
        /// The statements that change the database, in order, with a note before each step.
        var entries: [StatementRecorder.Entry]
    }

    let plan: ResolvedPlan
    let options: MigrationOptions

    /// - Throws: `MigrationError` when the migration would fail (the copy is then discarded).
    func run(copying source: SQLiteConnection) throws -> Outcome {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "schemamigrations-rehearsal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        let cookie = try source.pragmaInteger("schema_version")
        let copy = try SQLiteConnection(
            path: directory.appendingPathComponent("copy.sqlite").path, mode: .readWriteCreate,
            environment: options.sqlEnvironment)
        try source.backup(into: copy)
        // The backup API bumps the copy's schema cookie; give it the source's, so that the cookies the
        // rehearsal records in the metadata are those the real database will have after the script.
        // Safe: no other connection has the copy open, and its schema is the source's.
        try copy.execute("PRAGMA schema_version = \(cookie)")

        let recorder = StatementRecorder()
        var rehearsalOptions = options
        rehearsalOptions.backupURL = nil
        rehearsalOptions.progress = { progress in
            // A note per step; a custom stage's row counts would be one per batch.
            if progress.rowsDone == nil { recorder.append(.note(progress.description)) }
        }
        copy.startRecording(into: recorder)
        defer { copy.stopRecording() }
        let result = try FileFraming(connection: copy).migrate(
            MigrationRehearsal.announcingCustomCode(of: plan, to: recorder), options: rehearsalOptions)
        return Outcome(result: result, schemaCookie: cookie, entries: MigrationRehearsal.writes(in: recorder.entries))
    }

    /// The plan with each custom stage's closures preceded by a note, so the script says where
    /// the SQL they ran comes from.
    static func announcingCustomCode(of plan: ResolvedPlan, to recorder: StatementRecorder) -> ResolvedPlan {
        var plan = plan
        for index in plan.stages.indices {
            let stage = plan.stages[index]
            if let willMigrate = stage.willMigrate {
                plan.stages[index].willMigrate = { context in
                    recorder.append(.note("\(stage.from) → \(stage.to) willMigrate, as it ran on this data"))
                    try willMigrate(context)
                }
            }
            if let didMigrate = stage.didMigrate {
                plan.stages[index].didMigrate = { context in
                    recorder.append(.note("\(stage.from) → \(stage.to) didMigrate, as it ran on this data"))
                    try didMigrate(context)
                }
            }
        }
        return plan
    }

    /// The pragmas a migration sets around its transaction (``ConnectionSettings``): the script sets them in its header.
    static let settingsPragmas = ConnectionSettings.pragmas.map { "PRAGMA " + $0.name.uppercased() }

    /// The entries that change the database: reads are dropped, and so is whatever a savepoint
    /// rolled back (a stage that ran twice to tell old foreign key violations from new ones).
    /// Transaction control and the connection settings are left to the script's own header.
    static func writes(in entries: [StatementRecorder.Entry]) -> [StatementRecorder.Entry] {
        var kept: [StatementRecorder.Entry] = []
        var savepoints: [Int] = []
        for entry in entries {
            guard case .statement(let sql, let readOnly) = entry else {
                kept.append(entry)
                continue
            }
            let keyword = sql.prefix(32).uppercased()
            if ["BEGIN", "COMMIT", "END"].contains(where: keyword.hasPrefix) {
                continue  // the script has its own transaction
            } else if keyword.hasPrefix("SAVEPOINT") {
                savepoints.append(kept.count)
            } else if keyword.hasPrefix("ROLLBACK TO") || keyword.hasPrefix("ROLLBACK TRANSACTION TO") {
                if let mark = savepoints.last { kept.removeSubrange(mark...) }
            } else if keyword.hasPrefix("RELEASE") {
                _ = savepoints.popLast()
            } else if !readOnly && !MigrationRehearsal.settingsPragmas.contains(where: keyword.hasPrefix) {
                kept.append(entry)
            }
        }
        return kept
    }
}
