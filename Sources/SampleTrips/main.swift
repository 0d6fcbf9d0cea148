import Foundation
import SampleTripsPlan
import SchemaMigrations

// sample-trips: builds a populated V1 database of the SampleTrips schema, shows the dry run of
// migrating it to the latest version, applies it, and shows the result.
//
//   swift run sample-trips [--database PATH] [--trips N]

var path = FileManager.default.temporaryDirectory.appendingPathComponent("sample-trips.sqlite").path
var tripCount = 1000
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--database": path = arguments.popFirst() ?? path
    case "--trips": tripCount = arguments.popFirst().flatMap(Int.init) ?? tripCount
    case "--write-snapshots":
        // Freezes the released versions: Fixtures/SampleTrips/schema-<version>.json.
        let directory = URL(fileURLWithPath: arguments.popFirst() ?? "Fixtures/SampleTrips")
        do {
            for url in try FrozenVersions.writeSnapshots(of: TripsMigrationPlan.self, to: directory) { print("wrote \(url.path)") }
            exit(0)
        } catch {
            FileHandle.standardError.write(Data("sample-trips: \(error)\n".utf8))
            exit(1)
        }
    case "--help", "-h":
        print("usage: sample-trips [--database PATH] [--trips N] | --write-snapshots [DIR]\n\nBuilds a populated V1 SampleTrips database at PATH, prints the dry run of migrating it to V3, applies it, and prints the result.")
        exit(0)
    default:
        FileHandle.standardError.write(Data("sample-trips: unknown argument '\(argument)'; see --help\n".utf8))
        exit(2)
    }
}

do {
    let url = URL(fileURLWithPath: path)
    try? FileManager.default.removeItem(at: url)
    try SampleTripsFixture.createV1(at: url, trips: tripCount)
    print("Built a V1 SampleTrips database with \(tripCount) trips (some sharing a name) at \(path)\n")

    let migrator = Migrator(plan: TripsMigrationPlan.self)
    print("== Dry run (nothing is written) ==")
    print(try migrator.plan(databaseAt: url).text)

    print("== Apply ==")
    let result = try migrator.migrate(databaseAt: url)
    print("\(result.outcome.rawValue): \(result.fromVersion.map(\.description) ?? "empty") → \(result.toVersion) in \(String(format: "%.1f", result.duration * 1000)) ms")
    for stage in result.stages {
        print("  stage \(stage.from) → \(stage.to) (\(stage.kind.rawValue)): " + stage.allSteps.map(\.summary).joined(separator: "; "))
    }
    let db = try SQLiteConnection(path: path, mode: .readOnly)
    let trips = try db.scalar("SELECT count(*) FROM Trip")?.int64Value ?? 0
    print("\nTrip now has \(trips) rows (duplicates removed by the custom stage); the first three:")
    for row in try db.rows("SELECT id, name, destination, startDate, endDate, notes FROM Trip ORDER BY id LIMIT 3") {
        print("  " + row.map(\.sqlLiteral).joined(separator: " | "))
    }
    print("\nRunning it again finds nothing to do: \(try migrator.migrate(databaseAt: url).outcome.rawValue)")
} catch {
    FileHandle.standardError.write(Data("sample-trips: \(error)\n".utf8))
    exit(1)
}
