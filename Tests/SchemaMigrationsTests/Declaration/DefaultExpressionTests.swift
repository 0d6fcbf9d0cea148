import Foundation
import Testing

@testable import SchemaMigrations

/// Defaults written as SQL (`CURRENT_TIMESTAMP`, `(datetime('now'))`): declared, compared, and
/// added to a table with rows, which SQLite's `ADD COLUMN` cannot do.
@Suite struct DefaultExpressionTests {
    enum V1: VersionedSchema {
        static let versionIdentifier = Schema.Version(1, 0, 0)
        static let models: [any PersistentModel.Type] = [Entry.self]
        final class Entry: PersistentModel {
            @Attribute var title: String
            @Attribute(column: "created_at", defaultExpression: "CURRENT_TIMESTAMP") var createdAt = ""
            init() {}
        }
    }

    enum V2: VersionedSchema {
        static let versionIdentifier = Schema.Version(2, 0, 0)
        static let models: [any PersistentModel.Type] = [Entry.self]
        final class Entry: PersistentModel {
            @Attribute var title: String
            @Attribute(column: "created_at", defaultExpression: "CURRENT_TIMESTAMP") var createdAt = ""
            @Attribute(column: "seen_on", defaultExpression: "(date('now'))") var seenOn = ""
            init() {}
        }
    }

    enum TwoExpressions: VersionedSchema {
        static let versionIdentifier = Schema.Version(1, 0, 0)
        static let models: [any PersistentModel.Type] = [Entry.self]
        final class Entry: PersistentModel {
            @Attribute(defaultExpression: "(1) + (2)") var total = 0
            init() {}
        }
    }

    @Test func theExpressionIsTheColumnsDefaultAndMatchesAHandMadeTable() throws {
        let entry = try #require(try Schema(V1.self).entity(named: "Entry"))
        #expect(entry.attribute(named: "created_at")?.defaultValue == "CURRENT_TIMESTAMP")
        let db = TemporaryDatabase()
        try db.execute(
            "CREATE TABLE Entry (id INTEGER PRIMARY KEY, title TEXT NOT NULL, created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP)"
        )
        #expect(
            SchemaComparison(checksDefaults: true).differences(
                declared: try Schema(V1.self), live: try LiveSchema.read(from: db.connect())) == [])
    }

    @Test func aColumnWithAnExpressionDefaultIsAddedToATableWithRows() throws {
        let db = TemporaryDatabase()
        try db.execute(
            """
            CREATE TABLE Entry (id INTEGER PRIMARY KEY, title TEXT NOT NULL, created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP);
            INSERT INTO Entry (title, created_at) VALUES ('one', '2020-01-01 00:00:00'), ('two', '2021-01-01 00:00:00');
            """)
        let report = try PlanBuilder.migrator([Schema(V1.self), Schema(V2.self)]).plan(databaseAt: db.url)
        #expect(
            report.stages.flatMap(\.steps).map(\.step.summary).contains {
                $0.contains("add seen_on with the default (date('now')) (SQLite's ADD COLUMN needs a constant default)")
            })
        try PlanBuilder.migrator([Schema(V1.self), Schema(V2.self)]).migrate(databaseAt: db.url)
        #expect(
            try db.rows("SELECT title, created_at, seen_on = date('now') FROM Entry ORDER BY id") == [
                ["'one'", "'2020-01-01 00:00:00'", "1"], ["'two'", "'2021-01-01 00:00:00'", "1"],
            ])
        #expect(try db.columns("Entry")["seen_on"] == "TEXT NOT NULL DEFAULT date('now')")  // as the pragma reports it
        #expect(
            try PlanBuilder.migrator([Schema(V1.self), Schema(V2.self)]).verify(databaseAt: db.url).currentVersion
                == Schema.Version(2, 0, 0))
    }

    @Test func aDefaultThatIsNotOneParenthesisedExpressionIsRefused() throws {
        let error = try #require(throws: MigrationError.self) { try Schema(TwoExpressions.self) }
        #expect(error.message == "the default of 'Entry.total' is not one SQL literal: (1) + (2)")
    }
}
