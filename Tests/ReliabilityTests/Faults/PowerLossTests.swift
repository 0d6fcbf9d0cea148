import CFaultVFS
import Foundation
import Testing

@testable import SchemaMigrations

extension Reliability {
    /// A power cut at every sync point of the fault fixture's migration (a rebuild, a rename and a
    /// custom stage rewriting every row), in rollback-journal and WAL modes: the writes not yet
    /// synced are lost, or each is kept, lost or torn (a prefix written, the rest old), as SQLite's
    /// own crash tests model it. SIGKILL cannot show this: the OS keeps what the process wrote.
    /// Reopened (the journal rolled back, the WAL recovered), the database is sound and either
    /// all old or all new, never a mix; when the migration reported success, it is new (a
    /// checkpoint's sync after the commit may fail unreported). Every sync point is tried, whole
    /// plan and per-stage transactions; torn cuts are drawn several times per point (more in
    /// long mode).
    @Suite struct PowerLoss {
        enum Cut: String, CaseIterable { case drop, tear }

        @Test(.timeLimit(.minutes(60)), arguments: [false, true], [false, true])
        func everySyncPointLeavesTheOldOrTheNewDatabase(wal: Bool, perStage: Bool) throws {
            let config = ReliabilityConfig.current
            let mode = (wal ? "wal" : "rollback") + (perStage ? "-per-stage" : "")
            var options = MigrationOptions(vfsName: FaultSweep.vfsName)
            if perStage { options.transactionScope = .perStage }
            var random = SeededRandom(seed: config.seed, family: "power-\(mode)", index: 0)
            let scratch = Scratch("power")
            let pristine = scratch.url("pristine.sqlite")
            try FaultFixture.populate(pristine, wal: wal)
            let sweep = try FaultSweep(pristine: pristine, mode: wal ? .wal : .rollback, scratch: scratch)
            let syncs = try Self.syncs(pristine, options: options, scratch: scratch)
            // Per-stage transactions commit V2 on the way: a cut after that commit leaves V2, whole.
            var allowed = [sweep.old, sweep.new]
            if perStage {
                let copy = try scratch.copyDatabase(pristine, to: "power-v2.sqlite")
                try FaultFixture.migrator(options: MigrationOptions(targetVersion: FaultFixture.schemas[1].version))
                    .migrate(databaseAt: copy)
                allowed.append(try DatabaseState.read(copy, plan: FaultFixture.planName))
                scratch.removeDatabase(copy)
            }
            #expect(syncs > 0)
            var tally = [String: Int]()
            var lost = 0
            var torn = 0
            // One more point than there are syncs: a cut armed past the last sync never happens.
            let tears = config.long ? 50 : 3
            for n in 1...(syncs + 1) {
                for cut in [Cut.drop] + Array(repeating: Cut.tear, count: tears) {
                    let url = try scratch.copyDatabase(pristine, to: "power-run.sqlite")
                    defer { scratch.removeDatabase(url) }
                    faultvfs_arm_power_loss(
                        n, cut == .drop ? Int32(FAULTVFS_POWER_DROP) : Int32(FAULTVFS_POWER_TEAR), random.next())
                    var error: Error?
                    do { try FaultFixture.migrator(options: options).migrate(databaseAt: url) } catch let caught {
                        error = caught
                    }
                    let wasCut = faultvfs_power_was_cut() != 0
                    lost += faultvfs_power_lost_writes()
                    torn += faultvfs_power_torn_writes()
                    faultvfs_disarm()
                    let state = try DatabaseState.read(url, plan: FaultFixture.planName)
                    let what = "power cut (\(cut)) at sync \(n) of \(syncs) (\(mode), \(config.reproduction))"
                    #expect(state.integrity == "ok", "\(what): integrity_check \(state.integrity)")
                    #expect(allowed.contains(state), "\(what): \(state) is none of the committed states \(allowed)")
                    if error == nil {
                        #expect(
                            state == sweep.new, "\(what): the migration reported success, but the database is \(state)")
                    }
                    if !wasCut { #expect(error == nil, "\(what): no cut, yet \(String(describing: error))") }
                    if let error { #expect(error is MigrationError, "\(what): \(error)") }
                    let outcome =
                        state.integrity != "ok"
                        ? "corrupt"
                        : state == sweep.new
                            ? "new" : state == sweep.old ? "old" : allowed.contains(state) ? "v2" : "mixed"
                    tally[outcome, default: 0] += 1
                    if !wasCut { tally["no-cut", default: 0] += 1 }
                }
            }
            ReliabilityConfig.summary(
                "power-\(mode)",
                "sync-points=\(syncs) runs=\(tally.filter { $0.key != "no-cut" }.values.reduce(0, +)) "
                    + "old=\(tally["old"] ?? 0) new=\(tally["new"] ?? 0)\(perStage ? " v2=\(tally["v2"] ?? 0)" : "") corrupt=\(tally["corrupt"] ?? 0) mixed=\(tally["mixed"] ?? 0) "
                    + "uncut=\(tally["no-cut"] ?? 0) unsynced-writes-lost=\(lost) torn=\(torn)")
        }

        /// The harness can tell: without a journal (`journal_mode=OFF`), a torn cut during a large
        /// update leaves a damaged file or rows of both states, which the sweep's checks report.
        @Test func withoutAJournalACutLeavesAMix() throws {
            let scratch = Scratch("power-nojournal")
            let pristine = scratch.url("pristine.sqlite")
            try FaultFixture.populate(pristine, wal: false)
            #expect(faultvfs_register(FaultSweep.vfsName) == 0)
            let update = "BEGIN; UPDATE Item SET name = name || ' changed', legacy = NULL; COMMIT"
            let old = try DatabaseState.read(pristine, plan: FaultFixture.planName)
            let updated = try scratch.copyDatabase(pristine, to: "updated.sqlite")
            try SQLiteConnection(path: updated.path).execute(update)
            let new = try DatabaseState.read(updated, plan: FaultFixture.planName)
            var damaged = 0
            for seed in 1...10 {
                let url = try scratch.copyDatabase(pristine, to: "nojournal.sqlite")
                defer { scratch.removeDatabase(url) }
                do {
                    let db = try SQLiteConnection(path: url.path, mode: .readWrite, vfs: FaultSweep.vfsName)
                    try db.execute("PRAGMA journal_mode = OFF; PRAGMA cache_size = 2")
                    faultvfs_arm_power_loss(1, Int32(FAULTVFS_POWER_TEAR), UInt64(seed))
                    try? db.execute(update)
                }
                faultvfs_disarm()
                let state = try? DatabaseState.read(url, plan: FaultFixture.planName)
                if state == nil || state!.integrity != "ok" || (state != old && state != new) { damaged += 1 }
            }
            #expect(damaged > 0)
        }

        /// The syncs of one whole migration through the fault VFS with `options`.
        static func syncs(_ pristine: URL, options: MigrationOptions, scratch: Scratch) throws -> Int {
            let url = try scratch.copyDatabase(pristine, to: "power-count.sqlite")
            defer { scratch.removeDatabase(url) }
            faultvfs_disarm()
            try FaultFixture.migrator(options: options).migrate(databaseAt: url)
            return Int(faultvfs_count(Int32(FAULTVFS_SYNC)))
        }
    }
}
