import Foundation
import Testing

@testable import SchemaMigrations

extension Reliability.Regressions {
    /// Found by the property-based migrations: a stage that renames an attribute and drops an
    /// index over it looked the index up by its new column names before the rename had run, found
    /// nothing, and dropped a made-up name: "no such index", and the whole migration refused.
    @Test func droppingAnIndexOverARenamedAttribute() throws {
        let scratch = Scratch("regression")
        let url = scratch.url("db.sqlite")
        let v1 = Schema(
            version: Schema.Version(1, 0, 0),
            entities: [
                Schema.Entity(
                    name: "e1", attributes: [Schema.Attribute(name: "c2", valueType: .integer)],
                    indexes: [Schema.Index(["c2"])])
            ])
        let v2 = Schema(
            version: Schema.Version(2, 0, 0),
            entities: [
                Schema.Entity(
                    name: "e1", attributes: [Schema.Attribute(name: "c3", valueType: .integer, originalName: "c2")])
            ])
        try Migrator(resolvedPlan: try ResolvedPlan(name: "default", schemas: [v1], stages: [])).migrate(
            databaseAt: url)
        try SQLiteConnection(path: url.path).execute("INSERT INTO e1 (c2) VALUES (7)")
        let plan = try ResolvedPlan(name: "default", schemas: [v1, v2], stages: [])
        let result = try Migrator(resolvedPlan: plan).migrate(databaseAt: url)
        #expect(result.stages[0].steps.map(\.op) == [.dropIndex, .renameColumn])
        let db = try SQLiteConnection(path: url.path)
        #expect(try db.rows("SELECT c3 FROM e1") == [[.integer(7)]])
        #expect(
            try db.scalar("SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND name NOT LIKE 'sqlite_%'")?
                .int64Value == 0)
    }
}
