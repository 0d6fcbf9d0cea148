import Foundation
import SchemaMigrations
import SchemaMigrationsTesting

enum Status: String, Codable, Sendable { case planned, done }
struct Budget: Codable, Sendable {
    var amount: Decimal
    var currency: String
}

enum AppSchemaV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static let models: [any PersistentModel.Type] = [Trip.self]

    final class Trip: PersistentModel {
        static let indexes: [[String]] = [["name"]]
        var name = ""
        var start_date = Date.distantPast
        var status = Status.planned
        init() {}
    }
}

enum AppSchemaV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static let models: [any PersistentModel.Type] = [Trip.self, Traveler.self]

    /// A table with its own UUID key, a snake_case column with its SQL type, and a foreign key onto it.
    final class Traveler: PersistentModel {
        @Attribute(.primaryKey) var id: UUID
        @Attribute(column: "display_name", sqlType: "VARCHAR(80)") var displayName = ""
        @Attribute(column: "companion_id", references: .to(Traveler.self, onDelete: .setNull)) var companionID: UUID? =
            nil
        init() {}
    }

    final class Trip: PersistentModel {
        static let indexes: [[String]] = [["name", "startDate"]]
        static let uniqueness: [[String]] = [["name", "startDate"]]
        @Attribute(.unique) var name = ""
        @Attribute(originalName: "start_date") var startDate = Date.distantPast
        var status = Status.planned
        var budget: Budget? = nil
        @Attribute var rating: Int
        @Transient var isSelected = false
        init() {}
    }
}

/// Release 3 no longer uses `budget` (a rolling deploy's expand/contract), and declares its way back.
enum AppSchemaV3: VersionedSchema {
    static let versionIdentifier = Schema.Version(3, 0, 0)
    static let models: [any PersistentModel.Type] = [Trip.self]

    final class Trip: PersistentModel {
        @Attribute(.unique) var name = ""
        var startDate = Date.distantPast
        var status = Status.planned
        @Attribute(.retired) var budget: Budget? = nil
        @Attribute var rating: Int
        var notes: String? = nil
        init() {}
    }
}

enum AppMigrationPlan: SchemaMigrationPlan {
    static let name = "consumer"
    static let schemas: [any VersionedSchema.Type] = [AppSchemaV1.self, AppSchemaV2.self, AppSchemaV3.self]
    static let stages: [MigrationStage] = [
        .custom(
            fromVersion: AppSchemaV1.self, toVersion: AppSchemaV2.self,
            willMigrate: { context in try context.execute("DELETE FROM Trip WHERE name = ''") },
            didMigrate: { context in
                try context.execute("UPDATE Trip SET rating = 3")
                // The data API, its inlinable typed read included, from another module.
                try context.forEach("Trip", properties: ["name"]) { trip in
                    let name: String = try trip.value("name")
                    try context.update("Trip", id: trip.id, values: ["rating": min(name.count, 5)])
                }
            }),
        // A custom stage that declares its way back (apply --to 2.0.0, migrate revert).
        .custom(
            fromVersion: AppSchemaV2.self, toVersion: AppSchemaV3.self, willMigrate: nil,
            didMigrate: { context in try context.execute("UPDATE Trip SET notes = 'kept'") },
            reverseWillMigrate: { context in try context.execute("UPDATE Trip SET notes = NULL") },
            reverseDidMigrate: nil),
    ]
}

/// The app's SQL environment: a collation, a function, and a raw hook, all Sendable.
let appSQL = SQLEnvironment(
    collations: [
        SQLCollation("unicase") { lhs, rhs in
            lhs.lowercased() == rhs.lowercased()
                ? .orderedSame : lhs.lowercased() < rhs.lowercased() ? .orderedAscending : .orderedDescending
        }
    ],
    functions: [
        SQLFunction("initials", argumentCount: 1) { arguments in
            guard case .text(let text) = arguments[0] else { return .null }
            return .text(String(text.split(separator: " ").compactMap(\.first)))
        }
    ],
    prepareConnection: { handle in _ = handle })

let url = URL(fileURLWithPath: CommandLine.arguments.dropFirst().first ?? NSTemporaryDirectory() + "consumer.sqlite")
let migrator = Migrator(
    plan: AppMigrationPlan.self, options: MigrationOptions(progress: { print("  \($0)") }, sqlEnvironment: appSQL))
Task {
    // A migrator is Sendable: it can be used from any task.
    let result = try migrator.migrate(databaseAt: url)
    print(result.outcome.rawValue, result.toVersion)
}
let result = try migrator.migrate(databaseAt: url)
print(result.outcome.rawValue, result.toVersion)

// The testing library from a user's module: every upgrade path, validated.
let tester = MigrationTester(plan: AppMigrationPlan.self, options: MigrationOptions(sqlEnvironment: appSQL))
for path in try tester.upgradePaths() {
    let database = try tester.database(at: path.from)
    try database.migrate(to: path.to)
    try database.validate()
    print("validated", path)
}
