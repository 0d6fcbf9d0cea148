import Foundation
import Testing

@testable import SchemaMigrations

extension Reliability.Regressions {
    /// Found by the snapshot fuzzer: validation matched an index's columns to attributes ignoring
    /// case, but SQLite reports an index's columns as the table spells them, so an index over
    /// `Name` (attribute `name`) or `ID` was created, failed the final verification as "missing",
    /// and the whole migration rolled back with "report this as a bug". It is now refused at
    /// plan time, naming the spelling to use.
    @Test(arguments: [["Name"], ["ID"]])
    func anIndexColumnSpelledDifferentlyFromItsAttributeIsRefused(columns: [String]) throws {
        let scratch = Scratch("regression")
        let url = scratch.url("db.sqlite")
        let v1 = Schema(
            version: Schema.Version(1, 0, 0),
            entities: [
                Schema.Entity(
                    name: "e1", attributes: [Schema.Attribute(name: "name", valueType: .string, defaultValue: "''")])
            ])
        var v2 = v1
        v2.version = Schema.Version(2, 0, 0)
        v2.entities[0].indexes = [Schema.Index(columns)]
        try Migrator(resolvedPlan: try ResolvedPlan(name: "default", schemas: [v1], stages: [])).migrate(
            databaseAt: url)
        let error = try #require(throws: MigrationError.self) {
            try Migrator(resolvedPlan: try ResolvedPlan(name: "default", schemas: [v1, v2], stages: [])).migrate(
                databaseAt: url)
        }
        #expect(error.code == .invalidSchema && error.property == columns[0], "\(error)")
    }
}
