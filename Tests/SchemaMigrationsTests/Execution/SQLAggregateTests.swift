import Foundation
import Testing

@testable import SchemaMigrations

/// The application's aggregate functions (``SQLAggregate``), as calibre's views call its
/// `sortconcat`: registered on every connection the migrator opens, one result per group, an
/// error failing the statement with its message; a view calling one is evaluated and rebuilt by a
/// migration given it, and kept unevaluated, saying so, by one that is not.
@Suite struct SQLAggregateTests {
    /// calibre's `sortconcat(position, value)`: the values joined in the order of their positions.
    static let sortconcat = SQLAggregate("sortconcat", argumentCount: 2) { rows in
        let sorted = rows.sorted { ($0[0].int64Value ?? 0) < ($1[0].int64Value ?? 0) }
        return .text(sorted.compactMap(\.[1].stringValue).joined(separator: "&"))
    }
    static let refusing = SQLAggregate("refusing", argumentCount: 1) { rows in
        struct Refused: Error, CustomStringConvertible { var description: String }
        throw Refused(description: "refused \(rows.count) rows")
    }
    static let environment = SQLEnvironment(aggregates: [sortconcat, refusing])

    static let schema = """
        CREATE TABLE book (id INTEGER PRIMARY KEY, title TEXT NOT NULL DEFAULT '');
        CREATE TABLE author (id INTEGER PRIMARY KEY, book INTEGER NOT NULL, position INTEGER NOT NULL, name TEXT NOT NULL);
        CREATE VIEW book_authors AS SELECT book, sortconcat(position, name) AS names FROM author GROUP BY book;
        INSERT INTO book (title) VALUES ('Good Omens'), ('Dune');
        INSERT INTO author (book, position, name) VALUES (1, 2, 'Gaiman'), (1, 1, 'Pratchett'), (2, 1, 'Herbert');
        """

    @Test func eachGroupGetsItsRowsInOrderAndAnEmptyGroupNone() throws {
        let db = TemporaryDatabase()
        let connection = try SQLiteConnection(path: db.path, environment: Self.environment)
        try connection.execute(Self.schema)
        #expect(
            try connection.rows("SELECT book, names FROM book_authors ORDER BY book").map { $0.map(\.sqlLiteral) } == [
                ["1", "'Pratchett&Gaiman'"], ["2", "'Herbert'"],
            ])
        // No row at all: the body is given none.
        #expect(try connection.scalar("SELECT sortconcat(position, name) FROM author WHERE 0") == .text(""))
        // Upper case and a NULL argument reach it as SQLite has them.
        #expect(try connection.scalar("SELECT SORTCONCAT(1, NULL)") == .text(""))
        // A thousand rows in one group, and many groups at once, each its own.
        try connection.execute(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000) INSERT INTO author (book, position, name) SELECT 3 + i % 7, i, 'a' || i FROM n"
        )
        let expected: [String] = (1...1000).filter { $0 % 7 == 0 }.map { "a\($0)" }
        #expect(
            try connection.scalar("SELECT sortconcat(position, name) FROM author WHERE book = 3")
                == .text(expected.joined(separator: "&")))
        #expect(try connection.scalar("SELECT count(*) FROM book_authors") == .integer(9))
    }

    @Test func anErrorFailsTheStatementWithItsMessage() throws {
        let db = TemporaryDatabase()
        let connection = try SQLiteConnection(path: db.path, environment: Self.environment)
        try connection.execute(Self.schema)
        let error = try #require(throws: SQLiteError.self) {
            _ = try connection.rows("SELECT refusing(name) FROM author")
        }
        #expect(error.message == "refused 3 rows")
        // The connection goes on: the failed group's rows were released with it.
        #expect(try connection.scalar("SELECT count(*) FROM book_authors") == .integer(2))
    }

    @Test func aMigrationGivenTheAggregateEvaluatesTheViewAndOneWithoutKeepsItSayingSo() throws {
        let db = TemporaryDatabase()
        try SQLiteConnection(path: db.path, environment: Self.environment).execute(Self.schema)
        let v1 = try SchemaIntrospection(databaseAt: db.url).schema
        var v2 = v1
        v2.version = Schema.Version(2, 0, 0)
        let author = try #require(v2.entities.firstIndex { $0.name == "author" })
        v2.entities[author].attributes.append(
            Schema.Attribute(name: "role", valueType: .string, defaultValue: "'writer'"))
        v2.entities[author].hashModifier = "rebuilt"

        let bare = try PlanBuilder.migrator([v1, v2]).plan(databaseAt: db.url)
        #expect(
            bare.keptUnevaluated.contains {
                $0.contains("the view book_authors uses the function sortconcat")
            }, "\(bare.keptUnevaluated)")

        let options = MigrationOptions(sqlEnvironment: Self.environment)
        let report = try PlanBuilder.migrator([v1, v2], options: options).plan(databaseAt: db.url)
        #expect(report.keptUnevaluated.isEmpty && report.refusals.isEmpty, "\(report.keptUnevaluated)")
        try PlanBuilder.migrator([v1, v2], options: options).migrate(databaseAt: db.url)
        let app = try SQLiteConnection(path: db.path, environment: Self.environment)
        #expect(
            try app.rows("SELECT names FROM book_authors ORDER BY book").map { $0.map(\.sqlLiteral) } == [
                ["'Pratchett&Gaiman'"], ["'Herbert'"],
            ])
        #expect(try app.scalar("SELECT count(*) FROM author WHERE role = 'writer'") == .integer(3))
    }

    @Test func aNameSQLiteRefusesIsRefusedNamingIt() throws {
        let db = TemporaryDatabase()
        let long = String(repeating: "a", count: 256)
        let error = try #require(throws: MigrationError.self) {
            _ = try SQLiteConnection(
                path: db.path, environment: SQLEnvironment(aggregates: [SQLAggregate(long) { _ in .null }]))
        }
        #expect(error.code == .sqlEnvironment)
        #expect(error.message.hasPrefix("cannot register the aggregate function '\(long)'"))
    }
}
