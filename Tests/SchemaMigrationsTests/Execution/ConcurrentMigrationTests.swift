import Foundation
import Testing

@testable import SchemaMigrations

/// Two migrations of one file at once serialize: the second waits for the first's write lock (up
/// to its busy timeout), then finds the file current and does nothing, backup included; a lock
/// held longer than that is `locked`, with nothing done, and the first migration never loses.
@Suite struct ConcurrentMigrationTests {
    typealias A = PlanBuilder

    static let v1 = A.schema(1, [Schema.Entity(name: "Note", attributes: [A.attribute("body", .string)])])
    static let v2 = A.schema(
        2, [Schema.Entity(name: "Note", attributes: [A.attribute("body", .string), A.attribute("rank", .integer)])])

    /// A migration whose custom stage holds the write lock for `seconds`, and fills `rank`.
    static func slow(_ seconds: Double) throws -> Migrator {
        try A.migrator(
            [v1, v2], kind: .custom,
            didMigrate: { context in
                Thread.sleep(forTimeInterval: seconds)
                try context.execute("UPDATE Note SET rank = 7")
            })
    }

    static func database() throws -> TemporaryDatabase {
        let db = TemporaryDatabase()
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute("INSERT INTO Note (body) VALUES ('a'), ('b')")
        return db
    }

    /// Starts `migrator` on another thread; the returned closure waits for it and gives its outcome.
    static func start(_ migrator: Migrator, on url: URL) -> () -> Result<MigrationResult, MigrationError> {
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox()
        Thread.detachNewThread {
            do { box.result = .success(try migrator.migrate(databaseAt: url)) } catch let error as MigrationError {
                box.result = .failure(error)
            } catch {
                box.result = .failure(MigrationError(.sqlite, "\(error)"))
            }
            done.signal()
        }
        return {
            done.wait()
            return box.result!
        }
    }

    final class ResultBox: @unchecked Sendable {
        var result: Result<MigrationResult, MigrationError>?
    }

    @Test func theSecondWaitsThenFindsTheFileCurrentAndBacksNothingUp() throws {
        let db = try Self.database()
        let first = Self.start(try Self.slow(0.6), on: db.url)
        Thread.sleep(forTimeInterval: 0.2)  // the first holds the write lock
        let backup = db.url.deletingLastPathComponent().appendingPathComponent("second.backup")
        let second = try A.migrator(
            [Self.v1, Self.v2], kind: .custom, didMigrate: { try $0.execute("UPDATE Note SET rank = 1") },
            options: MigrationOptions(backupURL: backup)
        ).migrate(databaseAt: db.url)
        #expect(second.outcome == .upToDate, "\(second)")
        #expect(second.backupURL == nil)
        #expect(!FileManager.default.fileExists(atPath: backup.path))
        let result = try first().get()
        #expect(result.toVersion == Schema.Version(2, 0, 0))
        #expect(try db.rows("SELECT body, rank FROM Note ORDER BY id") == [["'a'", "7"], ["'b'", "7"]])
        #expect(try Migrator.history(databaseAt: db.url, plan: "default").map(\.kind) == ["create", "custom"])
    }

    @Test func aLockHeldPastTheBusyTimeoutIsLockedAndTheFirstStillWins() throws {
        let db = try Self.database()
        let first = Self.start(try Self.slow(1.0), on: db.url)
        Thread.sleep(forTimeInterval: 0.2)
        var options = MigrationOptions(busyTimeout: 0.2)
        options.backupURL = db.url.deletingLastPathComponent().appendingPathComponent("second.backup")
        let error = try #require(throws: MigrationError.self) {
            try A.migrator(
                [Self.v1, Self.v2], kind: .custom, didMigrate: { try $0.execute("UPDATE Note SET rank = 1") },
                options: options
            ).migrate(databaseAt: db.url)
        }
        #expect(error.code == .locked)
        #expect(error.message.hasSuffix("(waited 0.2 s); nothing was done"))
        #expect(!FileManager.default.fileExists(atPath: options.backupURL!.path), "no backup before the lock")
        #expect(try first().get().toVersion == Schema.Version(2, 0, 0))
        #expect(try db.rows("SELECT rank FROM Note ORDER BY id") == [["7"], ["7"]])
    }
}
