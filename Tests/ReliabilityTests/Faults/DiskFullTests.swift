import Foundation
import Testing

@testable import SchemaMigrations

extension Reliability {
    /// A disk that fills up mid-migration (`PRAGMA max_page_count` on the app's own connection,
    /// migrated through `migrate(connection:)`): `SQLITE_FULL`, rolled back, the file untouched,
    /// the connection still usable; with room enough, the migration completes.
    @Suite struct DiskFull {
        @Test(.timeLimit(.minutes(30)), arguments: [false, true])
        func aFullDiskRollsBackUntilThereIsRoom(wal: Bool) throws {
            let config = ReliabilityConfig.current
            let scratch = Scratch("diskfull")
            let pristine = scratch.url("pristine.sqlite")
            try FaultFixture.populate(pristine, wal: wal, rows: 3000)
            let old = try DatabaseState.read(pristine, plan: FaultFixture.planName)
            let pages = try SQLiteConnection(path: pristine.path).scalar("PRAGMA page_count")?.int64Value ?? 0
            var failures = 0
            var runs = 0
            var codes: [String: Int] = [:]
            var room: Int64 = 0
            // Quick mode grows the limit by 4 pages a run, long mode by one: until the migration fits.
            let step: Int64 = config.long ? 1 : 4
            while true {
                let url = try scratch.copyDatabase(pristine, to: "full-\(room).sqlite")
                let before = try Data(contentsOf: url)
                let app = try SQLiteConnection(path: url.path)
                try app.execute("PRAGMA foreign_keys = ON")
                _ = try app.scalar("PRAGMA max_page_count = \(pages + room)")
                runs += 1
                do {
                    try FaultFixture.migrator().migrate(connection: app.handle)
                    #expect(
                        try app.scalar("PRAGMA foreign_keys")?.int64Value == 1,
                        "the app's foreign_keys setting is restored")
                    let state = try DatabaseState.read(url, plan: FaultFixture.planName)
                    #expect(state.version == "3.0.0" && state.integrity == "ok", "room for \(room) pages: \(state)")
                    break
                } catch let error as MigrationError {
                    failures += 1
                    codes["\(error.code)/\(error.sqliteError?.resultCode.description ?? "-")", default: 0] += 1
                    #expect(
                        error.code == .sqlite || error.code == .customStageFailed, "room for \(room) pages: \(error)")
                    #expect(app.isAutocommit, "the app's connection is left outside any transaction")
                    #expect(
                        try app.scalar("PRAGMA foreign_keys")?.int64Value == 1,
                        "the app's foreign_keys setting is restored")
                    #expect(
                        try app.scalar("SELECT count(*) FROM Item")?.int64Value == 3000,
                        "the app's connection still reads")
                    let state = try DatabaseState.read(url, plan: FaultFixture.planName)
                    #expect(
                        state == old,
                        "room for \(room) pages: failed with \(error.code) but the database is \(state), not \(old)")
                    #expect(try Data(contentsOf: url) == before, "room for \(room) pages: the file's bytes changed")
                }
                scratch.removeDatabase(url)
                room += step
                try #require(room < 10_000, "the migration never fitted; \(config.reproduction)")
            }
            ReliabilityConfig.summary(
                "diskfull-\(wal ? "wal" : "rollback")",
                "pages=\(pages) runs=\(runs) full-disk-failures=\(failures) fitted-with-extra-pages=\(room) errors=[\(codes.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", "))]"
            )
        }
    }
}
