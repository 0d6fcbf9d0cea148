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
    /// - Throws: `MigrationError` with code `notADatabase`, listing up to ten of SQLite's findings;
    ///   with code `sqlite` when a page could not be read for an I/O error.
    static func verify(_ db: SQLiteConnection) throws {
        var findings: [String]
        do {
            findings = try db.rows("PRAGMA quick_check(10)").compactMap { $0.first?.stringValue }
        } catch let error as SQLiteError where error.primaryCode == 11 || error.primaryCode == 26 {  // SQLITE_CORRUPT, SQLITE_NOTADB
            findings = [error.message]
        }
        findings.removeAll { $0 == "ok" }
        guard !findings.isEmpty else { return }
        // A page it could not read for an I/O error ("unable to get the page. error code=266") is not damage.
        if let code = findings.lazy.compactMap(QuickCheck.pageErrorCode).first(where: { $0 & 0xFF != 11 && $0 & 0xFF != 26 }) {
            throw MigrationError(.sqlite, "the database could not be read while checking it before migrating; nothing was migrated",
                                 remedy: "check the disk, then try again", details: findings,
                                 sqliteError: SQLiteError(extendedCode: code, message: SQLiteError.name(of: code)))
        }
        throw MigrationError(.notADatabase, "the database is damaged (PRAGMA quick_check found problems); nothing was migrated",
                             remedy: "restore the file from a backup, or salvage it with the sqlite3 shell's .recover command, then migrate the copy",
                             details: findings)
    }

    /// The result code in a finding like `Page 4: unable to get the page. error code=266`.
    static func pageErrorCode(_ finding: String) -> Int32? {
        guard let range = finding.range(of: "error code=") else { return nil }
        return Int32(finding[range.upperBound...].prefix { $0.isNumber })
    }
}
