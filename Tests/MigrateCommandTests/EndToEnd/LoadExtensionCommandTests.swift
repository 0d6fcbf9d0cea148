import Foundation
import SchemaMigrations
import Testing

/// `--load-extension PATH[:ENTRY]` (and `MIGRATE_LOAD_EXTENSION`): a database that needs its
/// application's collation and functions, migrated by the `migrate` command with a small
/// extension built here that registers them. Skipped when no C compiler is installed.
@Suite struct LoadExtensionCommandTests {
    /// The application's SQL: `unicase` (ASCII case folded) and the point functions of a 16-byte blob.
    static let source = """
        #include <sqlite3ext.h>
        SQLITE_EXTENSION_INIT1
        #include <string.h>
        static int unicase(void *unused, int n1, const void *a, int n2, const void *b) {
          const unsigned char *x = a, *y = b; int i;
          for (i = 0; i < n1 && i < n2; i++) {
            int p = x[i] >= 'A' && x[i] <= 'Z' ? x[i] + 32 : x[i], q = y[i] >= 'A' && y[i] <= 'Z' ? y[i] + 32 : y[i];
            if (p != q) return p - q;
          }
          return n1 - n2;
        }
        static void isempty(sqlite3_context *c, int n, sqlite3_value **v) {
          sqlite3_result_int(c, sqlite3_value_type(v[0]) != SQLITE_BLOB || sqlite3_value_bytes(v[0]) < 16);
        }
        static void coordinate(sqlite3_context *c, int n, sqlite3_value **v) {
          double d; const unsigned char *p = sqlite3_value_blob(v[0]);
          if (sqlite3_value_type(v[0]) != SQLITE_BLOB || sqlite3_value_bytes(v[0]) < 16) { sqlite3_result_null(c); return; }
          memcpy(&d, p + (sqlite3_user_data(c) ? 8 : 0), 8);
          sqlite3_result_double(c, d);
        }
        int sqlite3_appsql_init(sqlite3 *db, char **error, const sqlite3_api_routines *api) {
          SQLITE_EXTENSION_INIT2(api);
          static int y = 1;
          int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC;
          sqlite3_create_collation(db, "unicase", SQLITE_UTF8, 0, unicase);
          sqlite3_create_function(db, "st_isempty", 1, flags, 0, isempty, 0, 0);
          sqlite3_create_function(db, "st_x", 1, flags, 0, coordinate, 0, 0);
          return sqlite3_create_function(db, "st_y", 1, flags, &y, coordinate, 0, 0);
        }
        """

    /// The extension, compiled into `scratch` with `cc`; nil when there is no compiler.
    static func buildExtension(in scratch: Scratch) throws -> String? {
        guard
            let cc = ["/usr/bin/cc", "/usr/bin/gcc", "/usr/bin/clang"].first(
                where: FileManager.default.isExecutableFile(atPath:))
        else { return nil }
        let file = scratch.path("appsql.c")
        let library = scratch.path("libappsql.so")
        try Data(source.utf8).write(to: URL(fileURLWithPath: file))
        let result = try BuiltCommand.runProgram(cc, ["-shared", "-fPIC", "-o", library, file])
        #expect(result.status == 0, "\(result)")
        return result.status == 0 ? library : nil
    }

    /// `X'…'`: a point's 16 bytes (x, y as little-endian doubles).
    static func point(_ x: Double, _ y: Double) -> String {
        "X'"
            + [x, y].flatMap { value in
                (0..<8).map { String(format: "%02X", UInt8(truncatingIfNeeded: value.bitPattern >> (8 * UInt64($0)))) }
            }.joined() + "'"
    }

    /// The application's file: tags unique under `unicase` (WITHOUT ROWID), and places with an
    /// R*Tree kept by triggers calling the point functions. Made through `sqlite3`'s `.load`, as
    /// the app would make it; the JSON plan: V1 as scaffolded, V2 making both `note`s non-optional (two rebuilds).
    static func appDatabase(_ scratch: Scratch, extension library: String) throws -> (database: String, plan: String) {
        let database = scratch.path("app.sqlite")
        let sql = """
            .load \(library) sqlite3_appsql_init
            CREATE TABLE tag (name TEXT NOT NULL PRIMARY KEY, note TEXT) WITHOUT ROWID;
            CREATE UNIQUE INDEX tag_name_unicase ON tag (name COLLATE unicase);
            INSERT INTO tag VALUES ('Swift', 'fast'), ('Rust', NULL);
            CREATE TABLE place (id INTEGER PRIMARY KEY, name TEXT NOT NULL, geom BLOB, note TEXT);
            CREATE VIRTUAL TABLE place_index USING rtree(id, minx, maxx, miny, maxy);
            CREATE TRIGGER place_inserted AFTER INSERT ON place WHEN NOT st_isempty(new.geom) BEGIN
              INSERT INTO place_index VALUES (new.id, st_x(new.geom), st_x(new.geom), st_y(new.geom), st_y(new.geom));
            END;
            CREATE TRIGGER place_deleted AFTER DELETE ON place BEGIN DELETE FROM place_index WHERE id = old.id; END;
            INSERT INTO place (name, geom) VALUES ('Paris', \(point(2.35, 48.85))), ('Lyon', \(point(4.83, 45.76)));
            """
        let made = try BuiltCommand.runProgram("/usr/bin/sqlite3", [database], input: sql)
        #expect(made.status == 0 && made.stderr.isEmpty, "\(made)")
        let v1 = try SchemaIntrospection(
            databaseAt: URL(fileURLWithPath: database),
            environment: SQLEnvironment(extensions: [SQLExtension(path: library, entryPoint: "sqlite3_appsql_init")])
        ).schema
        var v2 = v1
        v2.version = Schema.Version(2, 0, 0)
        for entity in v2.entities.indices {
            for attribute in v2.entities[entity].attributes.indices
            where v2.entities[entity].attributes[attribute].name == "note" {
                v2.entities[entity].attributes[attribute].isOptional = false
                v2.entities[entity].attributes[attribute].defaultValue = "''"
            }
        }
        let plan = scratch.path("plan")
        _ = try PlanDirectory(name: "App", schemas: [v1, v2], stages: []).write(to: URL(fileURLWithPath: plan))
        return (database, plan)
    }

    @Test func anAppsDatabaseIsAdoptedAndMigratedWithItsExtensionLoaded() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3") else { return }
        let scratch = Scratch()
        guard let library = try Self.buildExtension(in: scratch) else { return }
        let (database, plan) = try Self.appDatabase(scratch, extension: library)
        let load = library + ":sqlite3_appsql_init"

        // scaffold reads the file with the extension loaded.
        let scaffold = try BuiltCommand.migrate(["scaffold", "--database", database, "--load-extension", load])
        #expect(scaffold.status == 0, "\(scaffold)")
        #expect(
            scaffold.stdout.contains(#".unique("tag_name_unicase", [.column("name", collation: "unicase")])"#),
            "\(scaffold)")

        // MIGRATE_LOAD_EXTENSION fills the option; the dry run predicts success, then apply migrates.
        let dryRun = try BuiltCommand.migrate(
            ["plan", "--plan", plan, "--database", database, "--to", "2.0.0", "--format", "json"],
            environment: ["MIGRATE_LOAD_EXTENSION": load])
        #expect(dryRun.status == 0, "\(dryRun)")

        // The SQL script loads the extension as the migration did, and runs in the sqlite3 shell.
        let script = try BuiltCommand.migrate([
            "plan", "--plan", plan, "--database", database, "--to", "2.0.0", "--format", "sql", "--load-extension",
            load,
        ])
        #expect(script.status == 0, "\(script)")
        #expect(script.stdout.contains(".bail on\n.load \"\(library)\" \"sqlite3_appsql_init\"\n"), "\(script.stdout)")
        let copy = scratch.path("script-copy.sqlite")
        try FileManager.default.copyItem(atPath: database, toPath: copy)
        let shell = try BuiltCommand.runProgram("/usr/bin/sqlite3", [copy], input: script.stdout)
        #expect(shell.status == 0 && shell.stderr.isEmpty, "\(shell)")
        let scripted = try BuiltCommand.migrate([
            "status", "--plan", plan, "--database", copy, "--load-extension", load,
        ])
        #expect(scripted.status == 0 && scripted.stdout.contains("2.0.0"), "\(scripted)")

        let apply = try BuiltCommand.migrate([
            "apply", "--plan", plan, "--database", database, "--no-backup", "--load-extension", load,
        ])
        #expect(apply.status == 0, "\(apply)")
        let verify = try BuiltCommand.migrate([
            "verify", "--plan", plan, "--database", database, "--load-extension", load,
        ])
        #expect(verify.status == 0, "\(verify)")

        // The app, with its extension, finds its rows, its index and its R*Tree as they were.
        let check = try BuiltCommand.runProgram(
            "/usr/bin/sqlite3", [database],
            input: """
                .load \(library) sqlite3_appsql_init
                INSERT INTO place (name, geom) VALUES ('Nice', \(Self.point(7.26, 43.70)));
                DELETE FROM place WHERE name = 'Paris';
                SELECT group_concat(p.name) FROM place_index i JOIN place p USING (id);
                SELECT rtreecheck('place_index');
                SELECT group_concat(name || '=' || note) FROM tag;
                INSERT INTO tag (name) VALUES ('SWIFT');
                """)
        #expect(check.stdout == "Lyon,Nice\nok\nRust=,Swift=fast\n", "\(check)")
        #expect(check.stderr.contains("UNIQUE constraint failed: tag.name"), "\(check)")
    }

    @Test func withoutTheExtensionEveryCommandRefusesBeforeWritingNamingTheCollationAndTheRemedy() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3") else { return }
        let scratch = Scratch()
        guard let library = try Self.buildExtension(in: scratch) else { return }
        let (database, plan) = try Self.appDatabase(scratch, extension: library)
        let adopt = try BuiltCommand.migrate([
            "apply", "--plan", plan, "--database", database, "--to", "1.0.0", "--no-backup",
        ])
        #expect(adopt.status == 0, "\(adopt)")  // recording the version touches no table
        let before = try scratch.bytes(database)

        for format in ["text", "json", "markdown", "sql"] {
            let dryRun = try BuiltCommand.migrate(["plan", "--plan", plan, "--database", database, "--format", format])
            #expect(dryRun.status == 5, "\(format): \(dryRun)")
            if format == "json" {
                let report = try #require(try dryRun.json() as? [String: Any])
                let error = try #require(report["error"] as? [String: Any])
                #expect(error["code"] as? String == "sqlEnvironment")
                #expect((error["remedy"] as? String)?.contains("--load-extension PATH[:ENTRY]") == true)
                #expect((error["message"] as? String)?.hasPrefix("the migration needs the collation unicase") == true)
            } else {
                #expect(
                    dryRun.stderr.contains("the index tag_name_unicase (on tag) uses the collation unicase"),
                    "\(format): \(dryRun)")
                #expect(dryRun.stderr.contains("fix: register unicase"), "\(format): \(dryRun)")
            }
        }
        let apply = try BuiltCommand.migrate(["apply", "--plan", plan, "--database", database, "--no-backup"])
        #expect(apply.status == 5, "\(apply)")
        #expect(
            apply.stderr.contains("the migration needs the collation unicase, which this connection does not have"),
            "\(apply)")
        #expect(apply.stderr.contains("fix: register unicase"), "\(apply)")
        #expect(try scratch.bytes(database) == before)

        // A path that does not load is named.
        let missing = try BuiltCommand.migrate([
            "status", "--plan", plan, "--database", database, "--load-extension", scratch.path("nothing.so"),
        ])
        #expect(missing.status == 5, "\(missing)")
        #expect(
            missing.stderr.contains("cannot load the SQLite extension '\(scratch.path("nothing.so"))'"), "\(missing)")
        #expect(try scratch.bytes(database) == before)
    }
}
