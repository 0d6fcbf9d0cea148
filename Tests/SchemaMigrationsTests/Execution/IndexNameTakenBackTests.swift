import Foundation
import Testing

@testable import SchemaMigrations

/// A named index whose definition changes while an unnamed index keeps the old definition: the
/// old index, which the unnamed one continues, gives its name up (renamed to its default name)
/// so that the named one can have it, offline and online. Before, the planner kept the old
/// index under the name and created the new one beside it: `index e1_o_c2 already exists`
/// offline, a schema with two indexes of one name online.
@Suite struct IndexNameTakenBackTests {
    typealias A = PlanBuilder

    static let v1Table = Schema.Entity(
        name: "e1",
        attributes: [A.attribute("c2", .integer, default: "0"), A.attribute("c3", .string, optional: true)],
        indexes: [Schema.Index(elements: [.column("c2")], name: "e1_o_c2")])
    static let v2Table: Schema.Entity = {
        var table = v1Table
        table.attributes = [A.attribute("c2", .integer, default: "0")]
        table.indexes = [
            Schema.Index(["c2"]), Schema.Index(elements: [.column("c2", descending: true)], name: "e1_o_c2"),
        ]
        return table
    }()
    static let other = Schema.Entity(
        name: "e5",
        attributes: [A.attribute("c6", .string, optional: true), A.attribute("c9", .string, optional: true)])
    static let otherV2: Schema.Entity = {
        var table = other
        table.attributes = [A.attribute("c6", .string, optional: true)]
        return table
    }()

    @Test(arguments: [false, true])
    func theNameGoesToTheIndexThatDeclaresIt(online: Bool) throws {
        let db = TemporaryDatabase()
        let schemas = [A.schema(1, [Self.v1Table, Self.other]), A.schema(2, [Self.v2Table, Self.otherV2])]
        try A.migrator([schemas[0]]).migrate(databaseAt: db.url)
        try db.execute("INSERT INTO e1 (c2, c3) VALUES (1, 'a'), (2, NULL), (3, 'c'); INSERT INTO e5 (c6) VALUES ('a')")
        var options = MigrationOptions()
        if online { options.online = OnlineRebuildOptions() }
        let result = try A.migrator(schemas, options: options).migrate(databaseAt: db.url)
        #expect(result.toVersion == Schema.Version(2, 0, 0))
        #expect(try db.rows("PRAGMA integrity_check") == [["'ok'"]])
        #expect(
            try db.rows("SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'e1' ORDER BY name")
                == [
                    ["'e1_c2'", "'CREATE INDEX \"e1_c2\" ON \"e1\" (\"c2\")'"],
                    ["'e1_o_c2'", "'CREATE INDEX \"e1_o_c2\" ON \"e1\" (\"c2\" DESC)'"],
                ])
        #expect(try db.rows("SELECT c2 FROM e1 ORDER BY rowid") == [["1"], ["2"], ["3"]])
        #expect(try A.migrator(schemas).verify(databaseAt: db.url).isUpToDate)
    }
}
