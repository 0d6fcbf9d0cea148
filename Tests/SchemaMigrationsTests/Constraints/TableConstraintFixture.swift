import Foundation

@testable import SchemaMigrations

/// A trip planner whose tables hold what real schemas do beside their columns: a named table
/// CHECK over two columns, a composite key referenced by a composite foreign key with every
/// clause, and a UNIQUE table constraint; and a second version that changes each of them.
enum TripConstraints {
    enum V1: VersionedSchema {
        static let versionIdentifier = Schema.Version(1, 0, 0)
        static let models: [any PersistentModel.Type] = [Trip.self, Day.self, Stop.self]

        final class Trip: PersistentModel {
            static let constraints: [Schema.TableConstraint] = [
                .check("endDay >= startDay", name: "days_in_order")
            ]
            var name = ""
            var startDay = 0
            var endDay = 0
            init() {}
        }

        final class Day: PersistentModel {
            static let primaryKey: [String]? = ["tripID", "number"]
            static let withoutRowID = true
            @Attribute(column: "trip_id") var tripID = 0
            var number = 0
            var title = ""
            init() {}
        }

        final class Stop: PersistentModel {
            static let constraints: [Schema.TableConstraint] = [
                .foreignKey(
                    ["tripID", "day"], references: "Day", columns: ["trip_id", "number"], onUpdate: .cascade,
                    match: "SIMPLE", deferrable: .initiallyDeferred),
                .unique(["tripID", "place"], name: "one_visit_per_place"),
            ]
            @Attribute(column: "trip_id") var tripID = 0
            var day = 0
            var place = ""
            init() {}
        }
    }

    /// The CHECK is tightened, the key cascades deletes, `place` is renamed `location` (the
    /// UNIQUE follows the rename), and a CHECK over it is new.
    enum V2: VersionedSchema {
        static let versionIdentifier = Schema.Version(2, 0, 0)
        static let models: [any PersistentModel.Type] = [Trip.self, V1.Day.self, Stop.self]

        final class Trip: PersistentModel {
            static let constraints: [Schema.TableConstraint] = [
                .check("endDay >= startDay AND endDay - startDay < 366", name: "days_in_order")
            ]
            var name = ""
            var startDay = 0
            var endDay = 0
            init() {}
        }

        final class Stop: PersistentModel {
            static let constraints: [Schema.TableConstraint] = [
                .foreignKey(
                    ["tripID", "day"], references: "Day", columns: ["trip_id", "number"], onDelete: .cascade,
                    onUpdate: .cascade, match: "SIMPLE", deferrable: .initiallyDeferred),
                .unique(["tripID", "location"], name: "one_visit_per_place"),
                .check("length(location) > 0"),
            ]
            @Attribute(column: "trip_id") var tripID = 0
            var day = 0
            @Attribute(originalName: "place") var location = ""
            init() {}
        }
    }

    enum Plan: SchemaMigrationPlan {
        static let schemas: [any VersionedSchema.Type] = [V1.self, V2.self]
    }

    enum PlanV1: SchemaMigrationPlan {
        static let schemas: [any VersionedSchema.Type] = [V1.self]
    }

    /// Two trips, their days, three stops.
    static func fill(_ db: TemporaryDatabase) throws {
        try db.execute(
            """
            INSERT INTO Trip (name, startDay, endDay) VALUES ('coast', 1, 3), ('alps', 10, 12);
            INSERT INTO Day (trip_id, number, title) VALUES (1, 1, 'arrive'), (1, 2, 'walk'), (2, 10, 'climb');
            INSERT INTO Stop (trip_id, day, place) VALUES (1, 1, 'harbour'), (1, 2, 'cliffs'), (2, 10, 'hut');
            """)
    }
}
