import Foundation
import Testing

@testable import SchemaMigrations

/// The SQL a stage runs is rendered from one snapshot of the live schema, read once for the stage:
/// each read is a round trip on a cluster, and the dry run renders from one snapshot too.
@Suite struct StepRendererTests {
    typealias A = PlanBuilder

    /// V1: Trip (an index on start), Item (an index on old), Legacy, and a view over Trip.
    /// V2: Trip's start becomes NOT NULL (a rebuild), Item drops old and its index and indexes
    /// title, Legacy is dropped: a dropped index, a dropped table, a rebuild (the view set aside),
    /// a dropped column and a new index, each rendered against the live schema.
    static let v1 = A.schema(
        1,
        [
            Schema.Entity(
                name: "Trip",
                attributes: [
                    A.attribute("name", .string, default: "''"), A.attribute("start", .string, optional: true),
                ],
                indexes: [Schema.Index(["start"])]),
            Schema.Entity(
                name: "Item",
                attributes: [
                    A.attribute("title", .string, default: "''"), A.attribute("old", .string, optional: true),
                ],
                indexes: [Schema.Index(["old"])]),
            Schema.Entity(name: "Legacy", attributes: [A.attribute("x", .string, default: "''")]),
        ])
    static let v2 = A.schema(
        2,
        [
            Schema.Entity(
                name: "Trip",
                attributes: [
                    A.attribute("name", .string, default: "''"), A.attribute("start", .string, default: "''"),
                ],
                indexes: [Schema.Index(["start"])]),
            Schema.Entity(
                name: "Item", attributes: [A.attribute("title", .string, default: "''")],
                indexes: [Schema.Index(["title"])]),
        ])

    @Test(
        "A stage with a dropped index, a dropped table, a rebuild, a dropped column and a new index reads the live schema once"
    )
    func oneSnapshotPerStage() throws {
        let db = TemporaryDatabase()
        try A.migrator([Self.v1]).migrate(databaseAt: db.url)
        try db.execute(
            """
            INSERT INTO Trip (name, start) VALUES ('Porto', '2024-05-01'), ('Lyon', NULL);
            INSERT INTO Item (title, old) VALUES ('map', 'x');
            CREATE VIEW trip_names AS SELECT name FROM Trip;
            """)
        let stage = try Self.v1.migrationStage(to: Self.v2)
        #expect(stage.steps.map(\.op) == [.dropIndex, .dropTable, .rebuildTable, .dropColumn, .createIndex])

        let connection = try db.connect()
        try connection.execute("PRAGMA foreign_keys = OFF")
        let recorder = StatementRecorder()
        try connection.transaction {
            connection.startRecording(into: recorder)
            defer { connection.stopRecording() }
            try StageExecutor(db: connection, progress: nil).runSteps(
                stage.steps, from: Self.v1.version, to: Self.v2.version)
        }
        let reads = recorder.entries.filter { entry in
            guard case .statement(let sql, _) = entry else { return false }
            return sql.hasPrefix("SELECT type, name, tbl_name, sql FROM sqlite_schema")
        }
        #expect(reads.count == 1, "\(recorder.entries)")

        // Each step was rendered as the database had it when it ran: Item's old index dropped once.
        #expect(
            try db.rows("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'Item'") == [
                ["'Item_title'"]
            ])
        #expect(try db.rows("SELECT name FROM trip_names ORDER BY name") == [["'Lyon'"], ["'Porto'"]])
        #expect(try db.rows("SELECT start FROM Trip ORDER BY name") == [["''"], ["'2024-05-01'"]])
        #expect(try db.scalar("SELECT count(*) FROM sqlite_schema WHERE name = 'Legacy'") == .integer(0))
    }

    @Test("A stage's renames run before its snapshot is read: the rebuild after them renders from the renamed table")
    func renamesRunBeforeTheSnapshot() throws {
        let v1 = A.schema(
            1,
            [
                Schema.Entity(
                    name: "Trip",
                    attributes: [
                        A.attribute("name", .string, default: "''"),
                        A.attribute("start", .string, optional: true),
                    ])
            ])
        let v2 = A.schema(
            2,
            [
                Schema.Entity(
                    name: "Journey", originalName: "Trip",
                    attributes: [
                        A.attribute("title", .string, default: "''", originalName: "name"),
                        A.attribute("start", .string, default: "''"),
                    ])
            ])
        let db = TemporaryDatabase()
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute("INSERT INTO Trip (name, start) VALUES ('Porto', NULL)")
        try A.migrator([v1, v2]).migrate(databaseAt: db.url)
        #expect(try db.rows("SELECT title, start FROM Journey") == [["'Porto'", "''"]])
    }
}
