#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Migrator {
    /// Applies the plan to a temporary copy of the database (SQLite's online backup API), timing each
    /// step: catches data-dependent failures before the real run. The database itself is only read.
    /// - Throws: `MigrationError` when the database cannot be read or copied; a migration that
    ///   fails on the copy is reported in ``MigrationSimulation/error``, not thrown.
    public func simulate(databaseAt url: URL) throws -> MigrationSimulation {
        let plan = try resolvedPlan()
        _ = try targetVersion(of: plan)
        let source = try open(url, mode: .readOnly)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "schemamigrations-simulation-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let copy: SQLiteConnection
        do {
            copy = try SQLiteConnection(
                path: directory.appendingPathComponent("copy.sqlite").path, mode: .readWriteCreate,
                environment: options.sqlEnvironment)
            try source.backup(into: copy)
        } catch let error as SQLiteError {
            throw MigrationError(
                .sqlite, "cannot copy '\(url.path)' to simulate the migration",
                remedy: "free space in the temporary directory", sqliteError: error)
        }
        let clock = StepClock()
        var options = self.options
        options.backupURL = nil
        options.progress = { progress in
            // A step, or a custom stage's code, begins; rows, heartbeats and pages belong to what is running.
            if progress.activity == .step || (progress.activity == .runningCode && progress.elapsed == 0) {
                clock.start("\(progress.from.map { "\($0) → " } ?? "create ")\(progress.to)", progress.summary)
            }
        }
        let started = Date()
        var simulation = MigrationSimulation(database: url.path, result: nil, error: nil, steps: [], duration: 0)
        do {
            simulation.result = try copy.framing.migrate(plan, options: options)
        } catch let error as MigrationError {
            simulation.error = error
        }
        simulation.duration = Date().timeIntervalSince(started)
        simulation.steps = clock.finish()
        return simulation
    }
}
