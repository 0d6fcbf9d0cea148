import Foundation

@testable import SchemaMigrations

/// A blog of three versions with views (one over another), triggers and an FTS5 table, each
/// version changing them as an application's releases would.
enum BlogObjects {
    typealias A = PlanBuilder

    static let author = Schema.Entity(name: "Author", attributes: [A.attribute("name", .string)])
    static let audit = Schema.Entity(name: "Audit", attributes: [A.attribute("note", .string)])
    static func post(score: Schema.ValueType) -> Schema.Entity {
        Schema.Entity(
            name: "Post",
            attributes: [A.attribute("title", .string), A.attribute("author", .integer), A.attribute("score", score)])
    }

    static let postCount = Schema.SQLObject.view(
        "CREATE VIEW PostCount AS SELECT author, count(*) AS posts FROM Post GROUP BY author")
    static let topAuthors = Schema.SQLObject.view(
        "CREATE VIEW TopAuthors AS SELECT author FROM PostCount WHERE posts > 1")
    static let audited = Schema.SQLObject.trigger(
        "CREATE TRIGGER Post_audit AFTER INSERT ON Post BEGIN INSERT INTO Audit (note) VALUES ('post ' || NEW.title); END"
    )
    static let text = Schema.SQLObject.virtualTable("CREATE VIRTUAL TABLE PostText USING fts5(title, body)")

    /// Post, its count per author, the authors with more than one, an audit trigger, its text.
    static let v1 = Schema(
        version: Schema.Version(1, 0, 0), entities: [author, audit, post(score: .integer)],
        sqlObjects: [postCount, topAuthors, audited, text])

    /// `score` becomes REAL (Post is rebuilt); PostCount sums it (TopAuthors reads it: made
    /// again); the audit trigger says more; PostText gets a `tags` column; a new trigger fills it.
    static let v2 = Schema(
        version: Schema.Version(2, 0, 0), entities: [author, audit, post(score: .double)],
        sqlObjects: [
            .view(
                "CREATE VIEW PostCount AS SELECT author, count(*) AS posts, sum(score) AS score FROM Post GROUP BY author"
            ),
            topAuthors,
            .trigger(
                """
                CREATE TRIGGER Post_audit AFTER INSERT ON Post
                BEGIN
                    INSERT INTO Audit (note) VALUES ('post ' || NEW.title || ' by ' || NEW.author);
                END
                """),
            .virtualTable("CREATE VIRTUAL TABLE PostText USING fts5(title, body, tags)"),
            .trigger(
                "CREATE TRIGGER Post_text AFTER INSERT ON Post BEGIN INSERT INTO PostText (rowid, title) VALUES (NEW.id, NEW.title); END"
            ),
        ])

    /// TopAuthors, the audit trigger and the text table go; PostCount stays as in V2.
    static let v3 = Schema(
        version: Schema.Version(3, 0, 0), entities: [author, audit, post(score: .double)],
        sqlObjects: [v2.sqlObjects[0]])

    /// What a database holds, as "create equals migrate" compares it: every object of
    /// `sqlite_schema` but this package's metadata and ANALYZE's tables, by type, name and SQL as
    /// SQLite reads it (spacing, case and quoting do not count).
    static func semanticSchema(_ db: TemporaryDatabase) throws -> [String] {
        try db.connect().rows("SELECT type, name, sql FROM sqlite_schema").compactMap { row -> String? in
            guard let type = row[0].stringValue, let name = row[1].stringValue,
                !name.lowercased().hasPrefix("_schema_migrations"), !name.lowercased().hasPrefix("sqlite_")
            else { return nil }
            let sql = row[2].stringValue ?? ""
            let normalized: String
            if let kind = SQLObjectStatement(sql).kind {
                normalized = Schema.SQLObject(kind, sql).normalizedSQL
            } else {
                // `CREATE TABLE name …`: the name as SQLite reads it, however quoted (an FTS
                // module quotes its shadow tables' names as strings; a rename rewrites them).
                let tokenizer = SQLTokenizer(sql)
                let tokens = (try? tokenizer.tokens()) ?? []
                normalized =
                    tokens.count > 3
                    ? "create table \(tokenizer.name(of: tokens[2]).lowercased()) "
                        + SQLExpressionText.normalized(tokenizer.text(tokens[3].start, tokenizer.bytes.count))
                    : SQLExpressionText.normalized(sql)
            }
            return "\(type) \(name.lowercased()): \(normalized)"
        }.sorted()
    }
}
