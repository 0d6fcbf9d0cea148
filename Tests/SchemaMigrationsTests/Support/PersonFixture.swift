import Foundation
import Testing

@testable import SchemaMigrations

/// The `Person` table most change-kind, refusal, execution and reporting tests start from:
/// name TEXT NOT NULL DEFAULT '', age INTEGER, email TEXT, an index on name, and three rows.
enum PersonFixture {
    typealias A = PlanBuilder

    static let person = Schema.Entity(
        name: "Person",
        attributes: [
            A.attribute("name", .string, default: "''"),
            A.attribute("age", .integer, optional: true),
            A.attribute("email", .string, optional: true),
        ], indexes: [Schema.Index(["name"])])

    /// Ada (36, an email), Alan (no age, no email), Grace (85, an email).
    static let rows = """
        INSERT INTO Person (id, name, age, email) VALUES (1, 'Ada', 36, 'ada@example.com'), (2, 'Alan', NULL, NULL), (3, 'Grace', 85, 'grace@example.com');
        """

    /// `person` changed by `change`.
    static func person(_ change: (inout Schema.Entity) -> Void) -> Schema.Entity {
        var entity = person
        change(&entity)
        return entity
    }

    /// Creates `Person` at V1 with three rows, migrates to `target` at V2, and returns the database.
    static func migrate(
        to target: [Schema.Entity], source: [Schema.Entity] = [person], rows: String = rows,
        kind: StageKind = .lightweight, planner capabilities: SQLiteCapabilities? = nil
    ) throws -> (TemporaryDatabase, MigrationResult) {
        let db = TemporaryDatabase()
        let v1 = A.schema(1, source)
        let v2 = A.schema(2, target)
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute(rows)
        let result = try A.migrator([v1, v2], kind: kind).migrate(databaseAt: db.url)
        #expect(try db.recordedVersion() == "2.0.0")
        return (db, result)
    }
}
