import Foundation
import Testing

@testable import SchemaMigrations

/// A version's views, triggers and virtual tables as a user declares them in Swift, and every way
/// a declaration can be wrong refused before anything runs, naming the object.
@Suite struct SQLObjectDeclarationTests {
    typealias A = PlanBuilder
    typealias B = BlogObjects

    enum BlogV1: VersionedSchema {
        static let versionIdentifier = Schema.Version(1, 0, 0)
        static let models: [any PersistentModel.Type] = [Post.self]
        static let sqlObjects: [Schema.SQLObject] = [
            .view("CREATE VIEW Recent AS SELECT title FROM Post WHERE id > 10"),
            .trigger(
                "CREATE TRIGGER Post_title BEFORE INSERT ON Post BEGIN SELECT RAISE(ABORT, 'empty title') WHERE NEW.title = ''; END"
            ),
            .virtualTable("CREATE VIRTUAL TABLE PostText USING fts5(title)"),
        ]
        final class Post: PersistentModel {
            var title = ""
            init() {}
        }
    }

    @Test func aSwiftVersionDeclaresItsObjectsAndTheyWork() throws {
        let schema = try Schema(BlogV1.self)
        #expect(
            schema.sqlObjects.map(\.description) == ["view Recent", "trigger Post_title", "virtual table PostText"])
        enum Plan: SchemaMigrationPlan {
            static let schemas: [any VersionedSchema.Type] = [BlogV1.self]
        }
        let db = TemporaryDatabase()
        try Migrator(plan: Plan.self).migrate(databaseAt: db.url)
        #expect(throws: SQLiteError.self) { try db.execute("INSERT INTO Post (title) VALUES ('')") }
        try db.execute("INSERT INTO Post (title) VALUES ('kept')")
        #expect(try db.rows("SELECT title FROM Post") == [["'kept'"]])
    }

    static func schema(_ objects: [Schema.SQLObject]) -> Schema {
        Schema(
            version: Schema.Version(1, 0, 0), entities: [B.author, B.audit, B.post(score: .integer)],
            sqlObjects: objects)
    }

    /// The message of the error `objects` get, from validation or from SQLite's own reading.
    static func refusal(_ objects: [Schema.SQLObject]) -> (message: String, entity: String?)? {
        let schema = Self.schema(objects)
        do {
            try schema.validate()
            try DeclaredSQLCheck.checkSQLObjects(of: schema)
            return nil
        } catch let error as MigrationError {
            #expect(error.code == .invalidSchema)
            return (error.message, error.entity)
        } catch {
            return ("\(error)", nil)
        }
    }

    @Test func eachWrongDeclarationIsRefusedNamingTheObject() throws {
        let cases: [([Schema.SQLObject], String, String?)] = [
            (
                [.view("CREATE TRIGGER t AFTER INSERT ON Post BEGIN SELECT 1; END")],
                "'t' of version 1.0.0 is declared a view, but its SQL creates a trigger", "t"
            ),
            (
                [.view("SELECT 1")],
                "the view #1 of version 1.0.0 is not a `CREATE VIEW name …` statement: SELECT 1", nil
            ),
            (
                [.view("CREATE TEMP VIEW v AS SELECT 1")],
                "the view 'v' of version 1.0.0 is TEMP: it would vanish when the connection closes", "v"
            ),
            (
                [.view("CREATE VIEW aux.v AS SELECT 1")],
                "the view 'v' of version 1.0.0 is created in the database 'aux', not in the file migrated", "v"
            ),
            (
                [.view("CREATE VIEW post AS SELECT 1")],
                "the view 'post' of version 1.0.0 has the name of the entity 'Post' (SQLite's tables, indexes, views and triggers share one space of names, ignoring case)",
                "post"
            ),
            (
                [
                    .view("CREATE VIEW v AS SELECT 1"),
                    .trigger("CREATE TRIGGER V AFTER INSERT ON Post BEGIN SELECT 1; END"),
                ],
                "the trigger 'V' of version 1.0.0 has the name of the view 'v' (SQLite's tables, indexes, views and triggers share one space of names, ignoring case)",
                "V"
            ),
            (
                [.view("CREATE VIEW v AS SELECT 1; DROP TABLE Post")],
                "the SQL of the view 'v' of version 1.0.0 holds 2 statements; it runs as it is written, so it may hold only its CREATE",
                "v"
            ),
            (
                [.view("CREATE VIEW _sm_new_v AS SELECT 1")],
                "'_sm_new_v' is a reserved name (SQLite reserves 'sqlite_…'; SchemaMigrations reserves '_schema_migrations' and '_sm_new_…')",
                "_sm_new_v"
            ),
            (
                [.view("CREATE VIEW Recent AS SELECT title FROM Nope")],
                "SQLite rejects the view Recent of version 1.0.0: error in view Recent: no such table: main.Nope",
                "Recent"
            ),
            (
                [B.topAuthors, B.postCount],
                "SQLite rejects the view TopAuthors of version 1.0.0: error in view TopAuthors: no such table: main.PostCount",
                "TopAuthors"
            ),
            (
                [.trigger("CREATE TRIGGER t AFTER INSERT ON Nope BEGIN SELECT 1; END")],
                "SQLite rejects the trigger t of version 1.0.0: no such table: main.Nope", "t"
            ),
            (
                [.virtualTable("CREATE VIRTUAL TABLE t USING fts5(a, a)")],
                "SQLite rejects the virtual table t of version 1.0.0: vtable constructor failed: t", "t"
            ),
        ]
        for (objects, message, entity) in cases {
            let refusal = Self.refusal(objects)
            #expect(refusal?.message == message, "\(objects.map(\.sql))")
            #expect(refusal?.entity == entity, "\(objects.map(\.sql))")
        }
    }

    @Test func whatIsWellFormedPasses() throws {
        #expect(Self.refusal(B.v1.sqlObjects) == nil)
        #expect(Self.refusal([.view("CREATE VIEW IF NOT EXISTS main.\"odd \"\"name\" AS SELECT 1;")]) == nil)
        #expect(
            Schema.SQLObject.view("CREATE VIEW IF NOT EXISTS main.\"odd \"\"name\" AS SELECT 1;").name == "odd \"name")
        // A module the connection lacks is the migration connection's to judge, as is what reads it.
        #expect(
            Self.refusal([
                .virtualTable("CREATE VIRTUAL TABLE t USING nosuchmodule(a)"),
                .view("CREATE VIEW v AS SELECT a FROM t"),
            ]) == nil)
    }

    @Test func aNewInstallRefusedLeavesNoFile() throws {
        let db = TemporaryDatabase()
        let plan = Self.schema([.view("CREATE VIEW Recent AS SELECT title FROM Nope")])
        #expect(throws: MigrationError.self) { try A.migrator([plan]).migrate(databaseAt: db.url) }
        let exists = FileManager.default.fileExists(atPath: db.url.path)
        #expect(try !exists || db.bytes().isEmpty)
    }

    @Test func aStageThatFailsLeavesTheFileByteForByteAsItWas() throws {
        let db = TemporaryDatabase()
        try A.migrator([B.v1]).migrate(databaseAt: db.url)
        try SQLObjectMigrationTests.fill(db)
        // The application made a table of the name V2's new view takes: SQLite refuses the
        // CREATE, the last step, and the whole stage rolls back.
        var v2 = B.v2
        v2.sqlObjects.append(.view("CREATE VIEW AppReport AS SELECT 1 AS one"))
        try db.execute("CREATE TABLE AppReport (x)")
        let before = try db.bytes()
        // The dry run walks the same steps on a copy of the schema and fails where the migration would.
        let report = try A.migrator([B.v1, v2]).plan(databaseAt: db.url)
        #expect(report.refusals.map(\.message) == ["step failed: Create view AppReport; everything was rolled back"])
        #expect {
            try A.migrator([B.v1, v2]).migrate(databaseAt: db.url)
        } throws: { error in
            let error = error as? MigrationError
            return error?.message == "step failed: Create view AppReport; everything was rolled back"
        }
        #expect(try db.bytes() == before)
    }
}
