import Foundation
import SampleTripsPlan
import SchemaMigrations

/// A temporary directory for databases and plan directories, removed when the test ends.
final class Scratch {
    let directory: URL

    init() {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-tests-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// The bundled example's JSON plan directory (versions 2.0.0 and 3.0.0).
    static let jsonPlan = BuiltCommand.repositoryRoot.appendingPathComponent("Fixtures/SampleTrips/json-plan").path

    /// A SampleTrips database with `trips` trips at `version` (1.0.0 has every fourth name twice).
    @discardableResult
    func sampleTrips(_ name: String, at version: Schema.Version = Schema.Version(1, 0, 0), trips: Int = 12) throws
        -> String
    {
        let url = directory.appendingPathComponent(name)
        try SampleTripsFixture.createV1(at: url, trips: trips)
        if version > Schema.Version(1, 0, 0) {
            try Migrator(plan: TripsMigrationPlan.self, options: MigrationOptions(targetVersion: version)).migrate(
                databaseAt: url)
        }
        return url.path
    }

    /// A file that is not a database.
    @discardableResult
    func corrupt(_ name: String) throws -> String {
        try Data("this is not a SQLite database, just some text that is long enough".utf8).write(
            to: directory.appendingPathComponent(name))
        return path(name)
    }

    func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    /// Rows of a query, values as SQL literals.
    func rows(_ path: String, _ sql: String) throws -> [[String]] {
        try SQLiteConnection(path: path, mode: .readOnly).rows(sql).map { $0.map(\.sqlLiteral) }
    }

    func execute(_ path: String, _ sql: String) throws {
        try SQLiteConnection(path: path, mode: .readWrite).execute(sql)
    }

    /// What two databases must share to be the same migration's result: schema objects, user
    /// rows, metadata without timings, and the schema cookie.
    func contents(_ path: String, table: String = "Trip") throws -> [[String]] {
        try rows(path, "SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY name")
            + rows(path, "SELECT * FROM \(table) ORDER BY id")
            + rows(
                path,
                "SELECT plan, seq, version, hash, kind, fromVersion, schemaCookie, snapshot FROM _schema_migrations ORDER BY plan, seq"
            )
            + rows(path, "PRAGMA schema_version")
    }
}
