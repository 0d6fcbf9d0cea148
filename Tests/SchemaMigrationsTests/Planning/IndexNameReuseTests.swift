import Foundation
import Testing

@testable import SchemaMigrations

/// Index names are the whole database's: a stage may give a name one table's index frees to an
/// index of another table, built before the first table is rebuilt.
@Suite struct IndexNameReuseTests {
    typealias A = PlanBuilder

    @Test func aNameAnotherTableFreesIsTakenInTheSameStage() throws {
        let v1 = A.schema(
            1,
            [
                Schema.Entity(name: "Bird", attributes: [A.attribute("wing", .integer)]),
                Schema.Entity(
                    name: "Trip", attributes: [A.attribute("day", .integer)],
                    indexes: [Schema.Index(["day"], name: "by_day"), Schema.Index(["day"], name: "by_day_again")]),
            ])
        // Bird, rebuilt first (a type change), takes the name `by_day`; Trip, renamed Journey, keeps
        // its two indexes under other names (a rebuild too).
        let v2 = A.schema(
            2,
            [
                Schema.Entity(
                    name: "Bird", attributes: [A.attribute("wing", .double)],
                    indexes: [Schema.Index(["wing"], name: "by_day")]),
                Schema.Entity(
                    name: "Journey", originalName: "Trip", attributes: [A.attribute("day", .integer)],
                    indexes: [
                        Schema.Index(["day"], name: "journey_day"), Schema.Index(["day"], name: "journey_day_again"),
                    ]),
            ])
        let db = TemporaryDatabase()
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute("INSERT INTO Bird (wing) VALUES (2); INSERT INTO Trip (day) VALUES (5), (6)")
        try A.migrator([v1, v2]).migrate(databaseAt: db.url)
        let indexes = "SELECT name, tbl_name FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL ORDER BY name"
        let found = try db.rows(indexes)
        #expect(
            found == [
                ["'by_day'", "'Bird'"], ["'journey_day'", "'Journey'"], ["'journey_day_again'", "'Journey'"],
            ], "\(found)")
        #expect(try db.rows("SELECT day FROM Journey ORDER BY day") == [["5"], ["6"]])
        let created = TemporaryDatabase()
        try A.migrator([v1, v2]).migrate(databaseAt: created.url)
        let (fresh, migrated) = (try SemanticSchema.lines(created.path), try SemanticSchema.lines(db.path))
        #expect(fresh == migrated, "\(SemanticSchema.difference(fresh, migrated))")
    }
}
