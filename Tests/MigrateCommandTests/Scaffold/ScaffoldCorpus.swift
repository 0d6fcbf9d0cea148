import Foundation
import SchemaMigrations

/// Databases made without SchemaMigrations, each scaffolded by the built `migrate scaffold` into
/// the round-trip package, compiled, and adopted by the generated plan with zero differences:
/// the public Chinook sample (`Fixtures/Chinook`), a GRDB-shaped file, one using the SQLite
/// features a declaration can say, a GIS-style file, Django 5.1's admin tables as its own
/// `migrate` made them (`Fixtures/Django`), a Fossil 2.21 repository (`Fixtures/Fossil`) and a
/// GeoPackage GDAL 3.6 wrote (`Fixtures/GeoPackage`), an Optuna 5.0 study store
/// (`Fixtures/Optuna`, made through SQLAlchemy and Alembic), a calibre 6.13 e-book library
/// (`Fixtures/Calibre`, whose views and triggers call calibre's own SQL functions, which neither
/// scaffolding nor adopting needs) and a shell's history as xonsh 0.25 keeps it (`Fixtures/Xonsh`).
enum ScaffoldCorpus {
    struct Database {
        /// The `--name` given to scaffold: the generated types are `<name>SchemaV1` and `<name>MigrationPlan`.
        var name: String
        /// Creates the database, with rows, at the URL.
        var create: @Sendable (URL) throws -> Void
    }

    static let databases = [
        Database(
            name: "Chinook",
            create: { url in
                let script = BuiltCommand.repositoryRoot.appendingPathComponent("Fixtures/Chinook/Chinook_Sqlite.sql")
                try SQLiteConnection(path: url.path, mode: .readWriteCreate).execute(
                    try String(contentsOf: script, encoding: .utf8))
            }),
        Database(
            name: "Grdb",
            create: { url in try SQLiteConnection(path: url.path, mode: .readWriteCreate).execute(grdbStyle) }),
        Database(
            name: "Features",
            create: { url in try SQLiteConnection(path: url.path, mode: .readWriteCreate).execute(features) }),
        Database(name: "Geo", create: { url in try GeoDatabase.create(at: url) }),
        Database(
            name: "Django",
            create: { url in
                try FileManager.default.copyItem(
                    at: BuiltCommand.repositoryRoot.appendingPathComponent("Fixtures/Django/admin.sqlite"), to: url)
            }),
        Database(
            name: "Fossil",
            create: { url in
                try FileManager.default.copyItem(
                    at: BuiltCommand.repositoryRoot.appendingPathComponent("Fixtures/Fossil/repo.fossil"), to: url)
            }),
        Database(
            name: "GeoPackage",
            create: { url in
                try FileManager.default.copyItem(
                    at: BuiltCommand.repositoryRoot.appendingPathComponent("Fixtures/GeoPackage/places.gpkg"), to: url)
            }),
        Database(
            name: "Optuna",
            create: { url in
                try FileManager.default.copyItem(
                    at: BuiltCommand.repositoryRoot.appendingPathComponent("Fixtures/Optuna/study.db"), to: url)
            }),
        Database(
            name: "Calibre",
            create: { url in
                try FileManager.default.copyItem(
                    at: BuiltCommand.repositoryRoot.appendingPathComponent("Fixtures/Calibre/metadata.db"), to: url)
            }),
        Database(
            name: "Xonsh",
            create: { url in
                try FileManager.default.copyItem(
                    at: BuiltCommand.repositoryRoot.appendingPathComponent("Fixtures/Xonsh/history.sqlite"), to: url)
            }),
    ]

    /// What GRDB's `DatabaseMigrator` and record types make: UUID text keys, dates as
    /// `YYYY-MM-DD HH:MM:SS.SSS` text, `BOOLEAN`, camelCase columns, and its own bookkeeping.
    static let grdbStyle = """
        CREATE TABLE "grdb_migrations" ("identifier" TEXT NOT NULL PRIMARY KEY);
        INSERT INTO "grdb_migrations" VALUES ('v1'), ('v2-players-score');
        CREATE TABLE "team" ("id" TEXT PRIMARY KEY NOT NULL, "name" TEXT NOT NULL UNIQUE, "foundedAt" DATETIME NOT NULL);
        CREATE TABLE "player" ("id" TEXT PRIMARY KEY NOT NULL,
                               "teamId" TEXT REFERENCES "team"("id") ON DELETE SET NULL,
                               "name" TEXT NOT NULL, "score" INTEGER NOT NULL DEFAULT 0, "isActive" BOOLEAN NOT NULL DEFAULT 1,
                               "createdAt" DATETIME NOT NULL, "avatar" BLOB);
        CREATE INDEX "player_on_teamId" ON "player"("teamId");
        INSERT INTO "team" VALUES ('6F9619FF-8B86-D011-B42D-00C04FC964FF', 'Reds', '2021-03-04 05:06:07.890'),
                                  ('7A9619FF-8B86-D011-B42D-00C04FC964FF', 'Blues', '2022-11-12 13:14:15.000');
        INSERT INTO "player" VALUES ('0E984725-C51C-4BF4-9960-E1C80E27ABA0', '6F9619FF-8B86-D011-B42D-00C04FC964FF', 'Ada', 12, 1, '2023-01-02 03:04:05.678', NULL),
                                    ('1E984725-C51C-4BF4-9960-E1C80E27ABA0', NULL, 'Alan', 0, 0, '2024-05-06 07:08:09.123', X'00FF');
        """

    /// Own keys (composite, AUTOINCREMENT, text), WITHOUT ROWID, STRICT, SQL type texts, CHECK,
    /// COLLATE, default expressions, foreign keys with every clause, partial and expression
    /// indexes, generated columns, conflict clauses (on keys, UNIQUE and NOT NULL), an `INTEGER
    /// PRIMARY KEY DESC` holding a NULL key; and a view and a trigger, which no declaration speaks of and
    /// adoption keeps.
    static let features = """
        CREATE TABLE "Artist" ("ArtistId" INTEGER PRIMARY KEY AUTOINCREMENT, "Name" NVARCHAR(120) NOT NULL COLLATE NOCASE CHECK (length("Name") > 0),
                               "Born" DATETIME DEFAULT CURRENT_TIMESTAMP);
        CREATE TABLE "Price" ("Sku" TEXT NOT NULL, "Currency" TEXT NOT NULL DEFAULT 'EUR', "Amount" NUMERIC(10,2) NOT NULL,
                              PRIMARY KEY ("Sku", "Currency")) WITHOUT ROWID;
        CREATE TABLE "Track" ("TrackId" INTEGER PRIMARY KEY, "ArtistId" INTEGER NOT NULL REFERENCES "Artist"("ArtistId") ON DELETE CASCADE ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED,
                              "Title" TEXT NOT NULL, "Seconds" INTEGER NOT NULL CHECK ("Seconds" >= 0), "Explicit" BOOLEAN NOT NULL DEFAULT 0,
                              "DeletedAt" REAL, "Minutes" REAL GENERATED ALWAYS AS ("Seconds" / 60.0) VIRTUAL,
                              "Long" INTEGER GENERATED ALWAYS AS ("Seconds" > 600) STORED);
        CREATE INDEX "IFK_TrackArtistId" ON "Track" ("ArtistId");
        CREATE UNIQUE INDEX "Track_live_title" ON "Track" (lower("Title"), "ArtistId") WHERE "DeletedAt" IS NULL;
        CREATE INDEX "Track_longest" ON "Track" ("Seconds" DESC);
        CREATE TABLE "Counter" ("name" TEXT PRIMARY KEY NOT NULL, "value" INTEGER NOT NULL DEFAULT 0) STRICT;
        CREATE TABLE "Play" ("id" INTEGER PRIMARY KEY ON CONFLICT REPLACE, "TrackId" INTEGER NOT NULL ON CONFLICT IGNORE,
                             "Device" TEXT UNIQUE ON CONFLICT REPLACE, "At" REAL NOT NULL DEFAULT 0, UNIQUE ("TrackId", "At") ON CONFLICT IGNORE);
        CREATE TABLE "Session" ("Device" TEXT, "Day" INTEGER, PRIMARY KEY ("Device", "Day") ON CONFLICT REPLACE);
        CREATE TABLE "Reading" ("id" INTEGER PRIMARY KEY DESC, "Value" REAL NOT NULL DEFAULT 0);
        CREATE VIEW "LiveTrack" AS SELECT "TrackId", "Title" FROM "Track" WHERE "DeletedAt" IS NULL;
        CREATE TRIGGER "Track_counts_plays" AFTER INSERT ON "Track" BEGIN UPDATE "Counter" SET "value" = "value" + 1 WHERE "name" = 'tracks'; END;
        INSERT INTO "Artist" ("Name", "Born") VALUES ('AC/DC', '1973-11-01 00:00:00'), ('Björk', '1965-11-21 00:00:00');
        INSERT INTO "Price" VALUES ('T1', 'EUR', 0.99), ('T1', 'USD', 1.09);
        INSERT INTO "Track" ("TrackId", "ArtistId", "Title", "Seconds", "Explicit", "DeletedAt") VALUES
            (1, 1, 'Highway', 208, 0, NULL), (2, 2, 'Jóga', 305, 0, NULL), (3, 2, 'Jóga', 305, 0, 1700000000.0), (4, 1, 'Epic', 720, 1, NULL);
        INSERT INTO "Counter" VALUES ('plays', 42);
        INSERT INTO "Play" ("TrackId", "Device", "At") VALUES (1, 'phone', 1.5), (2, 'tv', 2.5);
        INSERT INTO "Session" VALUES ('phone', 1), ('tv', 1);
        INSERT INTO "Reading" ("id", "Value") VALUES (NULL, 1.5), (2, 2.5);
        """

    /// Every row of every table of the database at `url`, in key order: what adopting must not change.
    static func contents(of url: URL) throws -> [String: [[SQLiteValue]]] {
        let db = try SQLiteConnection(path: url.path, mode: .readOnly)
        var result: [String: [[SQLiteValue]]] = [:]
        for table in try db.rows(
            "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> '_schema_migrations'"
        ).compactMap({ $0[0].stringValue }) {
            result[table] = try db.rows("SELECT * FROM \(SQL.quoteIdentifier(table))").sorted { "\($0)" < "\($1)" }
        }
        return result
    }
}
