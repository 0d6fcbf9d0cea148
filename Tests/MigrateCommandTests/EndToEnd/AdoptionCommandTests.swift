import Foundation
import SchemaMigrations
import Testing

/// Starting from a database that exists: `snapshot --database`, adoption, `status` naming the
/// tool that managed the file before, and `baseline`, through the built `migrate`.
@Suite struct AdoptionCommandTests {
    /// A shop database as a GRDB app made it: its migrator's table included.
    static func shop(
        _ scratch: Scratch, _ name: String = "shop.sqlite",
        customer: String = "name TEXT NOT NULL DEFAULT '', email VARCHAR(80)"
    ) throws -> String {
        let path = scratch.path(name)
        let db = try SQLiteConnection(path: path, mode: .readWriteCreate)
        try db.execute(
            """
            CREATE TABLE Customer (id INTEGER PRIMARY KEY, \(customer));
            CREATE TABLE Purchase (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES Customer(id) ON DELETE CASCADE, total REAL NOT NULL DEFAULT 0, CHECK (total >= 0));
            CREATE INDEX purchase_customer ON Purchase(customer_id);
            CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
            INSERT INTO grdb_migrations VALUES ('v1'), ('v2');
            INSERT INTO Customer (id, email) VALUES (1, 'ann@example.com'), (2, 'bo@example.com');
            INSERT INTO Purchase VALUES (1, 1, 9.5), (2, 2, 3);
            """)
        return path
    }

    @Test func aSnapshotOfTheFileAdoptsItAndStatusNamesGRDB() throws {
        let scratch = Scratch()
        let database = try Self.shop(scratch)
        let plan = scratch.path("plan")
        var result = try BuiltCommand.migrate(["snapshot", "--database", database, "--output", plan])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.stdout == """
                wrote \(plan)/plan.json
                wrote \(plan)/schema-1.0.0.json
                declared 2 tables as version 1.0.0: Customer, Purchase
                left out (bookkeeping): grdb_migrations

                """)
        // The table CHECK is declared, so a database created from the snapshot has it too.
        let snapshot = try PlanDirectory(contentsOf: URL(fileURLWithPath: plan))
        #expect(snapshot.name == "shop")
        #expect(snapshot.schemas.first?.entity(named: "Customer")?.attribute(named: "email")?.sqlType == "VARCHAR(80)")

        result = try BuiltCommand.migrate(["plan", "--plan", plan, "--database", database])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("up to date: nothing to do"))

        result = try BuiltCommand.migrate(["status", "--plan", plan, "--database", database])
        #expect(result.status == 3, "\(result)")
        #expect(
            result.stdout.contains(
                "managed before by GRDB DatabaseMigrator (grdb_migrations): 2 migrations applied: v1, v2 (left alone)\n"
            ))
        result = try BuiltCommand.migrate(["status", "--plan", plan, "--database", database, "--format", "json"])
        let tools = try #require((try result.json() as? [String: Any])?["otherTools"] as? [[String: Any]])
        #expect(tools.first?["tool"] as? String == "grdb")
        #expect(tools.first?["recorded"] as? [String] == ["v1", "v2"])

        let grdbBefore = try scratch.rows(database, "SELECT * FROM grdb_migrations ORDER BY rowid")
        result = try BuiltCommand.migrate(["apply", "--plan", plan, "--database", database, "--no-backup"])
        #expect(result.status == 0, "\(result)")
        result = try BuiltCommand.migrate(["verify", "--plan", plan, "--database", database])
        #expect(result.status == 0, "\(result)")
        #expect(try scratch.rows(database, "SELECT * FROM grdb_migrations ORDER BY rowid") == grdbBefore)
        #expect(try scratch.rows(database, "SELECT version, kind FROM _schema_migrations") == [["'1.0.0'", "'adopt'"]])
    }

    @Test func aSnapshotIsRefusedWhenATableCannotBeDeclaredYet() throws {
        let scratch = Scratch()
        let database = scratch.path("chinook.sqlite")
        try SQLiteConnection(path: database, mode: .readWriteCreate).execute(
            """
            CREATE TABLE Artist (ArtistId INTEGER PRIMARY KEY, Name NVARCHAR(120));
            CREATE TABLE Note (id INTEGER PRIMARY KEY, body TEXT);
            CREATE TABLE Log (at TEXT, line TEXT, artist INTEGER, name TEXT, FOREIGN KEY (artist, name) REFERENCES Artist (ArtistId, Name));
            """)
        let plan = scratch.path("plan")
        let result = try BuiltCommand.migrate(["snapshot", "--database", database, "--output", plan])
        #expect(result.status == 5, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr == """
                migrate: 1 table of \(database) cannot be declared yet; nothing was written
                  Log:
                    - the constraint `FOREIGN KEY ("artist", "name") REFERENCES "Artist" ("ArtistId", "Name")` of 'Log' references (ArtistId, Name) of 'Artist', which is neither its primary key nor unique: SQLite would refuse every write with "foreign key mismatch"
                  fix: a migration leaves undeclared tables alone: --leave-out-undeclarable writes the 2 other tables (SchemaIntrospection in code)

                """)
        #expect(!FileManager.default.fileExists(atPath: plan))

        // Asked to, it writes what can be declared (Artist with its own key); the file is then adopted for those tables alone.
        var written = try BuiltCommand.migrate([
            "snapshot", "--database", database, "--output", plan, "--leave-out-undeclarable",
        ])
        #expect(written.status == 0, "\(written)")
        #expect(written.stdout.contains("declared 2 tables as version 1.0.0: Artist, Note\n"))
        #expect(
            written.stdout.contains(
                "left out (cannot be declared yet): Log: the constraint `FOREIGN KEY (\"artist\", \"name\")"
            ))
        let schemas = try PlanDirectory(contentsOf: URL(fileURLWithPath: plan)).schemas
        #expect(schemas.map(\.entityNames) == [["Artist", "Note"]])
        #expect(schemas.first?.entity(named: "Artist")?.primaryKey == ["ArtistId"])
        written = try BuiltCommand.migrate(["plan", "--plan", plan, "--database", database])
        #expect(written.status == 0 && written.stdout.contains("up to date: nothing to do"), "\(written)")
    }

    @Test func baselineAcceptsWhatItCanAndRefusesWhatIsMissingTheFileUnchanged() throws {
        let scratch = Scratch()
        let plan = scratch.path("plan")
        var result = try BuiltCommand.migrate(["snapshot", "--database", try Self.shop(scratch), "--output", plan])
        #expect(result.status == 0, "\(result)")

        // Another copy of the app's file: `name` nullable, `email` typed TEXT and an extra column. Adoption refuses it, naming the fixes.
        let close = try Self.shop(scratch, "close.sqlite", customer: "name TEXT, email TEXT, phone TEXT")
        result = try BuiltCommand.migrate(["apply", "--plan", plan, "--database", close, "--no-backup"])
        #expect(result.status == 5, "\(result)")
        #expect(
            result.stderr.contains(
                "  - Customer.name: the column is nullable: declare it optional (String?, not String)\n"))
        #expect(result.stderr.contains("  - Customer.phone: the column is not declared: add `var phone: String?`\n"))
        #expect(result.stderr.contains("`migrate snapshot --database PATH --output DIR`"))

        result = try BuiltCommand.migrate(["baseline", "--plan", plan, "--database", close, "--version", "1.0.0"])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.stdout == """
                database: \(close)
                recorded version 1.0.0 (baseline)
                accepted 3 differences, kept as the database has them:
                  - column Customer.name is nullable, declared non-optional
                  - column Customer.email is TEXT, declared VARCHAR(80)
                  - column Customer.phone is not declared

                """)
        result = try BuiltCommand.migrate(["verify", "--plan", plan, "--database", close])
        #expect(result.status == 0, "\(result)")

        // A file missing a declared column is refused, byte for byte as it was.
        let far = try Self.shop(scratch, "far.sqlite", customer: "email TEXT")
        let before = try scratch.bytes(far)
        result = try BuiltCommand.migrate([
            "baseline", "--plan", plan, "--database", far, "--version", "1.0.0", "--format", "json",
        ])
        #expect(result.status == 5, "\(result)")
        #expect(result.stderr.contains("  - column Customer.name is declared but missing from the file\n"))
        #expect(try scratch.bytes(far) == before)
    }
}
