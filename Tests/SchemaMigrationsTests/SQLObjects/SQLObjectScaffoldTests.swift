import Foundation
import Testing

@testable import SchemaMigrations

/// A file made by hand with views, triggers and virtual tables scaffolds to a version declaring
/// them all; a database created from that version is the file's schema again.
@Suite struct SQLObjectScaffoldTests {
    static let made = """
        CREATE TABLE Author (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        CREATE TABLE Post (id INTEGER PRIMARY KEY, title TEXT NOT NULL, author INTEGER NOT NULL, words INTEGER NOT NULL DEFAULT 0);
        CREATE TABLE Counter (id INTEGER PRIMARY KEY, posts INTEGER NOT NULL DEFAULT 0);
        CREATE VIEW PostCount AS SELECT author, count(*) AS posts FROM Post GROUP BY author;
        CREATE VIEW "Busy Authors" AS
            SELECT a.name FROM Author a JOIN PostCount p ON p.author = a.id WHERE p.posts > 1;
        CREATE TRIGGER Post_count AFTER INSERT ON Post
        BEGIN
            UPDATE Counter SET posts = posts + 1 WHERE id = 1;  -- a comment; with a semicolon
        END;
        CREATE TRIGGER Busy_insert INSTEAD OF INSERT ON "Busy Authors"
        BEGIN INSERT INTO Author (name) VALUES (NEW.name); END;
        CREATE VIRTUAL TABLE PostText USING fts5(title, body, tokenize = 'porter');
        CREATE VIRTUAL TABLE Place USING rtree(id, minX, maxX, minY, maxY);
        INSERT INTO Post (title, author) VALUES ('a', 1);
        """

    @Test func everyObjectIsScaffoldedAndANewFileFromItEqualsTheOriginal() throws {
        let original = TemporaryDatabase()
        try original.execute(Self.made)
        let found = try SchemaIntrospection(databaseAt: original.url)
        #expect(found.undeclarable.isEmpty, "\(found.undeclarable)")
        #expect(found.notCarried.isEmpty, "\(found.notCarried)")
        #expect(
            found.schema.sqlObjects.map(\.description) == [
                "view PostCount", "view Busy Authors", "trigger Post_count", "trigger Busy_insert",
                "virtual table PostText", "virtual table Place",
            ])
        #expect(found.schema.entityNames == ["Author", "Post", "Counter"], "no shadow table is an entity")
        // The file adopts with zero differences, and a new install is the same schema.
        let migrator = try PlanBuilder.migrator([found.schema])
        let adopted = try migrator.migrate(databaseAt: original.url)
        #expect(adopted.adopted)
        let created = TemporaryDatabase()
        try migrator.migrate(databaseAt: created.url)
        #expect(try BlogObjects.semanticSchema(created) == BlogObjects.semanticSchema(original))

        let swift = SwiftDeclarations(schema: found.schema, name: "Blog", origin: "blog.sqlite")
        #expect(swift.source.contains("    public static let sqlObjects: [Schema.SQLObject] = ["), "\(swift.source)")
        #expect(
            swift.source.contains(
                #"        .view("CREATE VIEW \"Busy Authors\" AS\n    SELECT a.name FROM Author a JOIN PostCount p ON p.author = a.id WHERE p.posts > 1"),"#
            ), "\(swift.source)")
        let checked = try DeclarationMisspellingTests.typecheck(
            swift.source.replacingOccurrences(of: "import SchemaMigrations\n", with: ""))
        #expect(checked.status == 0, "\(checked.output)")
    }

    /// README keeps the plan in a module of its own: the scaffold compiles there, with warnings as
    /// errors, and the app's other module uses its plan, versions, models and objects.
    @Test(.timeLimit(.minutes(3)))
    func theScaffoldCompilesInAModuleOfItsOwnAndIsUsedFromAnother() throws {
        let original = TemporaryDatabase()
        try original.execute(Self.made)
        let found = try SchemaIntrospection(databaseAt: original.url)
        let source = SwiftDeclarations(schema: found.schema, name: "Blog", origin: "blog.sqlite").source
        let modules = try #require(
            DeclarationMisspellingTests.modules, "the built SchemaMigrations module is not found")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("scaffold-module-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let plans = directory.appendingPathComponent("BlogSchemaV1.swift")
        try Data(source.utf8).write(to: plans)
        let map =
            "-fmodule-map-file="
            + DeclarationMisspellingTests.root.appendingPathComponent("Sources/CSQLite/module.modulemap").path
        let library = try ProgramRun.run([
            "swiftc", "-swift-version", "6", "-parse-as-library", "-module-name", "BlogPlan", "-emit-module",
            "-emit-module-path", directory.appendingPathComponent("BlogPlan.swiftmodule").path, "-warnings-as-errors",
            "-I", modules.path, "-Xcc", map, plans.path,
        ])
        #expect(library.status == 0, "\(library.output)")
        let app = directory.appendingPathComponent("App.swift")
        try Data(
            """
            import BlogPlan
            import SchemaMigrations

            let migrator = Migrator(plan: BlogMigrationPlan.self)
            let objects: [Schema.SQLObject] = BlogSchemaV1.sqlObjects
            let post = BlogSchemaV1.Post()
            print(migrator, objects.count, post)
            """.utf8
        ).write(to: app)
        let user = try ProgramRun.run([
            "swiftc", "-swift-version", "6", "-typecheck", "-warnings-as-errors", "-I", directory.path, "-I",
            modules.path, "-Xcc", map, app.path,
        ])
        #expect(user.status == 0, "\(user.output)")
    }

    @Test func anObjectOverATableLeftOutIsLeftOutSayingWhy() throws {
        let original = TemporaryDatabase()
        // A foreign key onto a table the file does not have (SQLite allows one) cannot be
        // declared: Line is left out, and the view reading it with it.
        try original.execute(
            """
            CREATE TABLE Head (a INTEGER NOT NULL, b INTEGER NOT NULL, PRIMARY KEY (a, b));
            CREATE TABLE Line (id INTEGER PRIMARY KEY, a INTEGER, b INTEGER, FOREIGN KEY (a, b) REFERENCES Gone (a, b));
            CREATE VIEW Lines AS SELECT id FROM Line;
            CREATE VIEW Heads AS SELECT a FROM Head;
            """)
        let found = try SchemaIntrospection(databaseAt: original.url)
        #expect(found.undeclarable.map(\.table) == ["Line"])
        #expect(found.schema.sqlObjects.map(\.name) == ["Heads"])
        #expect(
            found.notCarried.map(\.notes) == [
                ["view Lines names Line, which is left out"]
            ])
    }
}
