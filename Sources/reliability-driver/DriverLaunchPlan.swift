import Foundation
import SchemaMigrations

// A one-version plan whose model starts every instance with values that differ from one launch to
// the next: the time, a fresh UUID, and a Set (whose iteration order is seeded per process).

/// V1: visits.
enum LaunchV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static let models: [any PersistentModel.Type] = [Visit.self]

    final class Visit: PersistentModel {
        var createdAt = Date()
        var token = UUID()
        var tags: Set<String> = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"]
        var note = "first"
        init() {}
    }
}

enum LaunchPlan: SchemaMigrationPlan {
    static let name = "launch"
    static let schemas: [any VersionedSchema.Type] = [LaunchV1.self]
    static let stages: [MigrationStage] = []
}

extension DriverCommands {
    /// `launch --database PATH`: what an app does at every launch with ``LaunchPlan``; prints
    /// `outcome=…`, then `hash=…` and `tags=…` (the version hash and the `tags` default as declared).
    static func launch(_ options: DriverOptions) throws {
        let url = URL(fileURLWithPath: try options.require("--database"))
        let result = try Migrator(plan: LaunchPlan.self).migrate(databaseAt: url)
        let schema = try Schema(LaunchV1.self)
        DriverOutput.line("outcome=\(result.outcome.rawValue)")
        DriverOutput.line("hash=\(schema.versionHash)")
        DriverOutput.line("tags=\(schema.entities[0].attributes.first { $0.name == "tags" }?.defaultValue ?? "none")")
    }
}
