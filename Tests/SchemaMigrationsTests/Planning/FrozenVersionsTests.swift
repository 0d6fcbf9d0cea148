import Foundation
import SampleTripsPlan
import Testing

@testable import SchemaMigrations

@Suite struct FrozenVersionsTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/SampleTrips")

    @Test func theBundledExampleStillDeclaresWhatItsReleasedSnapshotsSay() throws {
        #expect(try FrozenVersions.changes(in: TripsMigrationPlan.self, comparedTo: Self.fixtures) == [])
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.fixtures.path).filter {
            $0.hasSuffix(".json")
        }.sorted()
        #expect(files == ["plan.json", "schema-1.0.0.json", "schema-2.0.0.json", "schema-3.0.0.json"])
    }

    @Test func aChangedReleasedVersionIsReported() throws {
        let directory = TemporaryDatabase().directory
        try FrozenVersions.writeSnapshots(of: TripsMigrationPlan.self, to: directory)
        // Pretend version 2.0.0 was released without the unique name: the declaration now differs.
        var released = try Schema(snapshotJSON: Data(contentsOf: directory.appendingPathComponent("schema-2.0.0.json")))
        released.entities[0].indexes = []
        try Data(released.snapshotJSON().utf8).write(to: directory.appendingPathComponent("schema-2.0.0.json"))
        let changes = try FrozenVersions.changes(in: TripsMigrationPlan.self, comparedTo: directory)
        #expect(changes.count == 1)
        #expect(changes[0].hasPrefix("version 2.0.0 changed since its snapshot schema-2.0.0.json (hash "))
        #expect(
            changes[0].hasSuffix("declare a new version instead (Trip: index added: unique index (name))"),
            "\(changes[0])")
    }
}
