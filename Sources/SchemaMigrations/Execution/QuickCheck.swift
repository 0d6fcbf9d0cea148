/// `PRAGMA quick_check` before a stage that reads whole tables: a damaged table is refused, not
/// migrated. A rebuild copies what a damaged b-tree still yields (rows can vanish without an
/// error), and building an index or dropping a column reads every row the same way.
///
/// Only what the stage reads is checked, so the cost follows the work: the schema table alone for
/// `ADD COLUMN`, renames and index drops (O(1) in the rows stays O(1)); the rewritten tables for a
/// rebuild, a dropped column or table, or a new index; and, while a custom stage's code runs, each
/// table just before the first statement that touches it (``CodeFootprint``). `quick_check` reads
/// every page of what it checks once; it does not compare indexes with their tables, which a
/// rebuild recreates anyway.
///
/// Related SQLite documentation: <https://www.sqlite.org/pragma.html#pragma_quick_check>
enum QuickCheck {
    /// Checks what `stage` is about to read, on the database as it is before the stage, but for
    /// the tables in `skipping` (lowercased: an earlier stage of the same migration checked them,
    /// or wrote them anew).
    /// - Throws: `MigrationError` with code `notADatabase`, listing SQLite's findings; with code
    ///   `sqlite` when a page could not be read for an I/O error.
    /// - Returns: the tables checked.
    @discardableResult
    static func verify(before stage: PlannedStage, db: any SQLQuerying, skipping: Set<String> = []) throws -> [String] {
        // The schema table (page 1 and what it grows to) is written by every stage; it is small.
        let skipped = Set(skipping.map(\.sqlFolded))
        let tables = ["sqlite_schema"] + (try tables(readBy: stage, db: db)).filter { !skipped.contains($0.sqlFolded) }
        for table in tables { try verify(table: table, db: db) }
        return tables
    }

    /// Checks one table and its indexes.
    static func verify(table: String, db: any SQLQuerying) throws {
        try verify(db, pragma: "PRAGMA quick_check(\(SQL.quoteString(table)))")
    }

    /// The live tables a stage's steps read in full.
    static func tables(readBy stage: PlannedStage, db: any SQLQuerying) throws -> [String] {
        let live = Set(try LiveSchema.tableNames(in: db).map { $0.sqlFolded })
        var tables: [String] = []
        for step in stage.allSteps where step.readsWholeTable {
            // A step names its table after the stage's renames; before them it may have had its originalName.
            let original = stage.target.entity(named: step.table)?.originalName
            guard let name = [step.table, original].compactMap({ $0 }).first(where: { live.contains($0.sqlFolded) })
            else { continue }
            if !tables.contains(name) { tables.append(name) }
        }
        return tables
    }

    private static func verify(_ db: any SQLQuerying, pragma: String) throws {
        let findings = try check(db, pragma: pragma)
        guard !findings.isEmpty else { return }
        // A page it could not read for an I/O error is not damage: "unable to get the page. error
        // code=266" says so. "failed to get page 10" (the freelist check) gives no code, but SQLite
        // only fails to fetch a page it has already found in range when the read fails: damage
        // shows as "invalid page number" or as the page's contents. Otherwise damage answers the
        // same twice, and a read that failed once does not.
        let code = findings.lazy.compactMap(QuickCheck.pageErrorCode).first { !SQLiteResultCode(rawValue: $0).isDamage }
        let unreadPage = findings.contains { $0.contains("failed to get page") }
        if try code != nil || unreadPage || check(db, pragma: pragma) != findings {
            throw MigrationError(
                .sqlite, "the database could not be read while checking it before migrating; nothing was migrated",
                remedy: "check the disk, then try again", details: Array(findings.prefix(10)),
                sqliteError: code.map {
                    SQLiteError(extendedCode: $0, message: SQLiteResultCode(rawValue: $0).description)
                })
        }
        throw MigrationError(
            .notADatabase, "the database is damaged (PRAGMA quick_check found problems); nothing was migrated",
            remedy:
                "restore the file from a backup, or salvage it with the sqlite3 shell's .recover command, then migrate the copy",
            details: Array(findings.prefix(10)))
    }

    /// SQLite's findings, empty when the check passes; an I/O error reading the pages is thrown.
    private static func check(_ db: any SQLQuerying, pragma: String) throws -> [String] {
        var findings: [String]
        do {
            findings = try db.rows(pragma).compactMap { $0.first?.stringValue }
        } catch let error as SQLiteError where error.resultCode.isDamage {
            findings = [error.message]
        }
        findings.removeAll { $0 == "ok" }
        return findings
    }

    /// The result code in a finding like `Page 4: unable to get the page. error code=266`.
    static func pageErrorCode(_ finding: String) -> Int32? {
        guard let range = finding.firstRange(of: "error code=") else { return nil }
        return Int32(finding[range.upperBound...].prefix { $0.isNumber })
    }
}
