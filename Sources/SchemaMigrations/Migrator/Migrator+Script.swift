#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Migrator {
    /// The SQL script that migrates the database at `url` as ``migrate(databaseAt:)`` would, for
    /// an operator to review and run with the `sqlite3` shell. The migration is rehearsed on a
    /// temporary copy (so it takes the time and disk space of one); the database is only read.
    /// - Throws: `MigrationError` when the migration would fail or be refused; the message says why.
    public func script(databaseAt url: URL) throws -> MigrationScript {
        let plan = try resolvedPlan()
        _ = try targetVersion(of: plan)
        let source = try open(url, mode: .readOnly)
        let outcome = try MigrationRehearsal(plan: plan, options: options).run(copying: source)
        var script = MigrationScript(
            database: url.path, fromVersion: outcome.result.fromVersion, toVersion: outcome.result.toVersion,
            schemaCookie: outcome.schemaCookie, statements: [], notes: [:])
        let environment = options.sqlEnvironment
        script.extensions = environment.extensions
        script.registeredInCode =
            environment.collations.map { "the collation \($0.name)" }
            + environment.functions.map { "the function \($0.name)" }
            + environment.aggregates.map { "the aggregate function \($0.name)" }
            + (environment.prepareConnection == nil ? [] : ["what its prepareConnection hook does"])
        var recordingVersion = false
        for entry in outcome.entries {
            switch entry {
            case .statement(let sql, _):
                if !recordingVersion && sql.contains(SQL.quoteIdentifier(TableNames.metadata)) {
                    script.notes[script.statements.count, default: []].append(
                        "Record the version in \(TableNames.metadata)")
                }
                recordingVersion = sql.contains(SQL.quoteIdentifier(TableNames.metadata))
                script.statements.append(sql)
            case .note(let note):
                script.notes[script.statements.count, default: []].append(note)
            }
        }
        return script
    }
}
