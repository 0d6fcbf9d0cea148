import Foundation
import Testing

@testable import SchemaMigrations

/// Models whose initial values differ from one instance (and one launch) to the next: the time,
/// fresh UUIDs, Sets and dictionaries whose iteration order depends on their capacity.
enum ChangingDefaultsV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static let models: [any PersistentModel.Type] = [Visit.self, Badge.self]

    final class Visit: PersistentModel {
        var createdAt = Date()
        var token = UUID()
        var tags: Set<String> = Set(minimumCapacity: Int.random(in: 0...200)).union([
            "alpha", "beta", "gamma", "delta", "epsilon", "zeta",
        ])
        var note = "first"
        var count = 3
        init() {}
    }

    final class Badge: PersistentModel {
        @Attribute(hashModifier: "v1") var awardedAt: Date = .now
        var scores: [UUID: Int] = {
            var scores = [UUID: Int](minimumCapacity: Int.random(in: 0...100))
            for n in 1...6 { scores[UUID(uuidString: "00000000-0000-0000-0000-00000000000\(n)")!] = n }
            return scores
        }()
        var numbers: Set<Int> = Set(minimumCapacity: Int.random(in: 0...100)).union([3, 1, 4, 1, 5, 9, 2, 6])
        var since = Date(timeIntervalSince1970: 0)
        init() {}
    }
}

enum ChangingDefaultsPlan: SchemaMigrationPlan {
    static let name = "changing-defaults"
    static let schemas: [any VersionedSchema.Type] = [ChangingDefaultsV1.self]
}

extension Reliability {
    /// Reflecting the same declarations again and again (as every launch does) gives the same
    /// schema and hash: non-constant initial values are no defaults, unordered collections encode
    /// in one order, constants stay defaults. A database created by one reflection is up to date
    /// for every later one.
    @Suite struct ChangingDefaults {
        @Test func everyReflectionGivesTheSameVersion() throws {
            let config = ReliabilityConfig.current
            let scratch = Scratch("changing-defaults")
            let url = scratch.url("app.sqlite")
            try Migrator(plan: ChangingDefaultsPlan.self).migrate(databaseAt: url)
            let first = try Schema(ChangingDefaultsV1.self)
            let defaults = Dictionary(
                uniqueKeysWithValues: first.entities.flatMap { entity in
                    entity.attributes.map { ("\(entity.name).\($0.name)", $0.defaultValue) }
                })
            #expect(
                defaults["Visit.createdAt"] == .some(nil) && defaults["Visit.token"] == .some(nil)
                    && defaults["Badge.awardedAt"] == .some(nil))
            #expect(
                defaults["Visit.note"] == "'first'" && defaults["Visit.count"] == "3"
                    && defaults["Badge.since"] == "0.0")
            #expect(defaults["Badge.numbers"] == "'[1,2,3,4,5,6,9]'")
            let launches = max(20, config.propertyCases)
            var same = 0
            for _ in 0..<launches {
                usleep(UInt32.random(in: 0...300))
                let again = try Schema(ChangingDefaultsV1.self)
                if again.versionHash == first.versionHash && again == first { same += 1 }
                #expect(again.versionHash == first.versionHash)
                #expect(try Migrator(plan: ChangingDefaultsPlan.self).migrate(databaseAt: url).outcome == .upToDate)
            }
            ReliabilityConfig.summary("changing-defaults", "reflections=\(launches) same-schema=\(same)")
        }
    }
}
