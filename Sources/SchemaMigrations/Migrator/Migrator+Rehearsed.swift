import Foundation

/// One statement a rehearsal recorded, as a client of another engine would send it (the dqlite
/// measurements replay them): its SQL, bound values written in, and whether SQLite compiled it
/// with result columns (dqlite runs those as queries, the others as executions).
package struct RehearsedStatement: Sendable, Hashable {
    package var sql: String
    package var returnsRows: Bool
}

/// What a rehearsal on a local copy found: the result `apply` would have, and the statements it
/// runs, metadata rows and custom stages' SQL included, without transaction control.
package struct RehearsedMigration: Sendable {
    package var result: MigrationResult
    package var statements: [RehearsedStatement]
}

extension Migrator {
    /// Rehearses the migration of the database at `url` on a temporary copy (the file itself is
    /// only read) and returns the statements it ran: exactly what ``script(databaseAt:)`` writes.
    /// - Throws: `MigrationError` when the migration would fail or be refused.
    package func rehearse(databaseAt url: URL) throws -> RehearsedMigration {
        let plan = try resolved.get()
        _ = try targetVersion(of: plan)
        let outcome = try advising(url) {
            try MigrationRehearsal(plan: plan, options: options).run(copying: try open(url, mode: .readOnly))
        }
        let statements = outcome.entries.compactMap { entry -> RehearsedStatement? in
            guard case .statement(let sql, _) = entry else { return nil }
            return RehearsedStatement(sql: sql, returnsRows: outcome.recorder?.returnsRows(sql) ?? false)
        }
        return RehearsedMigration(result: outcome.result, statements: statements)
    }
}

extension Migrator {
    /// The plan's name, as its rows in the metadata table carry it.
    /// - Throws: `MigrationError` when the plan is malformed.
    package func planName() throws -> String { try resolved.get().name }

    /// The metadata table's name.
    package static var metadataTable: String { TableNames.metadata }
}
