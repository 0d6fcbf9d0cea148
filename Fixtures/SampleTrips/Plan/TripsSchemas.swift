import Foundation
import SchemaMigrations

// The SampleTrips schema from SwiftData's documentation, in three released versions: Trip with a
// cascading to-many bucketList of BucketListItem and a cascading to-one livingAccommodation.
//
// V1: trips as first shipped.
// V2: trip names become unique; a custom stage removes duplicate trips first.
// V3: `start_date` / `end_date` are renamed to `startDate` / `endDate`, optional `notes` is added,
//     and trips get a composite index for date-range lookups by name.

public enum TripsSchemaV1: VersionedSchema {
    public static let versionIdentifier = Schema.Version(1, 0, 0)
    public static let models: [any PersistentModel.Type] = [Trip.self, BucketListItem.self, LivingAccommodation.self]

    public final class Trip: PersistentModel {
        var name = ""
        var destination = ""
        var start_date = Date(timeIntervalSince1970: 0)
        var end_date = Date(timeIntervalSince1970: 0)
        @Relationship(deleteRule: .cascade, inverse: "trip") var bucketList: [BucketListItem] = []
        @Relationship(deleteRule: .cascade) var livingAccommodation: LivingAccommodation? = nil
        public init() {}
    }

    public final class BucketListItem: PersistentModel {
        var title = ""
        var details = ""
        var hasReservation = false
        var isInPlan = false
        var trip: Trip? = nil
        public init() {}
    }

    public final class LivingAccommodation: PersistentModel {
        var address = ""
        var placeName = ""
        var trip: Trip? = nil
        public init() {}
    }
}

public enum TripsSchemaV2: VersionedSchema {
    public static let versionIdentifier = Schema.Version(2, 0, 0)
    public static let models: [any PersistentModel.Type] = [Trip.self, BucketListItem.self, LivingAccommodation.self]

    public final class Trip: PersistentModel {
        @Attribute(.unique) var name = ""
        var destination = ""
        var start_date = Date(timeIntervalSince1970: 0)
        var end_date = Date(timeIntervalSince1970: 0)
        @Relationship(deleteRule: .cascade, inverse: "trip") var bucketList: [BucketListItem] = []
        @Relationship(deleteRule: .cascade) var livingAccommodation: LivingAccommodation? = nil
        public init() {}
    }

    public final class BucketListItem: PersistentModel {
        var title = ""
        var details = ""
        var hasReservation = false
        var isInPlan = false
        var trip: Trip? = nil
        public init() {}
    }

    public final class LivingAccommodation: PersistentModel {
        var address = ""
        var placeName = ""
        var trip: Trip? = nil
        public init() {}
    }
}

public enum TripsSchemaV3: VersionedSchema {
    public static let versionIdentifier = Schema.Version(3, 0, 0)
    public static let models: [any PersistentModel.Type] = [Trip.self, BucketListItem.self, LivingAccommodation.self]

    public final class Trip: PersistentModel {
        public static let indexes: [[String]] = [["name", "startDate", "endDate"]]

        @Attribute(.unique) var name = ""
        var destination = ""
        @Attribute(originalName: "start_date") var startDate = Date(timeIntervalSince1970: 0)
        @Attribute(originalName: "end_date") var endDate = Date(timeIntervalSince1970: 0)
        var notes: String? = nil
        @Transient var isSelected = false
        @Relationship(deleteRule: .cascade, inverse: "trip") var bucketList: [BucketListItem] = []
        @Relationship(deleteRule: .cascade) var livingAccommodation: LivingAccommodation? = nil
        public init() {}
    }

    public final class BucketListItem: PersistentModel {
        var title = ""
        var details = ""
        var hasReservation = false
        var isInPlan = false
        var trip: Trip? = nil
        public init() {}
    }

    public final class LivingAccommodation: PersistentModel {
        var address = ""
        var placeName = ""
        var trip: Trip? = nil
        public init() {}
    }
}

public enum TripsMigrationPlan: SchemaMigrationPlan {
    public static let name = "SampleTrips"
    public static let schemas: [any VersionedSchema.Type] = [TripsSchemaV1.self, TripsSchemaV2.self, TripsSchemaV3.self]
    public static let stages: [MigrationStage] = [
        .custom(fromVersion: TripsSchemaV1.self, toVersion: TripsSchemaV2.self, willMigrate: { context in
            // De-duplicate trips before `name` becomes unique: keep the earliest of each name.
            // Deleting through the context applies the delete rules: their bucket list items and
            // accommodation go with them (cascade), as SwiftData would do.
            try context.delete("Trip", where: "id NOT IN (SELECT min(id) FROM Trip GROUP BY name)")
        }, didMigrate: nil),
        .lightweight(fromVersion: TripsSchemaV2.self, toVersion: TripsSchemaV3.self),
    ]
}
