/// Step 10 of SQLite's generalized ALTER TABLE procedure (see ``AlterTableProcedure``).
/// `PRAGMA foreign_key_check` before commit, scoped to the tables a stage touched and the tables
/// referencing them, failing only on violations the stage introduced.
struct ForeignKeyGuard {
    /// A row pointing at a missing parent. Which of the table's foreign keys it breaks is not part
    /// of it: a rebuild may number them differently.
    struct Violation: Hashable {
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

    static func violations(in tables: [String], db: any SQLQuerying) throws -> Set<Violation> {
        var result = Set<Violation>()
        for table in tables {
            for row in try db.rows("PRAGMA foreign_key_check(\(SQL.quoteIdentifier(table)))") {
                result.insert(
                    Violation(
                        table: row[0].stringValue ?? table, rowid: row[1].int64Value, parent: row[2].stringValue ?? ""))
            }
        }
        return result
    }

    /// The violations the database had before `stage`, in `tables` as the stage names them (it may
    /// rename tables, violating ones and parents alike), named as after the stage. Tables the stage
    /// creates had none.
    static func violations(before stage: PlannedStage, in tables: [String], db: any SQLQuerying) throws -> Set<
        Violation
    > {
        var renamed: [String: String] = [:]  // lowercased source name -> target name
        for step in stage.allSteps {
            guard case .renameTable(let from, let to) = step.action else { continue }
            // Follow chains (A → temporary → B, as a permutation of names needs).
            if let source = renamed.first(where: { $0.value.sqlFolded == from.sqlFolded })?.key {
                renamed[source] = to
            } else {
                renamed[from.sqlFolded] = to
            }
        }
        let sourceNames = Dictionary(
            renamed.map { ($0.value.sqlFolded, $0.key) }, uniquingKeysWith: { first, _ in first })
        let existing = Set(try LiveSchema.tableNames(in: db).map { $0.sqlFolded })
        let sources = tables.map { sourceNames[$0.sqlFolded] ?? $0 }.filter { existing.contains($0.sqlFolded) }
        return Set(
            try violations(in: sources, db: db).map { violation in
                Violation(
                    table: renamed[violation.table.sqlFolded] ?? violation.table, rowid: violation.rowid,
                    parent: renamed[violation.parent.sqlFolded] ?? violation.parent)
            })
    }

    /// Throws ``Violations`` when there are violations and `tolerated` is nil (not yet known);
    /// a `dataViolation` error naming the rows when some are not in `tolerated`.
    func check(tolerating tolerated: Set<Violation>?, version: Schema.Version) throws {
        guard !tables.isEmpty else { return }
        let found = try ForeignKeyGuard.violations(in: tables, db: db)
        guard !found.isEmpty else { return }
        guard let tolerated else { throw Violations(tables: tables) }
        let introduced = found.subtracting(tolerated)
        guard !introduced.isEmpty else { return }
        let sorted = introduced.sorted { ($0.table, $0.rowid ?? 0) < ($1.table, $1.rowid ?? 0) }
        throw MigrationError(
            .dataViolation,
            "the migration would leave \(introduced.count) rows pointing at missing parents; everything was rolled back",
            entity: sorted[0].table, version: version,
            remedy: "delete or re-point those rows in a custom stage",
            details: sorted.prefix(10).map {
                "\($0.table) row \($0.rowid.map(String.init) ?? "?") references a missing row of \($0.parent)"
            })
    }
}
