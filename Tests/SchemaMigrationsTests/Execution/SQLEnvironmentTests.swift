import Foundation
import Testing

@testable import SchemaMigrations

/// Databases that depend on the application that made them: its collations and functions, given
/// to every connection the migrator opens through `MigrationOptions.sqlEnvironment`.
@Suite struct SQLEnvironmentTests {
    typealias App = AppSQLFixtures

    static var withApp: MigrationOptions { MigrationOptions(sqlEnvironment: App.environment) }

    // MARK: - A collation the application registers

    @Test func aWithoutRowIDTableUniqueUnderTheAppsCollationIsRebuiltAndStillRejectsACaseOnlyDuplicate() throws {
        // Given a tag table made by the app, scaffolded (with the app's environment) as V1, and a V2
        // that makes `note` non-optional: a rebuild.
        let db = TemporaryDatabase()
        try App.make(db, App.tags)
        let (v1, v2) = try App.versions(of: db, table: "tag")
        #expect(v1.entities.map(\.name) == ["tag"])
        try PlanBuilder.migrator([v1], options: Self.withApp).migrate(databaseAt: db.url)  // adopted

        // The dry run has nothing to refuse, and the migration goes through.
        let report = try PlanBuilder.migrator([v1, v2], options: Self.withApp).plan(databaseAt: db.url)
        #expect(report.refusals.isEmpty)
        #expect(report.stages.first?.steps.map(\.step.op) == [.rebuildTable])
        let result = try PlanBuilder.migrator([v1, v2], options: Self.withApp).migrate(databaseAt: db.url)
        #expect(result.toVersion == Schema.Version(2, 0, 0))

        // Then every row is kept, the index is the app's, and a name differing only in case is still refused.
        let app = try App.appConnection(db)
        #expect(
            try app.rows("SELECT name, note FROM tag ORDER BY name COLLATE unicase").map { $0.map(\.sqlLiteral) }
                == [["'go'", "'simple'"], ["'Rust'", "''"], ["'Swift'", "'fast'"]])
        #expect(
            try app.scalar("SELECT sql FROM sqlite_schema WHERE name = 'tag_name_unicase'")?.stringValue
                == "CREATE UNIQUE INDEX tag_name_unicase ON tag (name COLLATE unicase)")
        #expect(
            try app.scalar("SELECT sql FROM sqlite_schema WHERE name = 'tag'")?.stringValue?.hasSuffix("WITHOUT ROWID")
                == true)
        let duplicate = #expect(throws: SQLiteError.self) {
            try app.execute("INSERT INTO tag (name, note) VALUES ('SWIFT', 'again')")
        }
        // the key is BINARY: only the app's index tells them apart
        #expect(duplicate?.message == "UNIQUE constraint failed: tag.name")
        try app.execute("INSERT INTO tag (name) VALUES ('Zig')")
        #expect(try app.scalar("PRAGMA integrity_check")?.stringValue == "ok")
    }

    @Test func withoutTheCollationEveryEntryPointRefusesBeforeWritingNamingItTheIndexAndTheRemedy() throws {
        let db = TemporaryDatabase()
        try App.make(db, App.tags)
        let (v1, v2) = try App.versions(of: db, table: "tag")
        try PlanBuilder.migrator([v1], options: Self.withApp).migrate(databaseAt: db.url)
        let before = try db.bytes()
        let bare = try PlanBuilder.migrator([v1, v2])

        let expected = """
            error: the migration needs the collation unicase, which this connection does not have: SQLite cannot read or rebuild tag without it; nothing was changed
              entity: tag, version: 2.0.0
              - the index tag_name_unicase (on tag) uses the collation unicase
              fix: register unicase as the application does (MigrationOptions.sqlEnvironment: SQLCollation / SQLFunction, or its prepareConnection hook), or load the extension that defines it; with the migrate command, --load-extension PATH[:ENTRY] (MIGRATE_LOAD_EXTENSION), or the embedded command's sqlEnvironment
            """
        // The dry run refuses first, with the same words.
        let report = try bare.plan(databaseAt: db.url)
        #expect(report.refusals.map(\.description) == [expected])
        #expect(report.refusals.first?.code == .sqlEnvironment)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(report.json().utf8)) as? [String: Any])
        let refusal = try #require((json["refusals"] as? [[String: Any]])?.first)
        #expect(refusal["code"] as? String == "sqlEnvironment")
        #expect((refusal["remedy"] as? String)?.hasPrefix("register unicase") == true)
        #expect(report.markdown(showingValues: false).contains("unicase"))

        let error = #expect(throws: MigrationError.self) { try bare.migrate(databaseAt: db.url) }
        #expect(error?.description == expected)
        #expect(try db.bytes() == before)

        // The rehearsal behind the script, and the simulation, are refused the same way.
        #expect(throws: MigrationError.self) { try bare.script(databaseAt: db.url) }
        #expect(try bare.simulate(databaseAt: db.url).error?.code == .sqlEnvironment)
        #expect(try db.bytes() == before)
    }

    @Test func theCollationIsRegisteredOnTheRehearsalAndSimulationCopiesToo() throws {
        let db = TemporaryDatabase()
        try App.make(db, App.tags)
        let (v1, v2) = try App.versions(of: db, table: "tag")
        try PlanBuilder.migrator([v1], options: Self.withApp).migrate(databaseAt: db.url)
        let migrator = try PlanBuilder.migrator([v1, v2], options: Self.withApp)
        #expect(try migrator.simulate(databaseAt: db.url).error == nil)
        #expect(try migrator.script(databaseAt: db.url).text.contains("CREATE UNIQUE INDEX tag_name_unicase"))
        #expect(try migrator.status(databaseAt: db.url).pendingStages.count == 1)
        _ = try migrator.verify(databaseAt: db.url)
    }

    // MARK: - Triggers calling the application's functions

    @Test func anRTreeKeptByTriggersCallingRegisteredFunctionsStillFollowsThePlacesAfterARebuild() throws {
        let db = TemporaryDatabase()
        try App.make(db, App.places)
        let (v1, v2) = try App.versions(of: db, table: "place")
        #expect(v1.entities.map(\.name) == ["place"])  // the R*Tree and its shadow tables are left alone
        try PlanBuilder.migrator([v1], options: Self.withApp).migrate(databaseAt: db.url)

        let report = try PlanBuilder.migrator([v1, v2], options: Self.withApp).plan(databaseAt: db.url)
        #expect(report.refusals.isEmpty && report.keptUnevaluated.isEmpty)
        try PlanBuilder.migrator([v1, v2], options: Self.withApp).migrate(databaseAt: db.url)

        let app = try App.appConnection(db)
        try app.execute("INSERT INTO place (name, geom) VALUES ('Nice', \(App.point(7.26, 43.70)))")
        try app.execute("UPDATE place SET geom = \(App.point(1.44, 43.60)), name = 'Toulouse' WHERE name = 'Lyon'")
        try app.execute("DELETE FROM place WHERE name = 'Paris'")
        #expect(
            try app.rows(
                "SELECT p.name FROM place_index i JOIN place p USING (id) WHERE i.minx < 5 AND i.maxy < 45 ORDER BY p.name"
            ).map { $0.map(\.sqlLiteral) }
                == [["'Toulouse'"]])
        #expect(try app.rows("SELECT count(*) FROM place_index").first?.first == .integer(2))
        #expect(try app.scalar("SELECT rtreecheck('place_index')")?.stringValue == "ok")
        #expect(try app.rows("SELECT name FROM place_extent WHERE x > 7").map { $0.map(\.sqlLiteral) } == [["'Nice'"]])
    }

    @Test func withoutTheFunctionsTheTriggersAndViewAreKeptUnchangedAndTheDryRunSaysSo() throws {
        let db = TemporaryDatabase()
        try App.make(db, App.places)
        let (v1, v2) = try App.versions(of: db, table: "place")
        try PlanBuilder.migrator([v1]).migrate(databaseAt: db.url)
        let dependents = "SELECT name, sql FROM sqlite_schema WHERE type IN ('trigger', 'view') ORDER BY name"
        let before = try db.rows(dependents)

        let bare = try PlanBuilder.migrator([v1, v2])
        let report = try bare.plan(databaseAt: db.url)
        #expect(report.refusals.isEmpty)
        #expect(report.keptUnevaluated.count == 3)  // place_deleted calls none
        #expect(
            report.keptUnevaluated.first
                == "kept as it is: the trigger place_inserted calls the function st_isempty, the function st_x, the function st_y, which this connection does not have; it is recreated unchanged (SQLite keeps it, and the application provides them when it opens the file). To have the migration evaluate it too: register st_isempty, st_x, st_y as the application does (MigrationOptions.sqlEnvironment: SQLCollation / SQLFunction, or its prepareConnection hook), or load the extension that defines them; with the migrate command, --load-extension PATH[:ENTRY] (MIGRATE_LOAD_EXTENSION), or the embedded command's sqlEnvironment"
        )
        #expect(
            report.warnings.contains(report.keptUnevaluated[2])
                && report.keptUnevaluated[2].contains("the view place_extent uses the function st_x, the function st_y")
        )
        #expect(report.description.contains("kept as it is: the trigger place_moved"))

        try bare.migrate(databaseAt: db.url)
        #expect(try db.rows(dependents) == before)
        // The application, with its functions, finds its index working.
        let app = try App.appConnection(db)
        try app.execute("INSERT INTO place (name, geom) VALUES ('Nice', \(App.point(7.26, 43.70)))")
        #expect(try app.scalar("SELECT count(*) FROM place_index")?.int64Value == 3)
        #expect(try app.scalar("SELECT rtreecheck('place_index')")?.stringValue == "ok")
    }

    @Test func aKeptTriggerStillRefusesAColumnTheMigrationDrops() throws {
        // The stand-ins look past the app's functions: a reference to a dropped column is still found.
        let db = TemporaryDatabase()
        try App.make(db, App.places)
        let (v1, _) = try App.versions(of: db, table: "place")
        try PlanBuilder.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute(
            "CREATE TRIGGER place_noted AFTER UPDATE ON place WHEN st_isempty(new.geom) BEGIN SELECT new.note; END")
        var v2 = v1
        v2.version = Schema.Version(2, 0, 0)
        v2.entities[0].attributes.removeAll { $0.name == "note" }
        v2.entities[0].attributes = v2.entities[0].attributes.map {
            var a = $0
            if a.name == "name" { a.defaultValue = "'?'" }
            return a
        }  // a rebuild
        let before = try db.bytes()
        let error = #expect(throws: MigrationError.self) {
            try PlanBuilder.migrator([v1, v2]).migrate(databaseAt: db.url)
        }
        // (Compiling an UPDATE compiles every UPDATE trigger of the table: the first probed is named.)
        #expect(
            error?.message.contains(
                "cannot be recreated after the migration's changes (no such column: new.note); everything was rolled back"
            ) == true, "\(String(describing: error))")
        #expect(try db.bytes() == before)
    }

    @Test func aTableCheckCallingAnUnregisteredFunctionIsRefusedBeforeWritingNamingTheConstraint() throws {
        // The table CHECK is declared (as the scaffold reads it): the check of declared SQL needs its function.
        let db = TemporaryDatabase()
        try App.make(
            db,
            """
            CREATE TABLE shape (id INTEGER PRIMARY KEY, geom BLOB, note TEXT, CHECK (geom IS NULL OR NOT st_isempty(geom)));
            INSERT INTO shape (geom) VALUES (\(App.point(1, 2)));
            """)
        let (v1, v2) = try App.versions(of: db, table: "shape")
        #expect(v1.entity(named: "shape")?.constraints == [.check("geom IS NULL OR NOT st_isempty(geom)")])
        try PlanBuilder.migrator([v1], options: Self.withApp).migrate(databaseAt: db.url)
        let before = try db.bytes()
        let bare = try PlanBuilder.migrator([v1, v2])
        let error = #expect(throws: MigrationError.self) { try bare.plan(databaseAt: db.url) }
        #expect(
            error?.message
                == "SQLite rejects the constraint `CHECK (geom IS NULL OR NOT st_isempty(geom))` of 'shape': no such function: st_isempty"
        )
        #expect("\(String(describing: error))".contains("fix: register st_isempty as the application does"))
        let applied = #expect(throws: MigrationError.self) { try bare.migrate(databaseAt: db.url) }
        #expect(applied?.message == error?.message)
        #expect(try db.bytes() == before)
        try PlanBuilder.migrator([v1, v2], options: Self.withApp).migrate(databaseAt: db.url)
        #expect(try db.recordedVersion() == "2.0.0")
    }

    // MARK: - The hook, the check of declared SQL, the header

    @Test func theRawHookRunsOnEveryConnectionAndADeclaredGeneratedColumnMayCallARegisteredFunction() throws {
        let opened = Counter()
        let environment = SQLEnvironment(functions: App.functions) { handle in
            opened.increment()
            #expect(sqlite3HandleIsOpen(handle))
        }
        var entity = Schema.Entity(name: "spot", attributes: [PlanBuilder.attribute("geom", .data, optional: true)])
        let v1 = PlanBuilder.schema(1, [entity])
        entity.attributes.append(
            Schema.Attribute(name: "x", valueType: .double, isOptional: true, generated: .virtual("st_x(geom)")))
        let v2 = PlanBuilder.schema(2, [entity])
        let db = TemporaryDatabase()
        try PlanBuilder.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute("INSERT INTO spot (geom) VALUES (\(App.point(3, 4)))")

        // Without the function, the declaration is refused naming it; with it, it is accepted.
        let refused = #expect(throws: MigrationError.self) { try PlanBuilder.migrator([v1, v2]).lint() }
        #expect(refused?.message.contains("no such function: st_x") == true)
        #expect(
            refused?.remedy?.hasPrefix("check the spelling of st_x; if the application registers it, register st_x")
                == true)
        let migrator = try PlanBuilder.migrator([v1, v2], options: MigrationOptions(sqlEnvironment: environment))
        _ = try migrator.lint()
        try migrator.migrate(databaseAt: db.url)
        #expect(opened.value >= 2)
        let app = try SQLiteConnection(path: db.path, environment: environment)
        #expect(try app.scalar("SELECT x FROM spot") == .real(3))
    }

    @Test func aHookThatThrowsFailsTheCallNamingIt() throws {
        struct NoLicence: Error {}
        let db = TemporaryDatabase()
        try db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, x TEXT)")
        let environment = SQLEnvironment { _ in throw NoLicence() }
        let error = #expect(throws: MigrationError.self) {
            try PlanBuilder.migrator(
                [
                    PlanBuilder.schema(
                        1, [Schema.Entity(name: "t", attributes: [PlanBuilder.attribute("x", .string, optional: true)])]
                    )
                ], options: MigrationOptions(sqlEnvironment: environment)
            ).plan(databaseAt: db.url)
        }
        #expect(error?.code == .sqlEnvironment, "\(String(describing: error))")
        #expect(error?.cause is NoLicence)
        let missing = #expect(throws: MigrationError.self) {
            try SchemaIntrospection(
                databaseAt: db.url,
                environment: SQLEnvironment(extensions: [
                    SQLExtension(path: db.directory.appendingPathComponent("nothing.so").path)
                ]))
        }
        #expect(
            missing?.message.hasPrefix("cannot load the SQLite extension '\(db.directory.path)/nothing.so'") == true)
    }

    @Test func aMigrationNeverChangesTheApplicationsHeader() throws {
        // application_id, user_version, page size, journal mode and auto-vacuum are the app's own.
        let db = TemporaryDatabase()
        try App.make(
            db, App.tags,
            pragmas:
                "PRAGMA page_size = 8192; PRAGMA auto_vacuum = INCREMENTAL; PRAGMA journal_mode = WAL; PRAGMA application_id = 1096045652; PRAGMA user_version = 42;"
        )
        let header =
            "SELECT * FROM pragma_application_id, pragma_user_version, pragma_page_size, pragma_journal_mode, pragma_auto_vacuum"
        let before = try db.rows(header)
        #expect(before == [["1096045652", "42", "8192", "'wal'", "2"]])
        let (v1, v2) = try App.versions(of: db, table: "tag")
        try PlanBuilder.migrator([v1], options: Self.withApp).migrate(databaseAt: db.url)
        try PlanBuilder.migrator(
            [v1, v2],
            options: MigrationOptions(
                backupURL: db.directory.appendingPathComponent("backup.sqlite"), sqlEnvironment: App.environment)
        )
        .migrate(databaseAt: db.url)
        #expect(try db.recordedVersion() == "2.0.0")
        #expect(try db.rows(header) == before)
    }

    @Test func extensionsParseAsTheShellsLoadDoes() throws {
        #expect(try SQLExtension(parsing: "./libapp.so") == SQLExtension(path: "./libapp.so"))
        #expect(
            try SQLExtension(parsing: "./libapp.so:sqlite3_app_init")
                == SQLExtension(path: "./libapp.so", entryPoint: "sqlite3_app_init"))
        // not an entry point: a path
        #expect(try SQLExtension(parsing: "C:/lib/app") == SQLExtension(path: "C:/lib/app"))
        let db = TemporaryDatabase("odd:name")
        try db.execute("CREATE TABLE t (x)")
        #expect(try SQLExtension(parsing: db.path) == SQLExtension(path: db.path))  // a path that exists is that path
        #expect(throws: MigrationError.self) { try SQLExtension(parsing: "") }
    }
}

/// Counts calls from any thread.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    /// The count before this call, then one more: for "after the N-th event".
    func next() -> Int {
        lock.withLock {
            defer { count += 1 }
            return count
        }
    }
    var value: Int { lock.withLock { count } }
}

private func sqlite3HandleIsOpen(_ handle: OpaquePointer) -> Bool {
    (try? SQLiteConnection(borrowing: handle).scalar("SELECT 1")) == .integer(1)
}
