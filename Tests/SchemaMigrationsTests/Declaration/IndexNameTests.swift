import Foundation
import Testing

@testable import SchemaMigrations

/// Index names declared on the model: created with them, compared on adoption, and changed by
/// a rebuild that finds the old index by its columns, whatever it was called.
@Suite struct IndexNameTests {
    enum V1: VersionedSchema {
        static let versionIdentifier = Schema.Version(1, 0, 0)
        static let models: [any PersistentModel.Type] = [Book.self]
        final class Book: PersistentModel {
            static let indexes: [[String]] = [["authorName"]]
            static let uniqueness: [[String]] = [["isbn"]]
            static let indexNames = ["IFK_BookAuthor": ["authorName"], "UQ_BookIsbn": ["isbn"]]
            @Attribute(column: "AuthorName") var authorName: String
            @Attribute var isbn: String
            init() {}
        }
    }

    /// The author index renamed; the ISBN one keeps its name. A new optional column too: an
    /// index's name is not part of the version hash (released snapshots recorded names before they
    /// could be declared), so a name alone does not make a new version.
    enum V2: VersionedSchema {
        static let versionIdentifier = Schema.Version(2, 0, 0)
        static let models: [any PersistentModel.Type] = [Book.self]
        final class Book: PersistentModel {
            static let indexes: [[String]] = [["authorName"]]
            static let uniqueness: [[String]] = [["isbn"]]
            static let indexNames = ["Book_by_author": ["authorName"], "UQ_BookIsbn": ["isbn"]]
            @Attribute(column: "AuthorName") var authorName: String
            @Attribute var isbn: String
            var notes: String? = nil
            init() {}
        }
    }

    /// V1 with the author index renamed and nothing else.
    enum OnlyRenamed: VersionedSchema {
        static let versionIdentifier = Schema.Version(2, 0, 0)
        static let models: [any PersistentModel.Type] = [Book.self]
        final class Book: PersistentModel {
            static let indexes: [[String]] = [["authorName"]]
            static let uniqueness: [[String]] = [["isbn"]]
            static let indexNames = ["Book_by_author": ["authorName"], "UQ_BookIsbn": ["isbn"]]
            @Attribute(column: "AuthorName") var authorName: String
            @Attribute var isbn: String
            init() {}
        }
    }

    enum Unknown: VersionedSchema {
        static let versionIdentifier = Schema.Version(1, 0, 0)
        static let models: [any PersistentModel.Type] = [Book.self]
        final class Book: PersistentModel {
            static let indexNames = ["IFK_BookAuthor": ["authorName"]]
            @Attribute var authorName: String
            init() {}
        }
    }

    static let table = """
        CREATE TABLE Book (id INTEGER PRIMARY KEY, AuthorName TEXT NOT NULL, isbn TEXT NOT NULL);
        CREATE INDEX IFK_BookAuthor ON Book (AuthorName);
        CREATE UNIQUE INDEX UQ_BookIsbn ON Book (isbn);
        INSERT INTO Book VALUES (1, 'Le Guin', '978-0'), (2, 'Herbert', '978-1');
        """

    static func indexNames(_ db: TemporaryDatabase) throws -> [[String]] {
        try db.rows("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'Book' ORDER BY name")
    }

    @Test func namedIndexesAreCreatedAndComparedByName() throws {
        let db = TemporaryDatabase()
        try db.execute(Self.table)
        let declared = try Schema(V1.self)
        #expect(
            SchemaComparison(checksDefaults: false).differences(
                declared: declared, live: try LiveSchema.read(from: db.connect())) == [])
        #expect(
            SchemaComparison(checksDefaults: false).differences(
                declared: try Schema(OnlyRenamed.self), live: try LiveSchema.read(from: db.connect())
            ).map(\.description)
                == ["index Book_by_author(AuthorName) is named IFK_BookAuthor"])
        let created = TemporaryDatabase()
        try PlanBuilder.migrator([declared]).migrate(databaseAt: created.url)
        #expect(try Self.indexNames(created) == [["'IFK_BookAuthor'"], ["'UQ_BookIsbn'"]])
        #expect(declared.versionHash == (try Schema(OnlyRenamed.self)).versionHash, "a name is not hashed")
    }

    @Test func aRenamedIndexIsRebuiltUnderItsNewName() throws {
        let db = TemporaryDatabase()
        try db.execute(Self.table)
        try PlanBuilder.migrator([Schema(V1.self), Schema(V2.self)]).migrate(databaseAt: db.url)
        #expect(try Self.indexNames(db) == [["'Book_by_author'"], ["'UQ_BookIsbn'"]])
        #expect(
            try db.rows("SELECT id, AuthorName, isbn FROM Book ORDER BY id") == [
                ["1", "'Le Guin'", "'978-0'"], ["2", "'Herbert'", "'978-1'"],
            ])
        #expect(
            try PlanBuilder.migrator([Schema(V1.self), Schema(V2.self)]).verify(databaseAt: db.url).currentVersion
                == Schema.Version(2, 0, 0))
    }

    @Test func aNameForAnUndeclaredIndexIsRefused() throws {
        let error = try #require(throws: MigrationError.self) { try Schema(Unknown.self) }
        #expect(error.message == "'Book' names the index IFK_BookAuthor on (authorName), which it does not declare")
    }
}
