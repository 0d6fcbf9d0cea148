import Foundation
import SchemaMigrations

// The plan the reliability suite kills, races and starves: large enough that a migration takes a
// while (a 50,000-row table rebuilt, then every row rewritten by a custom stage), with a child
// table referencing it so the rebuild must keep foreign keys right.

/// V1: items and their notes.
enum ReliabilityV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static let models: [any PersistentModel.Type] = [Item.self, Note.self]

    final class Item: PersistentModel {
        static let indexes: [[String]] = [["name"], ["category"]]
        var name = ""
        var category: String? = nil
        var price = 0
        var weight: Double? = nil
        var created_at = 0.0
        var legacy: String? = nil
        var flag = false
        @Relationship(deleteRule: .cascade, inverse: "item") var notes: [Note] = []
        init() {}
    }

    final class Note: PersistentModel {
        var text = ""
        var item: Item? = nil
        init() {}
    }
}

/// V2 rebuilds `Item`: a rename, a lossless type change with a rename, an optional becoming
/// non-optional with a default, a dropped column, an added one and a composite index.
enum ReliabilityV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static let models: [any PersistentModel.Type] = [Item.self, Note.self]

    final class Item: PersistentModel {
        static let indexes: [[String]] = [["name"], ["category"], ["name", "createdAt"]]
        var name = ""
        var category = ""
        @Attribute(originalName: "price") var amount = 0.0
        var weight: Double? = nil
        @Attribute(originalName: "created_at") var createdAt = 0.0
        var flag = false
        var rating: Double? = nil
        @Relationship(deleteRule: .cascade, inverse: "item") var notes: [Note] = []
        init() {}
    }

    final class Note: PersistentModel {
        var text = ""
        var item: Item? = nil
        init() {}
    }
}

/// V3 adds `score`, which a custom stage computes for every row, and renames `Note` to `Comment`.
enum ReliabilityV3: VersionedSchema {
    static let versionIdentifier = Schema.Version(3, 0, 0)
    static let models: [any PersistentModel.Type] = [Item.self, Comment.self]

    final class Item: PersistentModel {
        static let indexes: [[String]] = [["name"], ["category"], ["name", "createdAt"]]
        var name = ""
        var category = ""
        var amount = 0.0
        var weight: Double? = nil
        var createdAt = 0.0
        var flag = false
        var rating: Double? = nil
        var score = 0
        @Relationship(deleteRule: .cascade, inverse: "item") var notes: [Comment] = []
        init() {}
    }

    final class Comment: PersistentModel {
        static let originalName: String? = "Note"
        var text = ""
        var item: Item? = nil
        init() {}
    }
}

/// The plan: V1 → V2 custom (its `willMigrate` may hold the lock, for the concurrency tests),
/// V2 → V3 custom (its `didMigrate` rewrites every item, then may hold before the commit).
enum ReliabilityPlan: SchemaMigrationPlan {
    static let name = "reliability"
    static let schemas: [any VersionedSchema.Type] = [ReliabilityV1.self, ReliabilityV2.self, ReliabilityV3.self]
    static let stages: [MigrationStage] = [
        .custom(
            fromVersion: ReliabilityV1.self, toVersion: ReliabilityV2.self,
            willMigrate: { _ in
                DriverHold.holdIfAsked(at: .start)
            }, didMigrate: nil),
        .custom(
            fromVersion: ReliabilityV2.self, toVersion: ReliabilityV3.self, willMigrate: nil,
            didMigrate: { context in
                try context.forEach("Item", batchSize: 2000) { item in
                    let name: String = try item.value("name")
                    let amount: Double = try item.value("amount")
                    try context.update("Item", id: item.id, values: ["score": name.utf8.count * 1000 + Int(amount)])
                }
                DriverHold.holdIfAsked(at: .end)
            }),
    ]
}

/// Where a migration waits, inside its transaction, when `--hold-start` or `--hold-end` asks it to.
enum DriverHold {
    enum Point: String {
        case start = "--hold-start"
        case end = "--hold-end"
    }

    /// Prints `holding start` (or `end`) and sleeps the seconds given on the command line.
    static func holdIfAsked(at point: Point) {
        let arguments = ProcessInfo.processInfo.arguments
        guard let index = arguments.firstIndex(of: point.rawValue), index + 1 < arguments.count,
            let seconds = Double(arguments[index + 1])
        else { return }
        DriverOutput.line("holding \(point == .start ? "start" : "end")")
        Thread.sleep(forTimeInterval: seconds)
    }
}
