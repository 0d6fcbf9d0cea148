import Foundation
import Testing

@testable import SchemaMigrations

/// `status` while an online change is in progress: its stage, phase, tables, how far the copy is,
/// and whether its owner is alive, read from another connection without writing.
@Suite struct OnlineStatusTests {
    typealias A = PlanBuilder
    static let v1 = OnlineRebuildTests.v1, v2 = OnlineRebuildTests.v2

    /// Starts an online migration of `db` from V1 to V2 on its own thread, pausing from the
    /// `pauseAfter`-th time it asks (so that many chunks are copied), and waits until it pauses.
    static func pausedMigration(_ db: TemporaryDatabase, pauseAfter chunks: Int) throws -> (
        gate: Gate, asked: PauseCounter
    ) {
        let gate = Gate()
        let asked = PauseCounter()
        var online = OnlineRebuildOptions(chunkTargetMilliseconds: 1)
        online.shouldPause = { asked.increment() > chunks && gate.isClosed }
        let url = db.url
        let migrator = try A.migrator([v1, v2], options: OnlineRebuildEdgeTests.options(online))
        Thread {
            gate.result = Result { try migrator.migrate(databaseAt: url) }
            gate.finished.signal()
        }.start()
        while asked.value <= chunks + 1 { usleep(1_000) }
        return (gate, asked)
    }

    @Test func aPausedCopyIsShownWithItsStageTableHighWaterMarkAndLiveOwner() throws {
        let db = TemporaryDatabase()
        try OnlineRebuildTests.makeV1(db.url, rows: 2_000)
        let (gate, _) = try Self.pausedMigration(db, pauseAfter: 2)

        let status = try A.migrator([Self.v1, Self.v2]).status(databaseAt: db.url)
        #expect(status.currentVersion == Schema.Version(1, 0, 0))
        #expect(status.pendingStages.map(\.description) == ["1.0.0 → 2.0.0 (lightweight)"])
        let change = try #require(status.onlineChange)
        #expect(change.plan == "default")
        #expect(change.from == Schema.Version(1, 0, 0) && change.to == Schema.Version(2, 0, 0))
        #expect(change.phase == .copying)
        #expect(change.tables.map(\.name) == ["Person"])
        #expect(change.tables[0].state == .copying)
        #expect(change.tables[0].maxRowid == 6_000, "2,000 people with ids 3, 6, … 6,000")
        let highWater = try #require(change.tables[0].highWater, "two chunks were copied before the pause")
        #expect(highWater >= 600 && highWater < 6_000)
        #expect(change.owner == OnlineState.thisOwner)
        #expect(change.ownerIsAlive)
        #expect(Date().timeIntervalSince(change.heartbeat) < OnlineState.staleAfter)

        gate.isClosed = false
        gate.finished.wait()
        #expect(throws: Never.self) { try gate.result?.get() }
        let after = try A.migrator([Self.v1, Self.v2]).status(databaseAt: db.url)
        #expect(after.onlineChange == nil)
        #expect(after.isUpToDate)
    }

    @Test func aStoppedChangeIsShownWithItsOwnerGone() throws {
        let db = TemporaryDatabase()
        try OnlineRebuildTests.makeV1(db.url, rows: 500)
        let (gate, _) = try Self.pausedMigration(db, pauseAfter: 1)
        // As if the run had been killed on another host a minute ago.
        let stale = Date().timeIntervalSince1970 - 60
        try db.execute("UPDATE _schema_migrations_online SET owner = 'elsewhere:1', heartbeat = \(stale)")
        let before = try db.bytes()

        let change = try #require(try A.migrator([Self.v1, Self.v2]).status(databaseAt: db.url).onlineChange)
        #expect(change.owner == "elsewhere:1")
        #expect(!change.ownerIsAlive)
        #expect(change.heartbeat.timeIntervalSince1970 == stale)
        #expect(try db.bytes() == before, "status never writes")

        gate.isClosed = false
        gate.finished.wait()
    }

    /// A change whose run stopped says it is paused, with how far it got and its last heartbeat,
    /// not that it is copying.
    @Test func aStoppedChangeIsShownPausedWithHowFarItGot() throws {
        let db = TemporaryDatabase()
        try OnlineRebuildTests.makeV1(db.url, rows: 2_000)
        let (gate, _) = try Self.pausedMigration(db, pauseAfter: 2)
        let stale = Date().timeIntervalSince1970 - 60
        try db.execute("UPDATE _schema_migrations_online SET owner = 'elsewhere:1', heartbeat = \(stale)")

        let change = try #require(try A.migrator([Self.v1, Self.v2]).status(databaseAt: db.url).onlineChange)
        #expect(change.isPaused)
        let highWater = try #require(change.tables[0].highWater)
        let share = (Double(highWater) / 6_000 * 100).fixedPoint(1)
        let lines = change.lines(now: Date(timeIntervalSince1970: stale + 30))
        #expect(
            Array(lines.prefix(3)) == [
                "online change: 1.0.0 → 2.0.0 (plan 'default'), paused: its run stopped; the database stays at 1.0.0 until the next online migration resumes the copy and cuts over",
                "  Person: paused after copying up to rowid \(highWater) of 6000 (\(share)%)",
                "  owner: elsewhere:1 (stopped: the next migration picks the change up)",
            ])
        #expect(lines[3].hasPrefix("  last heartbeat 30.0 s ago, started "))

        // Before its first chunk: paused, no chunk copied yet.
        try db.execute("UPDATE _schema_migrations_online SET highWater = NULL")
        let early = try #require(try A.migrator([Self.v1, Self.v2]).status(databaseAt: db.url).onlineChange)
        #expect(early.lines(now: Date())[1] == "  Person: paused, no chunk copied yet (largest rowid 6000)")

        gate.isClosed = false
        gate.finished.wait()
    }

    @Test func aReleasingChangeIsShownAtTheNewVersion() throws {
        let db = TemporaryDatabase()
        try OnlineRebuildTests.makeV1(db.url, rows: 10)
        try A.migrator([Self.v1, Self.v2]).migrate(databaseAt: db.url)
        // An interrupted release: the old table set aside, the state row saying so.
        try db.execute(
            """
            CREATE TABLE "_sm_old_Person" (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO "_sm_old_Person" VALUES (4, 'a'), (9, 'b');
            \(OnlineFixture.earlierStateSQL);
            INSERT INTO _schema_migrations_online VALUES (1, 'default', '1.0.0', '2.0.0', 'releasing', '_sm_old_Person', NULL, 1, 0, 0, 'elsewhere:1')
            """)
        let status = try A.migrator([Self.v1, Self.v2]).status(databaseAt: db.url)
        #expect(status.isUpToDate)
        let change = try #require(status.onlineChange)
        #expect(change.phase == .releasing)
        #expect(
            change.tables == [OnlineChangeStatus.Table(name: "Person", state: .releasing, highWater: nil, maxRowid: 9)])
    }
}

/// A thread-safe count.
final class PauseCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    /// Adds one and returns the new count.
    func increment() -> Int {
        lock.lock()
        defer { lock.unlock() }
        count += 1
        return count
    }
    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}
