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

    /// A retired index whose name another table takes is dropped before the renames; the rebuild of
    /// its table then retires nothing more, so the application's own index over the same columns
    /// stays (it was taken for the retired one and dropped). Found by the property family (two
    /// tables swapped, an application index named `_SM_TMP_1`): "index _SM_TMP_1 is gone".
    @Test func anIndexDroppedFirstLeavesTheApplicationsIndexOfItsColumns() throws {
        let v1 = A.schema(
            1,
            [
                Schema.Entity(name: "Bird", attributes: [A.attribute("wing", .integer)]),
                Schema.Entity(
                    name: "Trip", attributes: [A.attribute("day", .integer, default: "0")],
                    indexes: [Schema.Index(["day"], name: "by_day")]),
            ])
        // Bird takes the name `by_day`; Trip no longer declares it and is rebuilt (a default change).
        let v2 = A.schema(
            2,
            [
                Schema.Entity(
                    name: "Bird", attributes: [A.attribute("wing", .integer)],
                    indexes: [Schema.Index(["wing"], name: "by_day")]),
                Schema.Entity(name: "Trip", attributes: [A.attribute("day", .integer, default: "1")]),
            ])
        let db = TemporaryDatabase()
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute("CREATE INDEX app_day ON Trip (day); INSERT INTO Trip (day) VALUES (5), (6)")
        try A.migrator([v1, v2]).migrate(databaseAt: db.url)
        let found = try db.rows(
            "SELECT name, tbl_name FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL ORDER BY name")
        #expect(found == [["'app_day'", "'Trip'"], ["'by_day'", "'Bird'"]], "\(found)")
    }

    /// A table whose version keeps an index without naming it keeps its live name, unless another
    /// table's declaration takes that name in the same version: the kept index then goes under
    /// its default name. Found by the property family (two tables swapped, one's named index
    /// matched by the other's unnamed one): "index pd_e5 already exists".
    @Test func anUnnamedIndexGivesUpALiveNameAnotherTableDeclares() throws {
        let v1 = A.schema(
            1,
            [
                Schema.Entity(name: "Bird", attributes: [A.attribute("wing", .integer)]),
                Schema.Entity(
                    name: "Trip", attributes: [A.attribute("day", .integer)],
                    indexes: [Schema.Index(["day"], name: "by_day")]),
            ])
        let v2 = A.schema(
            2,
            [
                Schema.Entity(
                    name: "Bird", attributes: [A.attribute("wing", .double)],
                    indexes: [Schema.Index(["wing"], name: "by_day")]),
                Schema.Entity(
                    name: "Trip", attributes: [A.attribute("day", .integer)], indexes: [Schema.Index(["day"])]),
            ])
        let db = TemporaryDatabase()
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute("INSERT INTO Bird (wing) VALUES (2); INSERT INTO Trip (day) VALUES (5), (6)")
        try A.migrator([v1, v2]).migrate(databaseAt: db.url)
        let indexes = "SELECT name, tbl_name FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL ORDER BY name"
        #expect(try db.rows(indexes) == [["'Trip_day'", "'Trip'"], ["'by_day'", "'Bird'"]])
        #expect(try db.rows("SELECT day FROM Trip ORDER BY day") == [["5"], ["6"]])
        #expect(try A.migrator([v1, v2]).verify(databaseAt: db.url).isUpToDate)
        let created = TemporaryDatabase()
        try A.migrator([v1, v2]).migrate(databaseAt: created.url)
        let (fresh, migrated) = (try SemanticSchema.lines(created.path), try SemanticSchema.lines(db.path))
        #expect(fresh == migrated, "\(SemanticSchema.difference(fresh, migrated))")
    }

    /// An index a stage renames (its table renamed, the declaration named after it) is made again
    /// under its new name beside the application's own index of the same columns, which is kept
    /// too: it once stood for the declaration, and verification then failed the stage ("index
    /// journey_day(day) is named app_day"). Found by the property family.
    @Test func aRenamedIndexIsMadeBesideTheApplicationsIndexOfTheSameColumns() throws {
        let v1 = A.schema(
            1,
            [
                Schema.Entity(
                    name: "Trip",
                    attributes: [A.attribute("day", .integer), A.attribute("note", .string, optional: true)],
                    indexes: [Schema.Index(["day"], name: "trip_day")])
            ])
        let v2 = A.schema(
            2,
            [
                Schema.Entity(
                    name: "Journey", originalName: "Trip",
                    attributes: [A.attribute("day", .integer), A.attribute("note", .string, default: "''")],
                    indexes: [Schema.Index(["day"], name: "journey_day")])
            ])
        let db = TemporaryDatabase()
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute("CREATE INDEX app_day ON Trip (day); INSERT INTO Trip (day, note) VALUES (5, NULL), (6, 'x')")
        try A.migrator([v1, v2]).migrate(databaseAt: db.url)
        let indexes = "SELECT name, tbl_name FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL ORDER BY name"
        #expect(try db.rows(indexes) == [["'app_day'", "'Journey'"], ["'journey_day'", "'Journey'"]])
        #expect(try db.rows("SELECT day, note FROM Journey ORDER BY day") == [["5", "''"], ["6", "'x'"]])
        #expect(try A.migrator([v1, v2]).verify(databaseAt: db.url).isUpToDate)
    }
}
