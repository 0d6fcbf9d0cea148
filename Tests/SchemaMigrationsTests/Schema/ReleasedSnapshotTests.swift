import Foundation
import Testing

@testable import SchemaMigrations

/// Every snapshot the repository ships (SampleTrips, the benchmark plans) still reads with the hash
/// it recorded and is written back byte for byte: new schema options (index terms and conditions,
/// generated columns) add JSON keys only where they are declared.
@Suite struct ReleasedSnapshotTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

    static var snapshots: [URL] {
        let files =
            FileManager.default.enumerator(at: fixtures, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL }
            ?? []
        return files.filter { $0.lastPathComponent.hasPrefix("schema-") && $0.pathExtension == "json" }.sorted {
            $0.path < $1.path
        }
    }

    @Test func everyShippedSnapshotKeepsItsHashAndItsBytes() throws {
        let snapshots = Self.snapshots
        #expect(snapshots.count >= 7)
        for url in snapshots {
            let data = try Data(contentsOf: url)
            let schema = try Schema(snapshotJSON: data)  // throws when the recorded hash no longer matches
            #expect(
                try schema.snapshotJSON() == String(decoding: data, as: UTF8.self),
                "\(url.lastPathComponent) is written back unchanged")
            #expect(
                !String(decoding: data, as: UTF8.self).contains("\"predicate\"")
                    && !String(decoding: data, as: UTF8.self).contains("\"generated\""))
        }
    }
}
