import Foundation
import SchemaMigrations
import Testing

extension Reliability.Regressions {
    /// Found by the process races: `SQLiteConnection(path:busyTimeout:)` stored the timeout but
    /// never gave it to SQLite (an initializer's assignment skips `didSet`), so every connection
    /// the migrator opened failed at once with SQLITE_BUSY while its error said it had waited.
    @Test func aConnectionWaitsForTheLockAsLongAsItsBusyTimeout() throws {
        let scratch = Scratch("regression")
        let path = scratch.url("db.sqlite").path
        let holder = try SQLiteConnection(path: path)
        try holder.execute("CREATE TABLE t (x); BEGIN IMMEDIATE")
        let waiter = try SQLiteConnection(path: path, busyTimeout: 0.3)
        let started = Date()
        #expect(throws: SQLiteError.self) { try waiter.execute("BEGIN IMMEDIATE") }
        #expect(Date().timeIntervalSince(started) >= 0.25)
        try holder.execute("COMMIT")
    }
}
