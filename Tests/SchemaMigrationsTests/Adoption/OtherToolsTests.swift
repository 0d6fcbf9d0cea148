import Foundation
import Testing

@testable import SchemaMigrations

/// A database another migration tool managed: its bookkeeping is recognised, shown by status,
/// never a difference, never touched by a migration.
@Suite struct OtherToolsTests {
    /// The SQLite objects and rows of `tables`, as SQL literals: what "untouched" compares.
    static func contents(_ db: TemporaryDatabase, _ tables: [String]) throws -> [[String]] {
        try tables.flatMap { table in
            try db.rows("SELECT sql FROM sqlite_schema WHERE tbl_name = '\(table)' ORDER BY name")
                + db.rows("SELECT * FROM \"\(table)\" ORDER BY rowid")
        }
    }

    /// Trips as TripsV1 declares them, made by hand.
    static let tripsV1 = """
        CREATE TABLE Trip (id INTEGER PRIMARY KEY, name TEXT NOT NULL, destination TEXT NOT NULL, start_date REAL NOT NULL, end_date REAL NOT NULL);
        INSERT INTO Trip VALUES (1, 'Paris', 'France', 1, 2), (2, 'Rome', 'Italy', 3, 4);
        """

    @Test func aGRDBDatabaseIsAdoptedItsHistoryShownAndItsTableUntouched() throws {
        let db = TemporaryDatabase()
        try db.execute(
            Self.tripsV1 + """
                CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
                INSERT INTO grdb_migrations VALUES ('v1'), ('v2');
                """)
        let before = try Self.contents(db, ["grdb_migrations"])
        let migrator = Migrator(plan: TripsPlan.self)
        let status = try migrator.status(databaseAt: db.url)
        #expect(status.currentVersion == Schema.Version(1, 0, 0))
        #expect(status.otherTools.map(\.tool) == [.grdb])
        #expect(status.otherTools.first?.entries == ["v1", "v2"])
        #expect(
            status.otherTools.first?.summary == "GRDB DatabaseMigrator (grdb_migrations): 2 migrations applied: v1, v2")

        let result = try migrator.migrate(databaseAt: db.url)
        #expect(result.adopted && result.toVersion == Schema.Version(3, 0, 0))
        #expect(try Self.contents(db, ["grdb_migrations"]) == before)
        #expect(try migrator.verify(databaseAt: db.url).isUpToDate)
        #expect(try migrator.status(databaseAt: db.url).otherTools.first?.entries == ["v1", "v2"])
    }

    /// One database per tool: the table as the tool creates it, a row as it records one.
    static let tools: [(ForeignMigrationHistory.Tool, String, String)] = [
        (
            .room,
            """
            CREATE TABLE IF NOT EXISTS room_master_table (id INTEGER PRIMARY KEY,identity_hash TEXT);
            INSERT OR REPLACE INTO room_master_table (id,identity_hash) VALUES(42, '53db508c5248423325bd5393a1c88c03');
            """, "Room (room_master_table): identity hash 53db508c5248423325bd5393a1c88c03"
        ),
        (
            .alembic,
            """
            CREATE TABLE alembic_version (version_num VARCHAR(32) NOT NULL, CONSTRAINT alembic_version_pkc PRIMARY KEY (version_num));
            INSERT INTO alembic_version VALUES ('ae1027a6acf');
            """, "Alembic (alembic_version): at revision ae1027a6acf"
        ),
        (
            .django,
            """
            CREATE TABLE "django_migrations" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "app" varchar(255) NOT NULL, "name" varchar(255) NOT NULL, "applied" datetime NOT NULL);
            INSERT INTO django_migrations (app, name, applied) VALUES ('contenttypes', '0001_initial', '2024-01-01 10:00:00'), ('trips', '0001_initial', '2024-01-01 10:00:01');
            """, "Django (django_migrations): 2 migrations applied: contenttypes/0001_initial, trips/0001_initial"
        ),
        (
            .atlas,
            """
            CREATE TABLE `atlas_schema_revisions` (`version` text NOT NULL, `description` text NOT NULL, `type` integer NOT NULL DEFAULT 2, `applied` integer NOT NULL DEFAULT 0, `total` integer NOT NULL DEFAULT 0, `executed_at` datetime NOT NULL, `execution_time` integer NOT NULL, `error` text NULL, `error_stmt` text NULL, `hash` text NOT NULL, `partial_hashes` json NULL, `operator_version` text NOT NULL, PRIMARY KEY (`version`));
            INSERT INTO atlas_schema_revisions (version, description, executed_at, execution_time, hash, operator_version) VALUES ('20240101000000', 'init', '2024-01-01', 1, 'h1', 'v0.14'), ('20240202000000', 'trips', '2024-02-02', 1, 'h2', 'v0.14');
            """, "Atlas (atlas_schema_revisions): 2 revisions applied, the last 20240202000000"
        ),
        (
            .coreData,
            """
            CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
            CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
            CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB);
            INSERT INTO Z_PRIMARYKEY VALUES (1, 'Trip', 0, 2);
            """,
            "Core Data (Z_PRIMARYKEY, Z_METADATA, Z_MODELCACHE): store UUID 6B1D5E1C-0000-4000-8000-000000000001; model version identifiers: TripsV1; model entities: Trip; entities: Trip"
        ),
    ]

    @Test(arguments: 0..<5) func eachOtherToolIsRecognisedShownAndLeftAlone(_ index: Int) throws {
        let (tool, sql, summary) = Self.tools[index]
        let db = TemporaryDatabase()
        try db.execute(Self.tripsV1 + sql)
        if tool == .coreData {
            // Core Data keeps its model versions in a binary property list.
            let plist = try PropertyListSerialization.data(
                fromPropertyList: [
                    "NSStoreModelVersionIdentifiers": ["TripsV1"],
                    "NSStoreModelVersionHashes": ["Trip": Data([1, 2, 3])],
                    "NSStoreType": "SQLite", "NSStoreUUID": "6B1D5E1C-0000-4000-8000-000000000001",
                ] as [String: Any], format: .binary, options: 0)
            let connection = try db.connect()
            try connection.execute(
                "INSERT INTO Z_METADATA VALUES (1, '6B1D5E1C-0000-4000-8000-000000000001', ?)", [.blob(Array(plist))])
        }
        let migrator = Migrator(plan: TripsPlan.self)
        let status = try migrator.status(databaseAt: db.url)
        #expect(status.otherTools.map(\.tool) == [tool])
        #expect(status.otherTools.first?.summary == summary)
        let before = try Self.contents(db, tool.tables)
        #expect(try migrator.migrate(databaseAt: db.url).adopted)
        #expect(try Self.contents(db, tool.tables) == before)
        #expect(try migrator.verify(databaseAt: db.url).isUpToDate)
        // A snapshot of the file leaves the bookkeeping out.
        let found = try SchemaIntrospection(databaseAt: db.url)
        #expect(found.schema.entityNames == ["Trip"])
        #expect(Set(tool.tables).isSubset(of: Set(found.bookkeepingTables)))
    }

    /// Core Data's persistent history tables are its own beside its metadata, and an
    /// application's tables of those names anywhere else.
    @Test func coreDatasPersistentHistoryIsBookkeepingOnlyBesideItsMetadata() throws {
        let history = """
            CREATE TABLE ATRANSACTION (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZAUTHORTS INTEGER, ZTIMESTAMP TIMESTAMP);
            CREATE TABLE ACHANGE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCHANGETYPE INTEGER, ZENTITY INTEGER);
            CREATE TABLE ATRANSACTIONSTRING (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR);
            """
        let store = TemporaryDatabase()
        try store.execute(
            Self.tripsV1 + history
                + "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);")
        let found = try SchemaIntrospection(databaseAt: store.url)
        #expect(found.schema.entityNames == ["Trip"])
        #expect(Set(found.bookkeepingTables).isSuperset(of: ["ATRANSACTION", "ACHANGE", "ATRANSACTIONSTRING"]))
        let plain = TemporaryDatabase()
        try plain.execute(Self.tripsV1 + history)
        #expect(try SchemaIntrospection(databaseAt: plain.url).schema.entityNames.contains("ACHANGE"))
    }
}
