import Foundation

@testable import SchemaMigrations

/// Builds two-version plans from Schema values, to test one change kind at a time.
enum PlanBuilder {
    static func attribute(
        _ name: String, _ type: Schema.ValueType, optional: Bool = false, default value: String? = nil,
        originalName: String? = nil, hashModifier: String? = nil
    ) -> Schema.Attribute {
        Schema.Attribute(
            name: name, valueType: type, isOptional: optional, defaultValue: value, originalName: originalName,
            hashModifier: hashModifier)
    }

    static func schema(_ version: Int, _ entities: [Schema.Entity]) -> Schema {
        Schema(version: Schema.Version(version, 0, 0), entities: entities)
    }

    static func migrator(
        _ schemas: [Schema], kind: StageKind = .lightweight, name: String = "default",
        willMigrate: (@Sendable (MigrationContext) throws -> Void)? = nil,
        didMigrate: (@Sendable (MigrationContext) throws -> Void)? = nil,
        options: MigrationOptions = MigrationOptions()
    ) throws -> Migrator {
        let stages = zip(schemas, schemas.dropFirst()).map {
            PlannedStage(from: $0.version, to: $1.version, kind: kind, willMigrate: willMigrate, didMigrate: didMigrate)
        }
        return Migrator(resolvedPlan: try ResolvedPlan(name: name, schemas: schemas, stages: stages), options: options)
    }
}
