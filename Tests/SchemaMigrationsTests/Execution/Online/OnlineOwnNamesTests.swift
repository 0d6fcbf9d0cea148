import Foundation
import Testing

@testable import SchemaMigrations

/// An online change names its own objects after the table: the shadow `_sm_online_T`, its
/// indexes `_sm_online_ixN_T`, the triggers `_sm_online_T_insert` (`_update`, `_delete`), and,
/// at the cut-over, `_sm_old_T` and `_sm_old_ixN_T`. A database that already has one of these
/// names for something of its own runs the stage offline, says so in the dry run, and keeps
/// what it had.
@Suite struct OnlineOwnNamesTests {
    typealias A = PlanBuilder

    static let objects = [
        "CREATE TABLE _sm_online_Item (z); INSERT INTO _sm_online_Item VALUES ('mine')",
        "CREATE TABLE _SM_OLD_ITEM (z); INSERT INTO _SM_OLD_ITEM VALUES ('mine')",
        "CREATE TRIGGER _sm_online_Item_insert AFTER INSERT ON Item BEGIN INSERT INTO log VALUES ('mine'); END",
        "CREATE INDEX _sm_online_ix1_Item ON Item (code)",
        "CREATE INDEX _sm_old_ix2_Item ON Item (email)",
    ]

    @Test(arguments: objects)
    func aStageWhoseOnlineNamesAreTakenRunsOfflineAndKeepsTheDatabasesObject(object: String) throws {
        let db = TemporaryDatabase()
        try A.migrator([FreedPagesOrderTests.v1]).migrate(databaseAt: db.url)
        try db.execute(
            """
            CREATE TABLE log (z); CREATE INDEX item_code ON Item (code);
            INSERT INTO Item (email, name, code) VALUES ('ada@example.com', 'Ada', 'a1'), (NULL, 'Alan', NULL);
            \(object);
            """)
        let own = "SELECT type, name, sql FROM sqlite_schema WHERE name LIKE '\\_sm\\_%' ESCAPE '\\' ORDER BY name"
        let before = try db.rows(own)
        let name = try #require(before.first?[1].trimmingCharacters(in: ["'"]))
        var options = MigrationOptions()
        options.online = OnlineRebuildOptions(chunkTargetMilliseconds: 1)
        let migrator = try A.migrator([FreedPagesOrderTests.v1, FreedPagesOrderTests.v2], options: options)

        let report = try migrator.plan(databaseAt: db.url)
        let stage = try #require(report.online?.stages.first)
        #expect(!stage.runsOnline)
        #expect(
            stage.offlineReasons.contains {
                // Named as the change would name it; SQLite's names ignore case.
                $0.lowercased().hasPrefix("the database already has \(name.lowercased())")
                    && $0.contains("online change of Item")
            }, "\(stage.offlineReasons)")

        try migrator.migrate(databaseAt: db.url)
        #expect(try db.recordedVersion() == "2.0.0")
        #expect(try db.rows(own) == before)
        #expect(
            try db.rows("SELECT id, email, name, code FROM Item ORDER BY id") == [
                ["1", "'ada@example.com'", "'Ada'", "'a1'"], ["2", "NULL", "'Alan'", "NULL"],
            ])
        #expect(try OnlineState.read(from: db.connect()) == nil)
        if object.contains("TRIGGER") {
            try db.execute("INSERT INTO Item (name) VALUES ('Grace')")
            #expect(try db.rows("SELECT z FROM log") == [["'mine'"]])
        }
    }
}
