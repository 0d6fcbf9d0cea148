import Foundation
import Testing

@testable import SchemaMigrations

/// Scaffold and snapshot only read a schema and sample values, which never depend on a
/// collation's order: a file whose tables use the app's collation is read without it (through a
/// stand-in ordering bytes), and what a migration of it needs is named. A migration, which
/// evaluates, still refuses without it and changes nothing.
@Suite struct IntrospectionWithoutTheAppsCollationTests {
    static func makeFile() throws -> TemporaryDatabase {
        let db = TemporaryDatabase()
        let connection = try SQLiteConnection(
            path: db.url.path, environment: SQLEnvironment(collations: [AppSQLFixtures.unicase]))
        try connection.execute(
            """
            CREATE TABLE word (id INTEGER PRIMARY KEY, text TEXT NOT NULL COLLATE unicase, note TEXT);
            CREATE UNIQUE INDEX word_text ON word (text);
            INSERT INTO word (text, note) VALUES ('apple', 'a'), ('Banana', NULL);
            """)
        return db
    }

    @Test func theFileIsReadAndTheCollationAMigrationNeedsIsNamed() throws {
        let db = try Self.makeFile()
        let before = try db.bytes()
        let found = try SchemaIntrospection(databaseAt: db.url)
        #expect(found.undeclarable.isEmpty)
        #expect(found.schema.entity(named: "word")?.attribute(named: "text")?.collation == "unicase")
        #expect(
            found.environmentNeeds == [
                "the collation unicase (the table word uses the collation unicase): register unicase as the application does (MigrationOptions.sqlEnvironment: SQLCollation / SQLFunction, or its prepareConnection hook), or load the extension that defines it; with the migrate command, --load-extension PATH[:ENTRY] (MIGRATE_LOAD_EXTENSION), or the embedded command's sqlEnvironment"
            ])
        #expect(try db.bytes() == before, "read-only")
        // With the app's collation given, nothing is needed.
        let given = try SchemaIntrospection(
            databaseAt: db.url, environment: SQLEnvironment(collations: [AppSQLFixtures.unicase]))
        #expect(given.environmentNeeds.isEmpty && given.schema == found.schema)

        // A stage rebuilding the table without the collation is refused before any write.
        var v2 = found.schema
        v2.version = Schema.Version(2, 0, 0)
        v2.entities[0].attributes[1].isOptional = false
        v2.entities[0].attributes[1].defaultValue = "''"
        // Status reads it without the collation too, and says what the migration will need.
        let status = try PlanBuilder.migrator([found.schema, v2]).status(databaseAt: db.url)
        #expect(status.environmentNeeds.count == 1 && status.environmentNeeds[0].contains("unicase"), "\(status)")
        #expect("\(status)".contains("\nneeds: "), "\(status)")
        let upToDate = try PlanBuilder.migrator([found.schema]).status(databaseAt: db.url)
        #expect(upToDate.environmentNeeds.isEmpty, "recording the version needs nothing: \(upToDate)")
        #expect {
            try PlanBuilder.migrator([found.schema, v2]).migrate(databaseAt: db.url)
        } throws: { error in
            (error as? MigrationError)?.code == .sqlEnvironment
                && status.environmentNeeds == [
                    "\((error as! MigrationError).message); fix: \((error as! MigrationError).remedy ?? "")"
                ]
        }
        #expect(try db.bytes() == before)
    }
}
