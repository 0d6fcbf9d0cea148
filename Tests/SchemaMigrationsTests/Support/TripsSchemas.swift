import Foundation
import SchemaMigrations

// The migration from SwiftData's documentation ("Model your schema with SwiftData" / WWDC23):
// V1 trips; V2 makes `name` unique after a custom stage removes duplicates; V3 renames
// `start_date` / `end_date` and adds optional `notes`.

enum TripsV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static let models: [any PersistentModel.Type] = [Trip.self]

    final class Trip: PersistentModel {
        var name = ""
        var destination = ""
        var start_date = Date(timeIntervalSince1970: 0)
        var end_date = Date(timeIntervalSince1970: 0)
        init() {}
    }
}

enum TripsV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static let models: [any PersistentModel.Type] = [Trip.self]

    final class Trip: PersistentModel {
        @Attribute(.unique) var name = ""
        var destination = ""
        var start_date = Date(timeIntervalSince1970: 0)
        var end_date = Date(timeIntervalSince1970: 0)
        init() {}
    }
}

enum TripsV3: VersionedSchema {
    static let versionIdentifier = Schema.Version(3, 0, 0)
    static let models: [any PersistentModel.Type] = [Trip.self]

    final class Trip: PersistentModel {
        @Attribute(.unique) var name = ""
        var destination = ""
        @Attribute(originalName: "start_date") var startDate = Date(timeIntervalSince1970: 0)
        @Attribute(originalName: "end_date") var endDate = Date(timeIntervalSince1970: 0)
        var notes: String? = nil
        init() {}
    }
}

enum TripsPlan: SchemaMigrationPlan {
    static let schemas: [any VersionedSchema.Type] = [TripsV1.self, TripsV2.self, TripsV3.self]
    static let stages: [MigrationStage] = [
        .custom(
            fromVersion: TripsV1.self, toVersion: TripsV2.self,
            willMigrate: { context in
                // Keep the first trip of each name.
                try context.execute("DELETE FROM Trip WHERE id NOT IN (SELECT min(id) FROM Trip GROUP BY name)")
            }, didMigrate: nil),
        .lightweight(fromVersion: TripsV2.self, toVersion: TripsV3.self),
    ]
}

/// The same versions with no custom stage: V1 → V2 is then lightweight and refuses duplicates.
enum TripsLightweightPlan: SchemaMigrationPlan {
    static let schemas: [any VersionedSchema.Type] = [TripsV1.self, TripsV2.self, TripsV3.self]
}
