import DqliteClient
import DqliteTestCluster
import Foundation
import SampleTripsPlan
import Testing

@testable import SchemaMigrations
@testable import SchemaMigrationsCluster

/// The cluster's migration is framed as a file's (steps 1-2 and 10-12 of SQLite's procedure): the
/// same connection settings read, set, read back and restored, around the same transaction.
@Suite("A cluster migration's framing", .serialized, .enabled(if: DqliteBinaries.available, DqliteBinaries.skipReason))
struct ClusterFramingTests {
    @Test(
        "SampleTrips V1 → V3: the leader gets the settings a file gets, read back before BEGIN and restored after COMMIT"
    )
    func sameSettingsAsAFile() throws {
        let cluster = try ClusterTrips.sharedCluster()
        try ClusterTrips.createV1(on: cluster, "framing-settings", trips: 40)
        let migrator = Migrator(plan: TripsMigrationPlan.self)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "framing-settings-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let local = directory.appendingPathComponent("local.sqlite")
        try migrator.dump(cluster: cluster.addresses, database: "framing-settings", to: local)

        // Given the same data on a file and on the cluster, when each is migrated,
        let sentToLeader = Locked<[String]>([])
        // (A statement sent as QUERY, then as EXEC when it returns no rows, is sent twice, run once.)
        let result = try migrator.migrate(
            cluster: cluster.addresses, database: "framing-settings", client: DqliteClient.Options(),
            afterSending: { sql in if let sql { sentToLeader.mutate { if $0.last != sql { $0.append(sql) } } } })
        let connection = try SQLiteConnection(path: local.path)
        let recorder = StatementRecorder()
        connection.startRecording(into: recorder)
        let localResult = try migrator.migrate(using: connection)
        connection.stopRecording()
        #expect(result.toVersion == TripsSchemaV3.versionIdentifier && localResult.toVersion == result.toVersion)

        // then both ran the same framing: each setting read, set, foreign keys read back, BEGIN
        // IMMEDIATE … COMMIT, each setting set back (to the connection's own value, which may differ).
        let onFile = Self.framing(
            recorder.entries.compactMap { entry -> String? in
                guard case .statement(let sql, _) = entry else { return nil }
                return sql
            })
        let onCluster = Self.framing(sentToLeader.value)
        let threads = ConnectionSettings.pragmas.first { $0.name == "threads" }!.value
        #expect(
            onFile == [
                "PRAGMA foreign_keys", "PRAGMA legacy_alter_table", "PRAGMA threads",
                "PRAGMA foreign_keys = OFF", "PRAGMA legacy_alter_table = OFF", "PRAGMA threads = \(threads)",
                "PRAGMA foreign_keys", "BEGIN IMMEDIATE", "COMMIT",
                "PRAGMA foreign_keys = (own)", "PRAGMA legacy_alter_table = (own)", "PRAGMA threads = (own)",
            ])
        #expect(onCluster == onFile)
    }

    /// The framing's statements, in order: the settings and the transaction's bounds, the
    /// values restored after `COMMIT` written as `(own)`.
    static func framing(_ statements: [String]) -> [String] {
        let settings = ConnectionSettings.pragmas.map(\.name)
        var committed = false
        return statements.compactMap { sql -> String? in
            let sql = sql.replacingOccurrences(of: " TRANSACTION", with: "")
            if sql == "BEGIN IMMEDIATE" { return sql }
            if sql == "COMMIT" {
                committed = true
                return sql
            }
            guard let name = settings.first(where: { sql == "PRAGMA \($0)" || sql.hasPrefix("PRAGMA \($0) = ") }) else {
                return nil
            }
            return committed && sql.contains("=") ? "PRAGMA \(name) = (own)" : sql
        }
    }
}
