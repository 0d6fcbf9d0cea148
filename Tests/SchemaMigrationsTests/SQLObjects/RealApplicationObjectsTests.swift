import Foundation
import Testing

@testable import SchemaMigrations

/// A file made by a real application (`Fixtures/SQLiteUtils/blog.sqlite`, written by sqlite-utils:
/// an external-content FTS5 index kept by three triggers, an index, a view, a foreign key):
/// scaffolded whole, a new install from the scaffold is the same database, and a hand-written V2
/// that changes the view and a trigger and rebuilds the table gives the same database whether
/// created at V2 or migrated there, with the text index still answering.
@Suite struct RealApplicationObjectsTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
            "Fixtures/SQLiteUtils/blog.sqlite")

    /// What "semantically identical" compares: per table (not a virtual table's shadows) its
    /// columns with type, NOT NULL, default and key position, its foreign keys with every clause,
    /// its indexes by name, uniqueness, origin, partial and columns; every view, trigger and
    /// virtual table by its SQL as SQLite reads it.
    static func shape(_ url: URL) throws -> [String] {
        let db = try SQLiteConnection(path: url.path, mode: .readOnly)
        var shape: [String] = []
        let tables = try db.rows(
            "SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_schema_migrations%'"
        ).compactMap { $0[0].stringValue }
        for table in tables {
            let name = SQL.quoteString(table)
            shape += try db.rows("SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_info(\(name))").map {
                "\(table) column " + $0.map(\.description).joined(separator: " ")
            }
            shape += try db.rows(
                "SELECT \"table\", \"from\", \"to\", on_update, on_delete, \"match\" FROM pragma_foreign_key_list(\(name))"
            ).map { "\(table) foreign key " + $0.map(\.description).joined(separator: " ") }
            for index in try db.rows("SELECT name, \"unique\", origin, partial FROM pragma_index_list(\(name))") {
                let columns = try db.rows(
                    "SELECT name FROM pragma_index_info(\(SQL.quoteString(index[0].stringValue!)))")
                shape.append(
                    "\(table) index " + index.map(\.description).joined(separator: " ") + " on "
                        + columns.map { $0[0].description }.joined(separator: ", "))
            }
        }
        shape += try LiveSchema.read(from: db).sqlObjects.map { "\($0): \($0.normalizedSQL)" }
        return shape.sorted()
    }

    @Test func scaffoldedWholeANewInstallIsTheSameAndAV2CreatedEqualsMigrated() throws {
        let original = TemporaryDatabase()
        try? FileManager.default.removeItem(at: original.url)
        try FileManager.default.copyItem(at: Self.fixture, to: original.url)
        let found = try SchemaIntrospection(databaseAt: original.url)
        #expect(found.undeclarable.isEmpty && found.notCarried.isEmpty, "\(found.undeclarable) \(found.notCarried)")
        #expect(found.schema.entityNames == ["posts", "comments"])
        #expect(
            found.schema.sqlObjects.map(\.description) == [
                "virtual table posts_fts", "trigger posts_ai", "trigger posts_ad", "trigger posts_au", "view by_author",
            ])
        let v1 = found.schema
        let created = TemporaryDatabase()
        try PlanBuilder.migrator([v1]).migrate(databaseAt: created.url)
        #expect(try Self.shape(created.url) == Self.shape(original.url))

        // V2: the view sums scores, the update trigger fires only when the text changes, score is REAL.
        var v2 = v1
        v2.version = Schema.Version(2, 0, 0)
        let score = try #require(v2.entities[0].attributes.firstIndex { $0.name == "score" })
        v2.entities[0].attributes[score].valueType = .double
        let view = try #require(v2.sqlObjects.firstIndex { $0.name == "by_author" })
        v2.sqlObjects[view] = .view(
            "CREATE VIEW \"by_author\" AS select author, count(*) as n, sum(score) as total from posts group by author")
        let trigger = try #require(v2.sqlObjects.firstIndex { $0.name == "posts_au" })
        v2.sqlObjects[trigger] = .trigger(
            v2.sqlObjects[trigger].sql.replacingOccurrences(
                of: "AFTER UPDATE ON", with: "AFTER UPDATE OF title, body ON"))
        let migrator = try PlanBuilder.migrator([v1, v2])
        let result = try migrator.migrate(databaseAt: original.url)
        #expect(result.adopted && result.toVersion == v2.version)
        let createdV2 = TemporaryDatabase()
        try migrator.migrate(databaseAt: createdV2.url)
        #expect(try Self.shape(createdV2.url) == Self.shape(original.url))
        #expect(
            try original.rows("SELECT author, n, total FROM by_author ORDER BY author") == [
                ["'ada'", "1", "3.0"], ["'bob'", "1", "5.0"],
            ])
        // The external-content index still follows the table through its remade trigger.
        try original.execute("UPDATE posts SET title = 'Goodbye world' WHERE id = 1")
        #expect(try original.rows("SELECT rowid FROM posts_fts WHERE posts_fts MATCH 'goodbye'") == [["1"]])
        #expect(try original.rows("SELECT rowid FROM posts_fts WHERE posts_fts MATCH 'hello'").isEmpty)
        #expect(try original.rows("PRAGMA integrity_check") == [["'ok'"]])
        // FTS5's own check of the index against the table it indexes: it throws when they disagree.
        try original.execute("INSERT INTO posts_fts (posts_fts) VALUES ('integrity-check')")
    }
}
