import Foundation
import Testing

@testable import SchemaMigrations

extension Reliability.Regressions {
    /// Found by the snapshot fuzzer: a default value is spliced into the SQL as a literal, so a
    /// snapshot whose default was `0); COMMIT; --` ran a COMMIT in the middle of the migration;
    /// when a later step failed, the database was left half migrated with an error. (And an
    /// `onDelete` action the same way.) Defaults must now be single SQL literals, or one expression
    /// wrapped whole in parentheses (SQLite's `DEFAULT (expr)`, checked with the tokenizer:
    /// balanced, no `;`), actions one of SQLite's five, or the plan is refused before anything runs.
    @Test(arguments: [
        "0); COMMIT; --", "0; DELETE FROM e1", "(1) + (2)", "(1", "(1)); DELETE FROM e1; --", "'open", "X'0", "abs(1)",
        "",
    ])
    func aDefaultThatIsNotOneLiteralIsRefused(defaultValue: String) throws {
        let scratch = Scratch("regression")
        let url = scratch.url("db.sqlite")
        let v1 = Schema(
            version: Schema.Version(1, 0, 0),
            entities: [
                Schema.Entity(
                    name: "e1", attributes: [Schema.Attribute(name: "c1", valueType: .integer, isOptional: true)])
            ])
        var v2 = v1
        v2.version = Schema.Version(2, 0, 0)
        v2.entities[0].attributes[0].defaultValue = defaultValue
        try Migrator(resolvedPlan: try ResolvedPlan(name: "default", schemas: [v1], stages: [])).migrate(
            databaseAt: url)
        try SQLiteConnection(path: url.path).execute("INSERT INTO e1 (c1) VALUES (NULL), (NULL)")
        let before = url.databaseBytes()
        let error = try #require(throws: MigrationError.self) {
            try Migrator(resolvedPlan: try ResolvedPlan(name: "default", schemas: [v1, v2], stages: [])).migrate(
                databaseAt: url)
        }
        #expect(error.code == .invalidSchema && error.property == "c1", "\(error)")
        #expect(url.databaseBytes() == before)
    }

    @Test(arguments: [
        "0", "-7", "+1.5", "1e10", "-9e999", "0x1F", "''", "'it''s'", "X''", "x'00ff'", "NULL", "TRUE",
        "CURRENT_TIMESTAMP", "(1)", "(datetime('now'))",
    ])
    func aDefaultThatIsOneLiteralIsAccepted(defaultValue: String) throws {
        let schema = Schema(
            version: Schema.Version(1, 0, 0),
            entities: [
                Schema.Entity(
                    name: "e1",
                    attributes: [
                        Schema.Attribute(name: "c1", valueType: .integer, isOptional: true, defaultValue: defaultValue)
                    ])
            ])
        try schema.validate()
    }

    @Test func aForeignKeyActionThatIsNotSQLitesIsRefused() throws {
        let schema = Schema(
            version: Schema.Version(1, 0, 0),
            entities: [
                Schema.Entity(
                    name: "e1",
                    attributes: [
                        Schema.Attribute(
                            name: "c1", valueType: .integer, isOptional: true,
                            references: Schema.ForeignKey(table: "e1", onDelete: "CASCADE; COMMIT; --"))
                    ])
            ])
        let error = try #require(throws: MigrationError.self) { try schema.validate() }
        #expect(error.code == .invalidSchema && error.property == "c1", "\(error)")
    }
}
