import Foundation
import Testing

@testable import SchemaMigrations

/// `Schema(introspecting:)`: a live file's schema as a first version that adopts it with zero
/// differences, or a refusal naming what cannot be declared yet.
@Suite struct IntrospectionTests {
    static let handMade = """
        CREATE TABLE Artist (id INTEGER PRIMARY KEY AUTOINCREMENT, name NVARCHAR(120) NOT NULL, born INTEGER, rating REAL DEFAULT 0.5, photo BLOB, notes);
        CREATE TABLE Album (id INTEGER PRIMARY KEY, title TEXT NOT NULL DEFAULT '' CHECK (length(title) < 200),
                            artist_id INTEGER NOT NULL REFERENCES Artist(id) ON DELETE CASCADE, code TEXT COLLATE NOCASE, UNIQUE (title, artist_id));
        CREATE INDEX album_artist ON Album(artist_id);
        CREATE UNIQUE INDEX album_code ON Album(code);
        CREATE INDEX album_recent ON Album(title) WHERE artist_id > 10;
        CREATE INDEX album_artist_again ON Album(artist_id);
        CREATE TRIGGER album_touch AFTER UPDATE ON Album BEGIN SELECT 1; END;
        CREATE VIEW albums_by_artist AS SELECT Artist.name, Album.title FROM Album JOIN Artist ON Artist.id = Album.artist_id;
        INSERT INTO Artist (name, born, notes) VALUES ('Nina', 1933, 'x'), ('Miles', 1926, NULL);
        INSERT INTO Album (title, artist_id, code) VALUES ('Pastel Blues', 1, 'pb'), ('Kind of Blue', 2, 'kob');
        """

    @Test func aHandMadeDatabaseBecomesAV1ThatAdoptsItWithZeroDifferences() throws {
        let db = TemporaryDatabase()
        try db.execute(Self.handMade)
        let found = try SchemaIntrospection(databaseAt: db.url)
        #expect(found.undeclarable.isEmpty)
        #expect(found.schema.entityNames == ["Artist", "Album"])
        let album = try #require(found.schema.entity(named: "Album"))
        #expect(
            album.attribute(named: "artist_id")?.references
                == Schema.ForeignKey(table: "Artist", onDelete: "CASCADE", column: "id"))  // Artist's own key
        #expect(
            Set(album.indexes.map(\.structure.description)) == [
                "(artist_id)", "UNIQUE (code)", "(title) WHERE artist_id > 10",
            ])
        // The table's UNIQUE constraint stays one (SQLite's own index, origin u), not a CREATE INDEX.
        #expect(album.constraints == [.unique(["title", "artist_id"])])
        // An untyped column holding text: declared by what it holds, every value kept as stored.
        #expect(found.schema.entity(named: "Artist")?.attribute(named: "notes")?.valueType == .sqliteValue)
        // What a migration keeps but the model does not say is listed, not dropped silently.
        let kept = found.notCarried.flatMap { table in table.notes.map { "\(table.table): \($0)" } }
        #expect(!kept.contains { $0.hasPrefix("Artist: AUTOINCREMENT") || $0.contains("CHECK") })
        // What the declarations can say is declared: the key with AUTOINCREMENT, the type text, the CHECK, the collation.
        let artist = try #require(found.schema.entity(named: "Artist"))
        #expect(artist.primaryKey == ["id"] && artist.isAutoincrement)
        #expect(artist.attribute(named: "name")?.sqlType == "NVARCHAR(120)")
        #expect(album.attribute(named: "title")?.check == "length(title) < 200")
        #expect(album.attribute(named: "code")?.collation == "NOCASE")
        #expect(album.attribute(named: "artist_id")?.propertyName == "artistID")
        #expect(!kept.contains { $0.contains("album_recent") })  // a partial index is declared
        // A second index over the same columns is declared under its own name.
        #expect(
            album.indexes.filter { $0.columns == ["artist_id"] }.map(\.name) == ["album_artist", "album_artist_again"])
        #expect(!kept.contains { $0.contains("album_artist_again") })
        // Its view and trigger are declared, so a database created from the snapshot has them.
        #expect(found.schema.sqlObjects.map(\.description) == ["trigger album_touch", "view albums_by_artist"])
        #expect(!kept.contains { $0.hasPrefix("albums_by_artist") || $0.hasPrefix("album_touch") })

        // The snapshot adopts the file: nothing to migrate, version recorded, rows as they were.
        let directory = db.directory.appendingPathComponent("plan")
        try PlanDirectory(name: "Music", schemas: [try Schema(introspecting: db.url)], stages: []).write(to: directory)
        let migrator = try Migrator(planDirectory: directory)
        let status = try migrator.status(databaseAt: db.url)
        #expect(status.currentVersion == Schema.Version(1, 0, 0) && !status.isRecorded && status.pendingStages.isEmpty)
        let rows = try db.rows("SELECT * FROM Album ORDER BY id")
        let result = try migrator.migrate(databaseAt: db.url)
        #expect(result.adopted && result.stages.isEmpty)
        #expect(try db.recordedVersion(plan: "Music") == "1.0.0")
        #expect(try db.rows("SELECT * FROM Album ORDER BY id") == rows)
        #expect(try migrator.verify(databaseAt: db.url).isUpToDate)
    }
}

/// After adoption, a second version written by hand migrates the file, keeping what the
/// snapshot did not carry.
@Suite struct IntrospectedFirstMigrationTests {
    @Test func aV2OnTheSnapshotMigratesWithEveryRowKeyAndClauseKept() throws {
        let db = TemporaryDatabase()
        try db.execute(
            IntrospectionTests.handMade + """
                CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
                INSERT INTO grdb_migrations VALUES ('v1');
                """)
        let v1 = try Schema(introspecting: db.url)
        var v2 = v1
        v2.version = Schema.Version(2, 0, 0)
        let artist = try #require(v2.entities.firstIndex { $0.name == "Artist" })
        let album = try #require(v2.entities.firstIndex { $0.name == "Album" })
        v2.entities[artist].indexes.append(Schema.Index(["name"]))  // add an index
        let rating = try #require(v2.entities[artist].attributes.firstIndex { $0.name == "rating" })
        v2.entities[artist].attributes[rating].isOptional = false  // rating: NOT NULL (a rebuild)
        // add an optional column
        v2.entities[album].attributes.append(Schema.Attribute(name: "year", valueType: .integer, isOptional: true))
        let code = try #require(v2.entities[album].attributes.firstIndex { $0.name == "code" })
        v2.entities[album].attributes[code].name = "catalog"  // rename a column
        v2.entities[album].attributes[code].originalName = "code"
        v2.entities[album].indexes = v2.entities[album].indexes.map { index in
            Schema.Index(
                index.columns.map { $0 == "code" ? "catalog" : $0 }, isUnique: index.isUnique, name: index.name)
        }
        try db.execute("UPDATE Artist SET rating = 0.5 WHERE rating IS NULL")
        let directory = db.directory.appendingPathComponent("plan")
        try PlanDirectory(name: "Music", schemas: [v1, v2], stages: []).write(to: directory)

        let result = try Migrator(planDirectory: directory).migrate(databaseAt: db.url)
        #expect(
            result.adopted && result.fromVersion == Schema.Version(1, 0, 0)
                && result.toVersion == Schema.Version(2, 0, 0))
        #expect(
            try db.rows("SELECT id, title, artist_id, catalog, year FROM Album ORDER BY id") == [
                ["1", "'Pastel Blues'", "1", "'pb'", "NULL"], ["2", "'Kind of Blue'", "2", "'kob'", "NULL"],
            ])
        #expect(
            try db.rows("SELECT id, name, rating FROM Artist ORDER BY id") == [
                ["1", "'Nina'", "0.5"], ["2", "'Miles'", "0.5"],
            ])
        #expect(try db.rows("PRAGMA integrity_check") == [["'ok'"]])
        #expect(try db.rows("PRAGMA foreign_key_check").isEmpty)
        let artistSQL = try #require(try db.scalar("SELECT sql FROM sqlite_schema WHERE name = 'Artist'")?.stringValue)
        #expect(artistSQL.contains("AUTOINCREMENT") && artistSQL.contains("NVARCHAR(120)"))
        let albumSQL = try #require(try db.scalar("SELECT sql FROM sqlite_schema WHERE name = 'Album'")?.stringValue)
        #expect(albumSQL.contains("CHECK (length(title) < 200)") && albumSQL.contains("COLLATE NOCASE"))
        #expect(
            try db.rows(
                "SELECT name FROM sqlite_schema WHERE type IN ('index', 'view', 'trigger') AND sql IS NOT NULL ORDER BY name"
            )
                == [
                    ["'Artist_name'"], ["'album_artist'"], ["'album_artist_again'"], ["'album_code'"],
                    ["'album_recent'"], ["'album_touch'"], ["'albums_by_artist'"],
                ])
        #expect(try db.rows("SELECT * FROM grdb_migrations") == [["'v1'"]])
        #expect(try Migrator(planDirectory: directory).verify(databaseAt: db.url).isUpToDate)
    }
}
