import CFaultVFS
import Foundation
import Testing

@testable import SchemaMigrations

extension Reliability {
    /// Bugs the suite found, each with the smallest input that shows it.
    @Suite struct Regressions {
        /// Found by the I/O fault sweep: a read failing while the version was read, before the
        /// transaction began, escaped `migrate(databaseAt:)` and `currentVersion(databaseAt:)` as a
        /// bare `SQLiteError`. Every read of an up-to-date check fails in turn, from then on.
        @Test func aReadFaultBeforeTheTransactionIsAMigrationError() throws {
            let scratch = Scratch("regression")
            let url = scratch.url("db.sqlite")
            try FaultFixture.populate(url, wal: false, rows: 3)
            #expect(faultvfs_register(FaultSweep.vfsName) == 0)
            defer { faultvfs_disarm() }
            let options = MigrationOptions(vfsName: FaultSweep.vfsName)
            faultvfs_disarm()
            _ = try FaultFixture.migrator(
                options: MigrationOptions(targetVersion: Schema.Version(1, 0, 0), vfsName: FaultSweep.vfsName)
            ).migrate(databaseAt: url)
            let reads = faultvfs_count(Int32(FAULTVFS_READ))  // an up-to-date check: open, then the metadata
            for n in 1...max(1, reads) {
                faultvfs_arm_persistent(Int32(FAULTVFS_READ), n, FaultKind.ioerrRead)
                #expect(throws: MigrationError.self, "read \(n) of \(reads) failing") {
                    try FaultFixture.migrator(options: options).migrate(databaseAt: url)
                }
                faultvfs_arm_persistent(Int32(FAULTVFS_READ), n, FaultKind.ioerrRead)
                #expect(throws: MigrationError.self, "read \(n) of \(reads) failing") {
                    try FaultFixture.migrator(options: options).currentVersion(databaseAt: url)
                }
            }
        }

        /// Found by the I/O fault sweep once `quick_check` ran before migrating: a page it could
        /// not read for an I/O error was reported as a damaged database. Every read of a
        /// migration fails once in turn: never `notADatabase`.
        @Test func aReadFaultIsNotReportedAsADamagedDatabase() throws {
            let scratch = Scratch("regression")
            let url = scratch.url("db.sqlite")
            try FaultFixture.populate(url, wal: false, rows: 30)
            #expect(faultvfs_register(FaultSweep.vfsName) == 0)
            defer { faultvfs_disarm() }
            let options = MigrationOptions(vfsName: FaultSweep.vfsName)
            for n in 1...40 {
                let copy = try scratch.copyDatabase(url, to: "copy.sqlite")
                faultvfs_arm(Int32(FAULTVFS_READ), n, FaultKind.ioerrRead)
                do {
                    try FaultFixture.migrator(options: options).migrate(databaseAt: copy)
                } catch let error as MigrationError {
                    #expect(error.code != .notADatabase, "read \(n) failing: \(error)")
                }
            }
        }

        /// Found by the long run's fault sweep: with a 4-page cache (pages spill before commit), a
        /// read failing once during the check reported "Main freelist: failed to get page 10",
        /// with no error code to tell an I/O error from damage. Every read fails once in turn.
        @Test func aPassingReadFaultDuringTheCheckIsNotDamage() throws {
            try Self.failEveryReadInTurn(persistent: false)
        }

        /// Found by the long run's fault sweep after the schema table's check was added: reads
        /// failing from one point on made the freelist check say "failed to get page 10" twice,
        /// which the check above took for damage. Every read fails from then on, in turn.
        @Test func aReadFaultThatPersistsDuringTheCheckIsNotDamage() throws {
            try Self.failEveryReadInTurn(persistent: true)
        }

        /// Migrates the fault fixture with a 4-page cache once per read, that read failing (and,
        /// when `persistent`, every read after it): no run may end in another outcome than a clean
        /// failure or a sound migration.
        static func failEveryReadInTurn(persistent: Bool) throws {
            let scratch = Scratch("regression")
            let pristine = scratch.url("db.sqlite")
            try FaultFixture.populate(pristine, wal: false)
            let sweep = try FaultSweep(pristine: pristine, mode: .spilling, scratch: scratch)
            defer { faultvfs_disarm() }
            let reads = try sweep.counts()[Int(FAULTVFS_READ)]
            for n in 1...reads {
                let outcome = try sweep.run(
                    FaultKind(kind: Int32(FAULTVFS_READ), code: FaultKind.ioerrRead, persistent: persistent), at: n)
                #expect(
                    outcome.problems.isEmpty,
                    "read \(n) of \(reads) failing\(persistent ? " and every read after it" : ""): \(outcome.problems)")
            }
        }
    }
}
