import Foundation
import Testing

@testable import SchemaMigrations

/// One counter over a whole migration: the backup, each stage's `willMigrate`, its steps, its
/// `didMigrate` and its finalizing steps are numbered 1 to N with one N, in the order they run,
/// and the news inside a step (rows, pages, heartbeats) carries its number.
@Suite struct RunProgressTests {
    typealias A = PlanBuilder

    final class Events: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [MigrationProgress] = []
        func add(_ event: MigrationProgress) { lock.withLock { list.append(event) } }
        var all: [MigrationProgress] { lock.withLock { list } }
    }

    /// Whether the event starts a step (rather than reporting on one): as the command prints it.
    static func starts(_ event: MigrationProgress, after previous: MigrationProgress?) -> Bool {
        switch event.activity {
        case .step: return true
        case .runningCode: return event.elapsed == 0
        case .backingUp: return previous?.activity != .backingUp
        default: return false
        }
    }

    static func lines(_ events: [MigrationProgress]) -> [String] {
        var lines: [String] = []
        var previous: MigrationProgress?
        for event in events {
            if starts(event, after: previous) {
                let words = event.activity == .backingUp ? "backup" : event.summary
                lines.append("[\(event.stepIndex + 1)/\(event.stepCount)] " + words)
            }
            previous = event
        }
        return lines
    }

    @Test func twoStagesWithCodeABackupAndAFinalizingRebuildCountOneToN() throws {
        let db = TemporaryDatabase()
        let v1 = A.schema(1, [PersonFixture.person])
        let v2 = A.schema(2, [PersonFixture.person { $0.attributes.append(A.attribute("rating", .integer)) }])
        let v3 = A.schema(
            3,
            [
                PersonFixture.person {
                    $0.attributes.append(A.attribute("rating", .integer))
                    $0.attributes.append(A.attribute("nick", .string, optional: true))
                }
            ])
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute(PersonFixture.rows)
        let events = Events()
        let options = MigrationOptions(
            backupURL: db.directory.appendingPathComponent("backup.sqlite"), progress: { events.add($0) })
        try A.migrator(
            [v1, v2, v3], kind: .custom, willMigrate: { _ in },
            didMigrate: { try $0.execute("UPDATE Person SET rating = 1 WHERE rating IS NULL") }, options: options
        ).migrate(databaseAt: db.url)

        let all = events.all
        #expect(
            Self.lines(all) == [
                "[1/8] backup",
                "[2/8] willMigrate runs",
                "[3/8] Add column Person.rating INTEGER (NULL until didMigrate fills it; NOT NULL is enforced after)",
                "[4/8] didMigrate runs",
                "[5/8] Rebuild table Person (copies every row): enforce NOT NULL on rating",
                "[6/8] willMigrate runs",
                "[7/8] Add column Person.nick TEXT",
                "[8/8] didMigrate runs",
            ])
        #expect(Set(all.map(\.stepCount)) == [8], "one total in every event")
        #expect(all.map(\.stepIndex) == all.map(\.stepIndex).sorted(), "the numbers only grow")
    }

    /// One transaction per stage counts the same way: the second stage goes on from the first.
    @Test func perStageTransactionsContinueTheCount() throws {
        let db = TemporaryDatabase()
        let v1 = A.schema(1, [PersonFixture.person])
        let v2 = A.schema(
            2, [PersonFixture.person { $0.attributes.append(A.attribute("nick", .string, optional: true)) }])
        let v3 = A.schema(
            3,
            [
                PersonFixture.person {
                    $0.attributes.append(A.attribute("nick", .string, optional: true))
                    $0.indexes.append(Schema.Index(["nick"]))
                }
            ])
        try A.migrator([v1]).migrate(databaseAt: db.url)
        let events = Events()
        var options = MigrationOptions(progress: { events.add($0) })
        options.transactionScope = .perStage
        try A.migrator([v1, v2, v3], options: options).migrate(databaseAt: db.url)
        #expect(
            Self.lines(events.all) == [
                "[1/2] Add column Person.nick TEXT", "[2/2] Create index Person_nick on Person(nick)",
            ])
    }

    /// Creating an empty database: one step per table, and no backup.
    @Test func creatingCountsItsTables() throws {
        let db = TemporaryDatabase()
        let events = Events()
        let options = MigrationOptions(
            backupURL: db.directory.appendingPathComponent("backup.sqlite"), progress: { events.add($0) })
        try A.migrator(
            [
                A.schema(
                    1, [PersonFixture.person, Schema.Entity(name: "Tag", attributes: [A.attribute("label", .string)])])
            ], options: options
        )
        .migrate(databaseAt: db.url)
        #expect(Self.lines(events.all).map { String($0.prefix(6)) } == ["[1/2] ", "[2/2] "])
    }
}
