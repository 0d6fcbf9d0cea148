import CFaultVFS
import Foundation
import Testing

@testable import SchemaMigrations

extension Reliability {
    /// The check an app pays at every start-up, on a database already at the target: one read
    /// transaction, so one shared lock taken and released (each lock call is one or two `fcntl`s,
    /// and a WAL reader's are on the `-shm` file). Counted through the fault VFS, which forwards
    /// every call to the default one and counts `xLock`, `xUnlock` and `xShmLock`.
    @Suite struct UpToDateLocks {
        @Test(arguments: [false, true])
        func anUpToDateCheckTakesOneReadTransaction(wal: Bool) throws {
            let scratch = Scratch("uptodate-locks")
            let url = scratch.url("db.sqlite")
            try FaultFixture.populate(url, wal: wal, rows: 3)
            try FaultFixture.migrator().migrate(databaseAt: url)
            // The app's own connection, open as it is at start-up (in WAL mode, the last connection
            // to close checkpoints, and the next one to open rebuilds the WAL index).
            let app = try SQLiteConnection(path: url.path)
            _ = try app.scalar("SELECT count(*) FROM Item")
            #expect(faultvfs_register(FaultSweep.vfsName) == 0)
            defer { faultvfs_disarm() }
            let migrator = try FaultFixture.migrator(options: MigrationOptions(vfsName: FaultSweep.vfsName))
            _ = try migrator.migrate(databaseAt: url)  // the first call in the process
            faultvfs_disarm()
            let result = try migrator.migrate(databaseAt: url)
            #expect(result.outcome == .upToDate)
            let locks = faultvfs_count(Int32(FAULTVFS_LOCK))
            // Rollback journal: SHARED, then NONE, and the close's unlock (a no-op). WAL: SHARED
            // on the database file, the reader's slot taken and released on the -shm file, and
            // the close's try for EXCLUSIVE (to checkpoint; the app's connection holds it off)
            // and unlock. Before the check read in one transaction: 11 and 25 (19 with the
            // schema read at the first statement's prepare taking a shared lock of its own).
            #expect(locks <= (wal ? 5 : 3), "lock calls: \(locks)")
        }
    }
}
