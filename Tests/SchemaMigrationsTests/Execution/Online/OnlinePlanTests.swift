import Foundation
import Testing

@testable import SchemaMigrations

/// The dry run of an online migration: which stages run online and in which phases, which run
/// offline and why, and the refusals the migration would make, in its words. Never writes.
@Suite struct OnlinePlanTests {
    typealias A = PlanBuilder
    static let v1 = OnlineRebuildTests.v1, v2 = OnlineRebuildTests.v2

    static func onlineOptions(_ milliseconds: Double = 20) -> MigrationOptions {
        OnlineRebuildEdgeTests.options(OnlineRebuildOptions(chunkTargetMilliseconds: milliseconds))
    }

    @Test func aRebuildThatCanRunOnlineIsShownPhaseByPhaseAndTheMigrationAgrees() throws {
        let db = TemporaryDatabase()
        try OnlineRebuildTests.makeV1(db.url, rows: 2_000)
        let before = try db.bytes()
        let report = try A.migrator([Self.v1, Self.v2], options: Self.onlineOptions()).plan(databaseAt: db.url)
        #expect(try db.bytes() == before, "a dry run never writes")
        #expect(report.refusals.isEmpty)
        let online = try #require(report.online)
        #expect(online.chunkTargetMilliseconds == 20)
        #expect(online.stages.map(\.runsOnline) == [true])
        #expect(online.stages[0].tables == ["Person"])
        #expect(online.stages[0].rows == ["Person": 2_000])
        #expect(
            online.lines == [
                "online: rebuilds run online in chunks of about 20 ms each, the write lock released between chunks; custom stages are refused",
                "stage 1.0.0 → 2.0.0: online, rebuilding Person",
                "  1. prepare (one short transaction): the shadow _sm_online_Person, triggers and a blob-write guard on Person, carrying the application's writes over",
                "  2. copy in rowid order, chunks of about 20 ms each: Person (2000 rows)",
                "  3. cut-over (one short transaction): drop the triggers and the guard; swap Person in (the old table renamed aside to _sm_old_Person, the shadow renamed to Person, the indexes moved or named); check the result against 2.0.0; record version 2.0.0",
                "  4. release the old Person in chunks of about 20 ms each",
            ])
        #expect(
            report.description.contains(
                "\n\n" + online.lines.joined(separator: "\n") + "\n\nstage 1.0.0 → 2.0.0 (lightweight), 1 step\n"))
        #expect(!report.warnings.contains { $0.hasPrefix("runs offline") })
        #expect(
            report.markdown.contains(
                """
                #### Online

                - online: rebuilds run online in chunks of about 20 ms each, the write lock released between chunks; custom stages are refused
                - stage 1.0.0 → 2.0.0: online, rebuilding Person
                  1. prepare (one short transaction): the shadow \\_sm_online_Person, triggers and a blob-write guard on Person, carrying the application's writes over
                """))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(report.json().utf8)) as? [String: Any])
        let stage = try #require(((json["online"] as? [String: Any])?["stages"] as? [[String: Any]])?.first)
        #expect(stage["runsOnline"] as? Bool == true && stage["tables"] as? [String] == ["Person"])
        #expect((stage["rows"] as? [String: Any])?["Person"] as? Int == 2_000)

        // Without the option, the report says nothing of it.
        #expect(try A.migrator([Self.v1, Self.v2]).plan(databaseAt: db.url).online == nil)
        // The migration does what the plan said: the stage ran online.
        let events = EventLog()
        var options = Self.onlineOptions()
        options.progress = { events.append($0) }
        try A.migrator([Self.v1, Self.v2], options: options).migrate(databaseAt: db.url)
        #expect(events.activities.contains(.cuttingOver))
    }

    @Test func aStageThatRunsOfflineSaysWhyAndWarnsOfItsLock() throws {
        let db = TemporaryDatabase()
        try db.execute(
            "CREATE TABLE Person (id INTEGER PRIMARY KEY, name TEXT NOT NULL DEFAULT '', age INTEGER, email TEXT) WITHOUT ROWID; CREATE INDEX Person_name ON Person (name);"
        )
        try db.execute("INSERT INTO Person (id, name) VALUES (1, 'a'), (2, 'b'), (3, 'c')")
        try A.migrator([Self.v1]).migrate(databaseAt: db.url)
        let report = try A.migrator([Self.v1, Self.v2], options: Self.onlineOptions(5)).plan(databaseAt: db.url)
        let online = try #require(report.online)
        #expect(online.stages.map(\.runsOnline) == [false])
        #expect(
            online.lines.dropFirst() == [
                "stage 1.0.0 → 2.0.0: offline, in one transaction: Person is a WITHOUT ROWID table: the online copy walks rowids"
            ])
        #expect(
            report.warnings.contains(
                "runs offline: the stage 1.0.0 → 2.0.0 holds the write lock while it works through Person (3 rows), because Person is a WITHOUT ROWID table: the online copy walks rowids"
            ))
        #expect(report.description.contains("\nWARNING: runs offline: the stage 1.0.0 → 2.0.0 holds the write lock"))
    }

    @Test func aStageWithNoRebuildRunsOfflineWithoutAWarning() throws {
        let db = TemporaryDatabase()
        try OnlineRebuildTests.makeV1(db.url, rows: 10)
        let v2 = A.schema(
            2, [PersonFixture.person { $0.attributes.append(A.attribute("nickname", .string, optional: true)) }])
        let report = try A.migrator([Self.v1, v2], options: Self.onlineOptions()).plan(databaseAt: db.url)
        #expect(
            report.online?.lines.dropFirst() == [
                "stage 1.0.0 → 2.0.0: offline, in one transaction: it rebuilds no table, so its steps are quick"
            ])
        #expect(report.warnings.isEmpty)
    }

    @Test func aCustomStageIsRefusedByThePlanInTheMigrationsWords() throws {
        let db = TemporaryDatabase()
        try OnlineRebuildTests.makeV1(db.url, rows: 10)
        let migrator = try A.migrator(
            [Self.v1, Self.v2], kind: .custom, didMigrate: { _ in }, options: Self.onlineOptions())
        let report = try migrator.plan(databaseAt: db.url)
        let refusal = try #require(report.refusals.first)
        let error = try #require(throws: MigrationError.self) { try migrator.migrate(databaseAt: db.url) }
        #expect(refusal.code == .onlineRefused && error.code == .onlineRefused)
        #expect(refusal.message == error.message)
        #expect(refusal.remedy == error.remedy)
        #expect(
            report.description.contains(
                "\nREFUSED: the stage 1.0.0 → 2.0.0 runs custom code, which cannot run online; nothing was done"))
        // Without the option, the same plan is not refused.
        #expect(
            try A.migrator([Self.v1, Self.v2], kind: .custom, didMigrate: { _ in }).plan(databaseAt: db.url).refusals
                .isEmpty)
    }

    @Test func aChunkTargetThatIsNoDurationIsRefusedByThePlanAsByTheMigration() throws {
        let db = TemporaryDatabase()
        try OnlineRebuildTests.makeV1(db.url, rows: 10)
        let migrator = try A.migrator([Self.v1, Self.v2], options: Self.onlineOptions(0))
        let planned = try #require(throws: MigrationError.self) { try migrator.plan(databaseAt: db.url) }
        let applied = try #require(throws: MigrationError.self) { try migrator.migrate(databaseAt: db.url) }
        #expect(planned.code == .invalidOption && planned.message == applied.message)
    }

    @Test func anOnlineChangeOwnedByAnotherLiveRunIsRefusedByThePlan() throws {
        let db = TemporaryDatabase()
        try OnlineRebuildTests.makeV1(db.url, rows: 10)
        try db.execute(
            """
            \(OnlineFixture.earlierStateSQL);
            INSERT INTO _schema_migrations_online VALUES (1, 'default', '1.0.0', '2.0.0', 'copying', '_sm_online_Person', NULL, 0, 0, \(Date().timeIntervalSince1970), 'elsewhere:1')
            """)
        for options in [Self.onlineOptions(), MigrationOptions()] {
            let report = try A.migrator([Self.v1, Self.v2], options: options).plan(databaseAt: db.url)
            let error = try #require(throws: MigrationError.self) {
                try A.migrator([Self.v1, Self.v2], options: options).migrate(databaseAt: db.url)
            }
            #expect(report.refusals.map(\.message) == [error.message])
        }
    }
}
