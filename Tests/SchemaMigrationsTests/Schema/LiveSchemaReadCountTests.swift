import Foundation
import Testing

@testable import SchemaMigrations

/// A stage reads the live schema many times over (the version's check, the environment check,
/// the renderer, the foreign-key check, the verification, the online decision and copy): each
/// table is read in detail once per schema it has, not once per look.
@Suite struct LiveSchemaReadCountTests {
    typealias A = PlanBuilder
    static let v1 = OnlineRebuildTests.v1, v2 = OnlineRebuildTests.v2

    /// How often each table was read in detail (its columns through `table_xinfo`, as
    /// ``LiveSchema/read(from:onlyTables:)`` asks), by name.
    static func detailReads(_ recorder: StatementRecorder) -> [String: Int] {
        let prefix = "SELECT name, type, \"notnull\", dflt_value, pk, hidden FROM pragma_table_xinfo('"
        var reads: [String: Int] = [:]
        for case .statement(let sql, _) in recorder.entries where sql.hasPrefix(prefix) {
            reads[String(sql.dropFirst(prefix.count).prefix { $0 != "'" }), default: 0] += 1
        }
        return reads
    }

    /// Migrates a V1 database (Person with an index on name, a view and a trigger over it, Audit)
    /// to V2, which rebuilds Person, through a connection whose statements are recorded.
    static func migrate(_ options: MigrationOptions = MigrationOptions()) throws -> [String: Int] {
        let db = TemporaryDatabase()
        try OnlineRebuildTests.makeV1(db.url, rows: 100)
        let connection = try db.connect()
        let recorder = StatementRecorder()
        connection.startRecording(into: recorder)
        let result = try A.migrator([Self.v1, Self.v2], options: options).migrate(using: connection)
        connection.stopRecording()
        #expect(result.toVersion == Self.v2.version)
        #expect(try db.rows("SELECT count(*) FROM Adult") == [["72"]])
        return detailReads(recorder)
    }

    @Test("An offline rebuild reads Person in detail twice: as the stage finds it, as the rebuild leaves it")
    func offlineRebuild() throws {
        let reads = try Self.migrate()
        // Each look used to read it again (6): the up-to-date check, the version's check under the
        // write lock, the environment check, the renderer, the foreign-key check, the verification.
        #expect(reads["Person"] == 2, "\(reads)")
        #expect(reads.values.allSatisfy { $0 <= 2 }, "\(reads)")
    }

    @Test(
        "An online rebuild reads Person in detail once per schema it has: as found, as prepared for the copy, as the cut-over finds it, as swapped in"
    )
    func onlineRebuild() throws {
        let reads = try Self.migrate(OnlineRebuildEdgeTests.options())
        // Each look used to read it again (7): the up-to-date check, the version's check, the
        // stage's decision, the copy, the cut-over's version check, its renderer (after it dropped
        // the copy's triggers and guard), the verification.
        #expect(reads["Person"] == 4, "\(reads)")
        #expect(reads["_sm_online_Person"] == 1, "\(reads)")
        #expect(reads.values.allSatisfy { $0 <= 4 }, "\(reads)")
    }

    @Test("A dry run of a rebuild reads each table in detail once")
    func dryRun() throws {
        let db = TemporaryDatabase()
        try OnlineRebuildTests.makeV1(db.url, rows: 100)
        let connection = try SQLiteConnection(path: db.path, mode: .readOnly)
        let recorder = StatementRecorder()
        connection.startRecording(into: recorder)
        let plan = try A.migrator([Self.v1, Self.v2]).resolvedPlan()
        let report = try MigrationReport.make(plan: plan, db: connection, target: nil)
        connection.stopRecording()
        #expect(report.stages.count == 1 && report.refusals.isEmpty)
        let reads = Self.detailReads(recorder)
        #expect(reads["Person"] == 1, "\(reads)")  // it used to be read 3 times
        #expect(reads.values.allSatisfy { $0 == 1 }, "\(reads)")
    }
}
