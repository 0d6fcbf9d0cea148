#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// SQLite's generalized ALTER TABLE procedure, in one place: each of its twelve steps, quoted from
/// <https://www.sqlite.org/lang_altertable.html#otheralter>, and the code that carries it out.
///
/// A migration runs steps 1-2 once, then every stage's steps (renames first, then 3-10 around the
/// rebuilds and drops), then 11-12; everything in between is one transaction, so any failure
/// leaves the database as it was.
///
/// 1. "If foreign key constraints are enabled, disable them using PRAGMA foreign_keys=OFF." —
///    ``MigrationFraming/withSettings(version:_:)``, before the transaction (the pragma does nothing
///    inside one), read back: a `DROP TABLE` with foreign keys on would cascade to child rows.
/// 2. "Start a transaction." — ``MigrationFraming/inWriteTransaction(doing:keeping:_:)``: `BEGIN IMMEDIATE`.
/// 3. "Remember the format of all indexes, triggers, and views associated with table X. This
///    information will be needed in step 8 below." — one snapshot of the live schema per stage
///    (``StepRenderer``), read after every rename of the stage (SQLite's `RENAME` has rewritten
///    their references by then): indexes for ``TableRebuild``, triggers and views for
///    ``setAsideDependents(mentioning:among:)``.
/// 4. "Use CREATE TABLE to construct a new table "new_X" that is in the desired revised format of table X."
/// 5. "Transfer content from X into new_X using a statement like: INSERT INTO new_X SELECT ... FROM X."
/// 6. "Drop the old table X: DROP TABLE X."
/// 7. "Change the name of new_X to X using: ALTER TABLE new_X RENAME TO X."
/// 8. "Use CREATE INDEX, CREATE TRIGGER, and CREATE VIEW to reconstruct indexes, triggers, and
///    views associated with table X." — steps 4 to 8: ``TableRebuild/statements(live:renamesApplied:version:newName:)``,
///    from the live table's own definition, the indexes as the database had them; the triggers
///    and views with step 9.
/// 9. "If any views refer to table X in a way that is affected by the schema change, then drop
///    those views using DROP VIEW and recreate them with whatever changes are necessary to
///    accommodate the schema change using CREATE VIEW." — ``recreate(_:droppedTables:version:)``,
///    after the stage's last step, in the order the database had them.
/// 10. "If foreign key constraints were originally enabled then run PRAGMA foreign_key_check to
///    verify that the schema change did not break any foreign key constraints." — ``ForeignKeyGuard``,
///    always (the app's connection may have them off and still rely on them), scoped to what the
///    stage touched, failing only on violations it introduced.
/// 11. "Commit the transaction started in step 2." — ``MigrationFraming/inWriteTransaction(doing:keeping:_:)``.
/// 12. "If foreign keys constraints were originally enabled, reenable them now." —
///    ``MigrationFraming/withSettings(version:_:)``, which also says when it cannot (a borrowed
///    connection must not silently keep foreign keys off).
struct AlterTableProcedure {
    let db: any MigrationDatabase

    /// Step 3: drops the triggers and views that depend on `tables`, directly or through a view,
    /// and returns them in the order the database had them.
    /// - Parameter all: every trigger and view of the database, in its order (the stage's snapshot).
    func setAsideDependents(mentioning tables: Set<String>, among all: [LiveSchema.Dependent]) throws -> [LiveSchema
        .Dependent]
    {
        let mentions = all.map { SQLTokenizer($0.sql).identifierSet() }
        var affected = tables
        var parked = Array(repeating: false, count: all.count)
        var changed = true
        while changed {
            changed = false
            for (index, dependent) in all.enumerated() where !parked[index] {
                let on = dependent.tableName.sqlFolded
                guard affected.contains(on) || !mentions[index].isDisjoint(with: affected) else { continue }
                parked[index] = true
                changed = true
                if dependent.kind == .view { affected.insert(dependent.name.sqlFolded) }
            }
        }
        let dependents = all.indices.filter { parked[$0] }.map { all[$0] }
        // Triggers first (an INSTEAD OF trigger goes with its view), then views, newest first.
        for dependent in dependents.filter({ $0.kind == .trigger }) + dependents.filter({ $0.kind == .view }).reversed()
        {
            try execute(
                dropping: "DROP \(dependent.kind == .view ? "VIEW" : "TRIGGER") \(SQL.quoteIdentifier(dependent.name))")
        }
        return dependents
    }

    /// Step 9: the triggers and views set aside, recreated in the database's order; a trigger on a
    /// dropped table goes with it. SQLite accepts a view or trigger naming a column that no longer
    /// exists and fails only when it is used (and at every later `ALTER TABLE`), so each is then
    /// compiled: a view by selecting from it, a trigger by preparing the statement that fires it.
    /// A name the connection lacks (a function or collation the application registers) does not
    /// fail the probe: it is stood in for, and the dry run lists it (``MigrationReport/warnings``).
    func recreate(_ dependents: [LiveSchema.Dependent], droppedTables: Set<String>, version: Schema.Version) throws {
        let recreated = dependents.filter { !($0.kind == .trigger && droppedTables.contains($0.tableName.sqlFolded)) }
        for dependent in recreated {
            do {
                try db.execute(dependent.sql)
            } catch let error as SQLiteError {
                throw cannotRecreate(dependent, version: version, error: error)
            }
        }
        // A view or trigger whose only problem is a function or collation this connection lacks is
        // kept as SQLite keeps it (the application registers the name whenever it opens the file):
        // stand-ins let the probe look past those names, to what the migration may have broken.
        for dependent in recreated {
            for probe in try probes(for: dependent) {
                do {
                    _ = try db.compileStandingIn(probe)
                } catch let error as SQLiteError {
                    throw cannotRecreate(dependent, version: version, error: error)
                }
            }
        }
    }

    private func cannotRecreate(_ dependent: LiveSchema.Dependent, version: Schema.Version, error: SQLiteError)
        -> MigrationError
    {
        MigrationError(
            .sqlite,
            "the \(dependent.kind.rawValue) '\(dependent.name)' cannot be recreated after the migration's changes (\(error.message))",
            rolledBack: .everything,
            entity: dependent.tableName, version: version,
            remedy: "drop or rewrite the \(dependent.kind.rawValue) in a custom stage's willMigrate", sqliteError: error
        )
    }

    /// Statements whose compilation compiles `dependent`: nothing runs (`WHERE 0`, `LIMIT 0`).
    func probes(for dependent: LiveSchema.Dependent) throws -> [String] {
        let target = SQL.quoteIdentifier(dependent.kind == .view ? dependent.name : dependent.tableName)
        if dependent.kind == .view { return ["SELECT * FROM \(target) LIMIT 0"] }
        let tokenizer = SQLTokenizer(dependent.sql)
        guard let tokens = try? tokenizer.tokens(), let on = tokens.firstIndex(where: { tokenizer.isKeyword($0, "ON") })
        else { return [] }
        let head = tokens[..<on]
        let columns = try db.rows(
            "SELECT name FROM pragma_table_xinfo(?) WHERE hidden IN (0, 1)", [.text(dependent.tableName)]
        )
        .compactMap { $0[0].stringValue.map(SQL.quoteIdentifier) }
        guard !columns.isEmpty else { return [] }
        let list = columns.joined(separator: ", ")
        if head.contains(where: { tokenizer.isKeyword($0, "INSERT") }) {
            return ["INSERT INTO \(target) (\(list)) SELECT \(list) FROM \(target) WHERE 0"]
        }
        if head.contains(where: { tokenizer.isKeyword($0, "DELETE") }) { return ["DELETE FROM \(target) WHERE 0"] }
        if head.contains(where: { tokenizer.isKeyword($0, "UPDATE") }) {
            return ["UPDATE \(target) SET " + columns.map { "\($0) = \($0)" }.joined(separator: ", ") + " WHERE 0"]
        }
        return []
    }

    private func execute(dropping sql: String) throws {
        do {
            try db.execute(sql)
        } catch let error as SQLiteError {
            throw MigrationError(
                .sqlite, "cannot set aside a trigger or view before rebuilding: \(sql)", rolledBack: .everything,
                sqliteError: error)
        }
    }
}
