/// What the connection does with the pages a migration frees, which decides the order of a
/// rebuild's statements (``TableRebuild/statements(live:renamesApplied:version:newName:freedPagesAreErased:)``).
///
/// SQLite built with `SQLITE_SECURE_DELETE` (Debian's and Ubuntu's libsqlite3 are), or a
/// connection that turned `PRAGMA secure_delete` on, overwrites every freed page with zeros, so
/// dropping a table journals and writes each of its pages. The setting is the application's, a
/// promise that deleted content does not stay in the file: the migration keeps it and orders its
/// work around it. `FAST` (2) erases only within pages it writes anyway and counts as off.
///
/// Related SQLite documentation: <https://www.sqlite.org/pragma.html#pragma_secure_delete>
enum FreedPages {
    /// Whether `db` overwrites the pages it frees in its main database.
    static func areErased(on db: any SQLQuerying) throws -> Bool {
        try db.pragmaInteger("secure_delete") == 1
    }
}
