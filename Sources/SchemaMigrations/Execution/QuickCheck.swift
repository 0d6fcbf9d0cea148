/// `PRAGMA quick_check` before a migration's first stage: a damaged database is refused, not
/// migrated. A rebuild copies what a damaged b-tree still yields (rows can vanish without an
/// error), and steps that only alter the schema leave the damage where it was, behind a
/// migration that said it succeeded.
///
/// `quick_check` reads every page once (a tenth of a rebuild's time on a large table); it does not
/// compare indexes with their tables, which a rebuild recreates anyway.
///
/// Related SQLite documentation: <https://www.sqlite.org/pragma.html#pragma_quick_check>
enum QuickCheck {
    /// - Throws: `MigrationError` with code `notADatabase`, listing up to ten of SQLite's findings.
    static func verify(_ db: SQLiteConnection) throws {
        var findings: [String]
        do {
            findings = try db.rows("PRAGMA quick_check(10)").compactMap { $0.first?.stringValue }
        } catch let error as SQLiteError where error.primaryCode == 11 || error.primaryCode == 26 {  // SQLITE_CORRUPT, SQLITE_NOTADB
            findings = [error.message]
        }
        findings.removeAll { $0 == "ok" }
        guard !findings.isEmpty else { return }
        throw MigrationError(.notADatabase, "the database is damaged (PRAGMA quick_check found problems); nothing was migrated",
                             remedy: "restore the file from a backup, or salvage it with the sqlite3 shell's .recover command, then migrate the copy",
                             details: findings)
    }
}
