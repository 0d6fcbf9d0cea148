import Foundation
import Testing

@testable import SchemaMigrations

/// The dry run in every format shows the statements the migration runs, in the order it runs them:
/// a custom stage's finalizing rebuild (the NOT NULL its `didMigrate` filled) rendered against the
/// schema the stage's first steps left, numbered after `didMigrate`, and the views and triggers a
/// rebuild sets aside and recreates shown where they run. Compared with the statements the
/// executor runs, recorded by `plan --format sql`'s rehearsal.
@Suite struct DryRunWalkTests {
    typealias A = PlanBuilder

    static let fill = "UPDATE Post SET slug = lower(heading)"

    static var post: Schema.Entity {
        Schema.Entity(
            name: "Post",
            attributes: [A.attribute("title", .string), A.attribute("score", .integer), A.attribute("body", .string)])
    }
    /// V2: `score` Int → Double, `body` dropped, a required `slug` the custom stage fills, `heading` renamed from `title`.
    static var postV2: Schema.Entity {
        Schema.Entity(
            name: "Post",
            attributes: [
                A.attribute("heading", .string, originalName: "title"), A.attribute("score", .double),
                A.attribute("slug", .string),
            ],
            indexes: [Schema.Index(["slug"])])
    }

    static func database() throws -> TemporaryDatabase {
        let db = TemporaryDatabase()
        try A.migrator([A.schema(1, [post])]).migrate(databaseAt: db.url)
        try db.execute(
            """
            INSERT INTO Post (title, score, body) VALUES ('Hello', 3, 'x'), ('World', 5, 'y');
            CREATE VIEW recent AS SELECT id, score FROM Post;
            CREATE TABLE PostCount (n INTEGER);
            CREATE TRIGGER post_added AFTER INSERT ON Post BEGIN UPDATE PostCount SET n = n + 1; END;
            """)
        return db
    }

    static func migrator() throws -> Migrator {
        try A.migrator(
            [A.schema(1, [post]), A.schema(2, [postV2])], kind: .custom,
            didMigrate: { context in try context.execute(Self.fill) })
    }

    /// What the executor runs for the stage's steps, with a mark where didMigrate ran: the script's
    /// statements without the custom code's own and the version's record.
    static func executed(_ script: MigrationScript) -> [String] {
        var result: [String] = []
        for (index, sql) in script.statements.enumerated() {
            if script.notes[index]?.contains(where: { $0.contains("didMigrate") }) == true {
                result.append("-- didMigrate runs")
            }
            // The custom code's own statement, the version's record, and the journal-mode read
            // before the stage: not the steps'.
            if sql == fill || sql.contains(SQL.quoteIdentifier(TableNames.metadata)) || sql.hasPrefix("PRAGMA ") {
                continue
            }
            result.append(sql)
        }
        return result
    }

    @Test func everyFormatShowsTheStatementsTheMigrationRunsInItsOrder() throws {
        let db = try Self.database()
        let migrator = try Self.migrator()
        let report = try migrator.plan(databaseAt: db.url)
        #expect(report.refusals.isEmpty)
        let stage = try #require(report.stages.first)
        var reported: [String] = []
        for (index, step) in stage.steps.enumerated() {
            if step.runsAfterDidMigrate && (index == 0 || !stage.steps[index - 1].runsAfterDidMigrate) {
                reported.append("-- didMigrate runs")
            }
            reported += step.sql
        }
        let executed = Self.executed(try migrator.script(databaseAt: db.url))
        #expect(reported == executed)
        // The finalizing rebuild is rendered from the table the first steps left: REAL score, slug.
        let finalizing = try #require(stage.steps.last { $0.runsAfterDidMigrate && $0.step.op == .rebuildTable })
        let create = try #require(finalizing.sql.first { $0.hasPrefix("CREATE TABLE") })
        #expect(create.contains("\"score\" REAL NOT NULL"), "\(create)")
        #expect(create.contains("\"slug\" TEXT NOT NULL"), "\(create)")
        #expect(finalizing.sql.contains { $0.contains("INSERT OR ABORT INTO") && $0.contains("\"slug\"") })

        // Text and Markdown number didMigrate between the steps and the finalizing ones.
        let text = report.description.split(separator: "\n").map(String.init)
        let code = try #require(text.firstIndex { $0.contains("didMigrate runs") })
        let last = try #require(text.lastIndex { $0.contains(". Rebuild table Post") })
        #expect(code < last)
        let numbers = text.compactMap { line -> Int? in
            let trimmed = line.drop { $0 == " " }
            guard let dot = trimmed.firstIndex(of: "."), let number = Int(trimmed[..<dot]) else { return nil }
            return number
        }
        #expect(numbers == Array(0..<numbers.count), "numbered in order: \(text)")
        let markdown = report.markdown
        let sqlBlock = try #require(markdown.range(of: "```sql\n"))
        let markdownSQL = markdown[sqlBlock.upperBound...].prefix { _ in true }.split(separator: "\n").prefix {
            !$0.hasPrefix("```")
        }.map { $0.hasSuffix(";") ? String($0.dropLast()) : String($0) }
        #expect(markdownSQL == executed)

        // JSON marks the steps after didMigrate.
        let json = try JSONSerialization.jsonObject(with: Data(try report.json().utf8)) as? [String: Any]
        let steps = ((json?["stages"] as? [[String: Any]])?.first?["steps"] as? [[String: Any]]) ?? []
        #expect(steps.map { $0["afterDidMigrate"] as? Bool ?? false } == stage.steps.map(\.runsAfterDidMigrate))
        #expect(steps.flatMap { $0["sql"] as? [String] ?? [] } == executed.filter { $0 != "-- didMigrate runs" })

        try migrator.migrate(databaseAt: db.url)
        #expect(
            try db.rows("SELECT heading, score, slug FROM Post ORDER BY id") == [
                ["'Hello'", "3.0", "'hello'"], ["'World'", "5.0", "'world'"],
            ])
    }

    /// Pending stages after the first are shown from the schema the ones before them leave.
    @Test func aLaterStageIsShownFromTheSchemaTheEarlierOnesLeave() throws {
        let db = try Self.database()
        var v2 = Self.postV2
        v2.attributes[2] = A.attribute("slug", .string, default: "''")
        var v3 = v2
        v3.attributes[1] = A.attribute("score", .double, default: "0")
        v3.attributes.append(A.attribute("rank", .integer, optional: true))
        let migrator = try A.migrator([A.schema(1, [Self.post]), A.schema(2, [v2]), A.schema(3, [v3])])
        let report = try migrator.plan(databaseAt: db.url)
        let executed = Self.executed(try migrator.script(databaseAt: db.url))
        #expect(report.stages.flatMap { $0.steps.flatMap(\.sql) } == executed)
    }
}
