/// Step 10 of SQLite's generalized ALTER TABLE procedure (see ``AlterTableProcedure``).
/// `PRAGMA foreign_key_check` before commit, scoped to the tables a stage touched and the tables
/// referencing them, failing only on violations the stage introduced.
struct ForeignKeyGuard {
    /// A row pointing at a missing parent. Which of the table's foreign keys it breaks is not part
    /// of it: a rebuild may number them differently.
    struct Violation: Equatable {
        var table: String
        var rowid: Int64?
        var parent: String
    }

    /// Violations found after a stage, before it is known whether the stage introduced them.
    struct Violations: Error {
        var tables: [String]
    }

    /// The tables whose references a stage may have broken, lowercased: `children` may now hold a
    /// reference to a missing row themselves; the children of `parents` may (they lost rows or keys).
    struct Scope {
        var children: Set<String>
        var parents: Set<String>
    }

    let db: any SQLQuerying
    /// The tables to check: those with foreign keys in the scope, or referencing a parent in it.
    let tables: [String]

    /// - Parameter scope: what the stage may have broken; nil for every table.
    init(db: any SQLQuerying, live: LiveSchema, scope: Scope?) {
        self.db = db
        self.tables = live.userTables.filter { table in
            guard !table.foreignKeys.isEmpty else { return false }
            guard let scope else { return true }
            return scope.children.contains(table.name.sqlFolded)
                || table.foreignKeys.contains { scope.parents.contains($0.table.sqlFolded) }
        }.map(\.name)
    }

    /// Whether any of `tables` has a row pointing at a missing parent. The check stops at the first,
    /// in SQL: a connection whose statements run on a server (a dqlite leader) receives one row,
    /// not every violation.
    static func anyViolation(in tables: [String], db: any SQLQuerying) throws -> Bool {
        for table in tables where try db.scalar(firstViolationSQL(table)) != nil { return true }
        return false
    }

    /// One row when `table` has a row pointing at a missing parent. The name is written into the
    /// text, as `quick_check`'s is, so a trace of the migration names the table it checked.
    static func firstViolationSQL(_ table: String) -> String {
        "SELECT 1 FROM pragma_foreign_key_check(\(SQL.quoteString(table))) LIMIT 1"
    }

    /// Throws ``Violations`` when there are violations and `tolerated` is nil (not yet known);
    /// a `dataViolation` error naming the rows when some are not in `tolerated`. Only the count and
    /// the first ten rows come into memory, however many rows point at missing parents.
    func check(tolerating tolerated: ToleratedViolations?, version: Schema.Version) throws {
        guard !tables.isEmpty else { return }
        guard let tolerated else {
            if try ForeignKeyGuard.anyViolation(in: tables, db: db) { throw Violations(tables: tables) }
            return
        }
        let introduced = tolerated.introducedSQL
        var count: Int64 = 0
        var first: [Violation] = []
        for table in tables {
            let found = try db.scalar("SELECT count(*) FROM (\(introduced))", [.text(table)])?.int64Value ?? 0
            // The rows are read again only to name them, in a migration about to fail.
            guard found > 0 else { continue }
            count += found
            first += try db.rows("\(introduced) ORDER BY 1, 2 LIMIT 10", [.text(table)]).map {
                Violation(table: $0[0].stringValue ?? table, rowid: $0[1].int64Value, parent: $0[2].stringValue ?? "")
            }
        }
        guard count > 0 else { return }
        let sorted = first.sorted { ($0.table, $0.rowid ?? 0) < ($1.table, $1.rowid ?? 0) }
        throw MigrationError(
            .dataViolation,
            "the migration would leave \(count) rows pointing at missing parents", rolledBack: .everything,
            entity: sorted[0].table, version: version,
            remedy: "delete or re-point those rows in a custom stage",
            details: sorted.prefix(10).map {
                "\($0.table) row \($0.rowid.map(String.init) ?? "?") references a missing row of \($0.parent)"
            })
    }
}
