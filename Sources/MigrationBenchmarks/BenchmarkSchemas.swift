import Foundation
import SchemaMigrations

// The shared workload (../shared/bench): `trip` with two indexes, referenced by `bucket_item`
// (created by hand: it is not part of the plan, as a table another library owns would not be).

public enum BenchTripV1: VersionedSchema {
    public static let versionIdentifier = Schema.Version(1, 0, 0)
    public static let models: [any PersistentModel.Type] = [Trip.self]

    public final class Trip: PersistentModel {
        public static let entityName = "trip"
        public static let indexes: [[String]] = [["name"], ["start_date"]]
        var name = ""
        var destination: String? = nil
        var start_date = 0.0
        var end_date = 0.0
        var budget: Int? = nil
        var legacy_code: String? = nil
        var rating: Double? = nil
        var is_public = false
        var created_at = 0.0
        public init() {}
    }
}

/// Renames two columns, drops one, makes one non-optional with a default, adds an optional one,
/// adds a composite index: SQLite cannot make a column NOT NULL in place, so `trip` is rebuilt.
public enum BenchTripV2: VersionedSchema {
    public static let versionIdentifier = Schema.Version(2, 0, 0)
    public static let models: [any PersistentModel.Type] = [Trip.self]

    public final class Trip: PersistentModel {
        public static let entityName = "trip"
        public static let indexes: [[String]] = [["name"], ["startDate"], ["name", "startDate", "endDate"]]
        var name = ""
        var destination = ""
        @Attribute(originalName: "start_date") var startDate = 0.0
        @Attribute(originalName: "end_date") var endDate = 0.0
        var budget: Int? = nil
        var rating: Double? = nil
        var is_public = false
        var created_at = 0.0
        var notes: String? = nil
        public init() {}
    }
}

/// The same changes as V2 except `destination` stays optional: renames, a dropped column, an added
/// optional column and a composite index, all of which SQLite's `ALTER TABLE` and `CREATE INDEX`
/// reach without rebuilding `trip`.
public enum BenchTripV2Alter: VersionedSchema {
    public static let versionIdentifier = Schema.Version(2, 0, 0)
    public static let models: [any PersistentModel.Type] = [Trip.self]

    public final class Trip: PersistentModel {
        public static let entityName = "trip"
        public static let indexes: [[String]] = [["name"], ["startDate"], ["name", "startDate", "endDate"]]
        var name = ""
        var destination: String? = nil
        @Attribute(originalName: "start_date") var startDate = 0.0
        @Attribute(originalName: "end_date") var endDate = 0.0
        var budget: Int? = nil
        var rating: Double? = nil
        var is_public = false
        var created_at = 0.0
        var notes: String? = nil
        public init() {}
    }
}

/// Adds one optional column: O(1).
public enum BenchTripV3: VersionedSchema {
    public static let versionIdentifier = Schema.Version(3, 0, 0)
    public static let models: [any PersistentModel.Type] = [Trip.self]

    public final class Trip: PersistentModel {
        public static let entityName = "trip"
        public static let indexes: [[String]] = [["name"], ["startDate"], ["name", "startDate", "endDate"]]
        var name = ""
        var destination = ""
        @Attribute(originalName: "start_date") var startDate = 0.0
        @Attribute(originalName: "end_date") var endDate = 0.0
        var budget: Int? = nil
        var rating: Double? = nil
        var is_public = false
        var created_at = 0.0
        var notes: String? = nil
        var extra: String? = nil
        public init() {}
    }
}

public enum BenchPlan: SchemaMigrationPlan {
    public static let name = "bench"
    public static let schemas: [any VersionedSchema.Type] = [BenchTripV1.self, BenchTripV2.self, BenchTripV3.self]
}

/// V1 → V2 where no change needs a rebuild (the same database file and plan name as ``BenchPlan``).
public enum BenchAlterPlan: SchemaMigrationPlan {
    public static let name = "bench"
    public static let schemas: [any VersionedSchema.Type] = [BenchTripV1.self, BenchTripV2Alter.self]
}

/// V2 → V3 as a custom stage that fills the new column from two others through the data API,
/// one row at a time: a million rows enumerated and updated in constant memory. Reads the two
/// properties it uses (`properties:`), as the documentation advises for a loop over a wide table.
public enum BenchCustomPlan: SchemaMigrationPlan {
    public static let name = "bench"
    public static let schemas: [any VersionedSchema.Type] = [BenchTripV1.self, BenchTripV2.self, BenchTripV3.self]
    public static let stages: [MigrationStage] = [
        .custom(
            fromVersion: BenchTripV2.self, toVersion: BenchTripV3.self, willMigrate: nil,
            didMigrate: { context in
                try fillExtra(context, properties: ["name", "budget"])
            })
    ]

    static func fillExtra(_ context: MigrationContext, properties: [String]?) throws {
        try context.forEach("trip", properties: properties) { row in
            let name: String = try row.value("name")
            let budget: Int? = try row.value("budget")
            try context.update("trip", id: row.id, values: ["extra": "\(name) / \(budget ?? 0)"])
        }
    }
}

/// The same stage reading every property of each row (no `properties:`).
public enum BenchCustomPlanEveryProperty: SchemaMigrationPlan {
    public static let name = "bench"
    public static let schemas: [any VersionedSchema.Type] = [BenchTripV1.self, BenchTripV2.self, BenchTripV3.self]
    public static let stages: [MigrationStage] = [
        .custom(
            fromVersion: BenchTripV2.self, toVersion: BenchTripV3.self, willMigrate: nil,
            didMigrate: { context in
                try BenchCustomPlan.fillExtra(context, properties: nil)
            })
    ]
}
