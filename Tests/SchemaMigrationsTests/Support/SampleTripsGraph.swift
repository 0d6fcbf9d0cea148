import Foundation
import SchemaMigrations

// Apple's SampleTrips shape: Trip with a cascading to-many bucketList and a cascading to-one
// livingAccommodation. V2 renames Trip's dates and adds the composite index and uniqueness.

enum GraphV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static let models: [any PersistentModel.Type] = [Trip.self, BucketListItem.self, LivingAccommodation.self]

    final class Trip: PersistentModel {
        var name = ""
        var destination = ""
        var start_date = Date(timeIntervalSince1970: 0)
        var end_date = Date(timeIntervalSince1970: 0)
        @Relationship(deleteRule: .cascade, inverse: "trip") var bucketList: [BucketListItem] = []
        @Relationship(deleteRule: .cascade) var livingAccommodation: LivingAccommodation? = nil
        init() {}
    }

    final class BucketListItem: PersistentModel {
        var title = ""
        var details = ""
        var hasReservation = false
        var isInPlan = false
        var trip: Trip? = nil
        init() {}
    }

    final class LivingAccommodation: PersistentModel {
        var address = ""
        var placeName = ""
        var trip: Trip? = nil
        init() {}
    }
}

enum GraphV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static let models: [any PersistentModel.Type] = [Trip.self, BucketListItem.self, LivingAccommodation.self]

    final class Trip: PersistentModel {
        static let indexes: [[String]] = [["name", "startDate", "endDate"]]
        static let uniqueness: [[String]] = [["name", "startDate", "endDate"]]
        var name = ""
        var destination = ""
        @Attribute(originalName: "start_date") var startDate = Date(timeIntervalSince1970: 0)
        @Attribute(originalName: "end_date") var endDate = Date(timeIntervalSince1970: 0)
        @Relationship(deleteRule: .cascade, inverse: "trip") var bucketList: [BucketListItem] = []
        @Relationship(deleteRule: .cascade) var livingAccommodation: LivingAccommodation? = nil
        init() {}
    }

    final class BucketListItem: PersistentModel {
        var title = ""
        var details = ""
        var hasReservation = false
        var isInPlan = false
        var trip: Trip? = nil
        init() {}
    }

    final class LivingAccommodation: PersistentModel {
        var address = ""
        var placeName = ""
        var trip: Trip? = nil
        init() {}
    }
}

enum GraphPlan: SchemaMigrationPlan {
    static let schemas: [any VersionedSchema.Type] = [GraphV1.self, GraphV2.self]
}
