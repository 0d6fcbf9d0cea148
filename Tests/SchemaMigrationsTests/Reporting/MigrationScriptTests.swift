import Foundation
import Testing

@testable import SchemaMigrations

/// The SQL script is what `apply` runs, learnt by rehearsing on a copy: run on another copy, it
/// gives the same schema, rows and metadata.
@Suite struct MigrationScriptTests {
    typealias A = PlanBuilder

    /// Everything a comparison needs: the schema objects, the Person rows, and the metadata
    /// rows without their timings.
    static func contents(of db: TemporaryDatabase) throws -> [[String]] {
        try db.rows("SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY name")
            + db.rows("SELECT * FROM Person ORDER BY id")
            + db.rows(
                "SELECT plan, seq, version, hash, kind, fromVersion, schemaCookie, snapshot FROM _schema_migrations ORDER BY seq"
            )
            + db.rows("PRAGMA schema_version")
    }

    /// Two copies of `original`: one given the script's statements in a transaction with foreign
    /// keys off (what the script's header does), the other migrated.
    static func scriptedAndApplied(_ original: TemporaryDatabase, script: MigrationScript, migrator: Migrator) throws
        -> (TemporaryDatabase, TemporaryDatabase)
    {
        let scripted = TemporaryDatabase()
        let applied = TemporaryDatabase()
        try FileManager.default.copyItem(at: original.url, to: scripted.url)
        try FileManager.default.copyItem(at: original.url, to: applied.url)
        let connection = try scripted.connect()
        try connection.execute("PRAGMA foreign_keys = OFF; BEGIN IMMEDIATE")
        for statement in script.statements { try connection.execute(statement) }
        try connection.execute("COMMIT")
        try migrator.migrate(databaseAt: applied.url)
        return (scripted, applied)
    }

    @Test func theScriptsStatementsDoWhatMigrateDoesWithViewsAndTriggersRecreated() throws {
        let original = try DryRunReportTests.populated()
        try original.execute(
            """
            CREATE VIEW adults AS SELECT name FROM Person WHERE age >= 18;
            CREATE TABLE audit (id INTEGER PRIMARY KEY, what TEXT);
            CREATE TRIGGER person_added AFTER INSERT ON Person BEGIN INSERT INTO audit (what) VALUES (new.name); END;
            """)
        let migrator = try A.migrator([
            A.schema(1, [DryRunReportTests.person]), A.schema(2, [DryRunReportTests.personV2]),
        ])
        let script = try migrator.script(databaseAt: original.url)
        #expect(script.fromVersion == Schema.Version(1, 0, 0) && script.toVersion == Schema.Version(2, 0, 0))
        #expect(script.statements.contains("DROP VIEW \"adults\""))
        #expect(script.statements.contains { $0.hasPrefix("CREATE TRIGGER person_added") })

        let (scripted, applied) = try Self.scriptedAndApplied(original, script: script, migrator: migrator)
        #expect(try Self.contents(of: scripted) == Self.contents(of: applied))
        #expect(try migrator.status(databaseAt: scripted.url).isUpToDate)
    }

    @Test func withForeignKeysTheScriptStillDoesWhatMigrateDoes() throws {
        let original = try RelationshipTests.populatedGraphV1()
        let migrator = Migrator(plan: GraphPlan.self)
        let (scripted, applied) = try Self.scriptedAndApplied(
            original, script: migrator.script(databaseAt: original.url), migrator: migrator)
        let everything = [
            "SELECT type, name, sql FROM sqlite_schema ORDER BY name", "SELECT * FROM BucketListItem ORDER BY id",
            "SELECT * FROM LivingAccommodation ORDER BY id",
            "SELECT version, hash, schemaCookie FROM _schema_migrations",
        ]
        for query in everything { #expect(try scripted.rows(query) == applied.rows(query), "\(query)") }
    }

    @Test func theTextIsAShellScriptInOneTransactionThatChecksTheSchemaFirst() throws {
        let db = try DryRunReportTests.populated()
        let cookie = try db.scalar("PRAGMA schema_version")!.int64Value!
        let text = try A.migrator([A.schema(1, [DryRunReportTests.person]), A.schema(2, [DryRunReportTests.personV2])])
            .script(databaseAt: db.url).text
        let lines = text.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("--") }
        #expect(
            Array(lines.prefix(4)) == [
                ".bail on", "PRAGMA foreign_keys=OFF;", "PRAGMA legacy_alter_table=OFF;", "BEGIN IMMEDIATE;",
            ])
        #expect(lines[4].contains("CHECK (\"schema_version\" = \(cookie))"))
        #expect(lines.last == "COMMIT;")
        #expect(text.contains("-- 1.0.0 → 2.0.0 [1/1] Rebuild table Person"))
        #expect(text.contains("-- Record the version in _schema_migrations"))
    }

    @Test func anUpToDateDatabaseGetsAScriptThatDoesNothing() throws {
        let db = try DryRunReportTests.populated()
        let script = try A.migrator([A.schema(1, [DryRunReportTests.person])]).script(databaseAt: db.url)
        #expect(script.statements.isEmpty)
        #expect(script.text.hasSuffix("-- The database is at 1.0.0 already: nothing to do.\n"))
        #expect(!script.text.contains("BEGIN"))
    }

    @Test func aMigrationThatWouldFailGivesItsErrorInsteadOfAScript() throws {
        let db = try DryRunReportTests.populated(rows: PersonFixture.rows + "INSERT INTO Person (name) VALUES ('Ada');")
        let before = try db.bytes()
        let unique = PersonFixture.person { $0.indexes.append(Schema.Index(["name"], isUnique: true)) }
        let error = try #require(throws: MigrationError.self) {
            try A.migrator([A.schema(1, [DryRunReportTests.person]), A.schema(2, [unique])]).script(databaseAt: db.url)
        }
        #expect(error.code == .dataViolation)
        #expect(try db.bytes() == before)
    }

    @Test func readsTransactionControlAndWhatASavepointRolledBackAreLeftOut() {
        let recorded: [StatementRecorder.Entry] = [
            .statement("PRAGMA foreign_keys = OFF", readOnly: false),
            .statement("BEGIN IMMEDIATE TRANSACTION", readOnly: false),
            .statement("SELECT count(*) FROM t", readOnly: true),
            .statement("SAVEPOINT \"stage\"", readOnly: true),
            .statement("DROP TABLE t", readOnly: false),
            .statement("ROLLBACK TO SAVEPOINT \"stage\"", readOnly: true),
            .statement("RELEASE SAVEPOINT \"stage\"", readOnly: true),
            .note("again"),
            .statement("SAVEPOINT \"stage\"", readOnly: true),
            .statement("DROP TABLE u", readOnly: false),
            .statement("RELEASE SAVEPOINT \"stage\"", readOnly: true),
            .statement("PRAGMA user_version = 3", readOnly: false),
            .statement("COMMIT TRANSACTION", readOnly: false),
        ]
        #expect(
            MigrationRehearsal.writes(in: recorded) == [
                .note("again"), .statement("DROP TABLE u", readOnly: false),
                .statement("PRAGMA user_version = 3", readOnly: false),
            ])
    }
}

/// The `.load` lines a script writes for the extensions the migration loaded: the `sqlite3`
/// shell reads back exactly the path and entry point, whatever characters they hold.
@Suite struct MigrationScriptExtensionTests {
    @Test(arguments: [
        "/tmp/plain/libapp", "/tmp/a dir/with \"quotes\" and \\ back\\slash", "/tmp/line\nbreak\tand tab",
    ])
    func theShellLoadsExactlyThePathTheMigrationLoaded(path: String) throws {
        let command = SQLExtension(path: path, entryPoint: "sqlite3_app_init").shellCommand
        #expect(!command.contains("\n"), "one line: \(command)")
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3") else { return }
        let message = try ProgramRun.run(["sqlite3", ":memory:"], input: command + "\n").output
        // The file does not exist: the shell names the path it tried (with the platform's suffix).
        #expect(message.hasPrefix("Error: \(path)"), "\(message)")
    }

    @Test func aScriptNamesWhatTheApplicationRegistersInCode() throws {
        let db = TemporaryDatabase()
        try PlanBuilder.migrator([JournalModeTests.v1]).migrate(databaseAt: db.url)
        let environment = SQLEnvironment(
            collations: [SQLCollation("unicase") { $0.lowercased().compare($1.lowercased()) }],
            functions: [SQLFunction("slug", argumentCount: 1) { _ in .null }])
        let script = try PlanBuilder.migrator(
            [JournalModeTests.v1, JournalModeTests.v2], options: MigrationOptions(sqlEnvironment: environment)
        ).script(databaseAt: db.url)
        #expect(
            script.text.contains(
                "-- It needs what the application registers in code, which the sqlite3 shell does not have: the collation unicase, the function slug.\n.bail on\n"
            ))
    }
}
