import Foundation
import SchemaMigrations

@testable import reliability_driver

/// A small database of the driver's plan, with its states before and after migrating, for races.
struct RaceFixture {
    static let rows = 2000

    let scratch = Scratch("race")
    let pristine: URL
    let old: DatabaseState
    let new: DatabaseState
    let wal: Bool

    init(wal: Bool) throws {
        self.wal = wal
        pristine = scratch.url("pristine.sqlite")
        let populated = try DriverProcess.run(
            ["populate", "--database", pristine.path, "--rows", String(RaceFixture.rows)]
                + (wal ? ["--journal", "wal"] : []))
        guard populated.status == 0 else { throw CrashPlanError(message: populated.output) }
        old = try DatabaseState.read(pristine, plan: CrashPlan.planName)
        let reference = try scratch.copyDatabase(pristine, to: "reference.sqlite")
        try Migrator(plan: ReliabilityPlan.self).migrate(databaseAt: reference)
        new = try DatabaseState.read(reference, plan: CrashPlan.planName)
    }

    /// A fresh copy of the pristine database.
    func copy(_ name: String) throws -> URL { try scratch.copyDatabase(pristine, to: name) }

    /// Starts a driver migrating `url`, and waits until it holds the write lock (`--hold-start`)
    /// or has made every change but not committed (`--hold-end`).
    func startHolding(_ url: URL, at point: String, seconds: Double, busyTimeout: Double = 10) throws -> DriverProcess {
        let driver = try DriverProcess([
            "migrate", "--database", url.path, point, String(seconds), "--busy-timeout", String(busyTimeout),
        ])
        guard driver.waitForOutput(point == "--hold-start" ? "holding start" : "holding end") else {
            throw CrashPlanError(message: "the driver never held the lock: \(driver.wait().output)")
        }
        return driver
    }

    /// The columns of a table, as a reader sees them now.
    static func columns(_ table: String, _ db: SQLiteConnection) throws -> [String] {
        try db.rows("SELECT name FROM pragma_table_info(?) ORDER BY cid", [.text(table)]).compactMap {
            $0[0].stringValue
        }
    }
}
