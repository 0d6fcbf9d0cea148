import Foundation
import Testing

@testable import SchemaMigrations

/// An initial value computed anew for each instance is not a column default (it would change the
/// version's hash at every launch); a constant one is; a Set's default is encoded in one order.
@Suite struct NonConstantDefaultTests {
    enum V1: VersionedSchema {
        static let versionIdentifier = Schema.Version(1, 0, 0)
        static let models: [any PersistentModel.Type] = [Entry.self]

        final class Entry: PersistentModel {
            var createdAt = Date()
            var seenAt: Date? = .now
            var token = UUID()
            @Attribute(hashModifier: "epoch") var stamped = Date()
            var since = Date(timeIntervalSince1970: 86_400)
            var title = "untitled"
            var tags: Set<Int> = [5, 3, 11, 1, 8, 2, 13]
            var weights: [UUID: Int] = [
                UUID(uuidString: "00000000-0000-0000-0000-000000000002")!: 2,
                UUID(uuidString: "00000000-0000-0000-0000-000000000001")!: 1,
            ]
            init() {}
        }
    }

    @Test func onlyConstantInitialValuesBecomeDefaults() throws {
        let entity = try Schema(V1.self).entities[0]
        let defaults = Dictionary(uniqueKeysWithValues: entity.attributes.map { ($0.name, $0.defaultValue ?? "none") })
        #expect(defaults["createdAt"] == "none")
        #expect(defaults["seenAt"] == "none")
        #expect(defaults["token"] == "none")
        #expect(defaults["stamped"] == "none")
        #expect(defaults["since"] == "86400.0")
        #expect(defaults["title"] == "'untitled'")
        #expect(defaults["tags"] == "'[1,2,3,5,8,11,13]'")
        #expect(
            defaults["weights"]
                == #"'["00000000-0000-0000-0000-000000000001",1,"00000000-0000-0000-0000-000000000002",2]'"#)
        #expect(try Schema(V1.self).versionHash == Schema(V1.self).versionHash)
    }

    @Test func setsEncodeInOneOrderWhateverTheirIterationOrder() throws {
        for seed in 0..<20 {
            var set = Set<String>(minimumCapacity: seed)
            for word in ["pear", "apple", "fig", "kiwi", "plum"].shuffled() { set.insert(word) }
            #expect(try CanonicalJSON.encode(set) == #"["apple","fig","kiwi","pear","plum"]"#)
        }
    }
}
