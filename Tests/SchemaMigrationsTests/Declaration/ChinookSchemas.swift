import Foundation

@testable import SchemaMigrations

/// A few tables of the Chinook sample database (github.com/lerocha/chinook-database, MIT licence),
/// with its own conventions: PascalCase tables and columns, `AlbumId INTEGER` keys declared as
/// table constraints, a composite key on the link table, `NVARCHAR(160)` and `NUMERIC(10,2)`,
/// foreign keys onto the key columns with `NO ACTION` rules, and indexes on the foreign keys —
/// written as its `sqlite3` script writes them (bracket quoting and all).
enum Chinook {
    static let sql = """
        CREATE TABLE [Artist]
        (
            [ArtistId] INTEGER  NOT NULL,
            [Name] NVARCHAR(120),
            CONSTRAINT [PK_Artist] PRIMARY KEY  ([ArtistId])
        );
        CREATE TABLE [Album]
        (
            [AlbumId] INTEGER  NOT NULL,
            [Title] NVARCHAR(160)  NOT NULL,
            [ArtistId] INTEGER  NOT NULL,
            CONSTRAINT [PK_Album] PRIMARY KEY  ([AlbumId]),
            FOREIGN KEY ([ArtistId]) REFERENCES [Artist] ([ArtistId])
                ON DELETE NO ACTION ON UPDATE NO ACTION
        );
        CREATE TABLE [Track]
        (
            [TrackId] INTEGER  NOT NULL,
            [Name] NVARCHAR(200)  NOT NULL,
            [AlbumId] INTEGER,
            [Composer] NVARCHAR(220),
            [Milliseconds] INTEGER  NOT NULL,
            [UnitPrice] NUMERIC(10,2)  NOT NULL,
            CONSTRAINT [PK_Track] PRIMARY KEY  ([TrackId]),
            FOREIGN KEY ([AlbumId]) REFERENCES [Album] ([AlbumId])
                ON DELETE NO ACTION ON UPDATE NO ACTION
        );
        CREATE TABLE [Playlist]
        (
            [PlaylistId] INTEGER  NOT NULL,
            [Name] NVARCHAR(120),
            CONSTRAINT [PK_Playlist] PRIMARY KEY  ([PlaylistId])
        );
        CREATE TABLE [PlaylistTrack]
        (
            [PlaylistId] INTEGER  NOT NULL,
            [TrackId] INTEGER  NOT NULL,
            CONSTRAINT [PK_PlaylistTrack] PRIMARY KEY  ([PlaylistId], [TrackId]),
            FOREIGN KEY ([PlaylistId]) REFERENCES [Playlist] ([PlaylistId])
                ON DELETE NO ACTION ON UPDATE NO ACTION,
            FOREIGN KEY ([TrackId]) REFERENCES [Track] ([TrackId])
                ON DELETE NO ACTION ON UPDATE NO ACTION
        );
        CREATE INDEX [IFK_AlbumArtistId] ON [Album] ([ArtistId]);
        CREATE INDEX [IFK_PlaylistTrackTrackId] ON [PlaylistTrack] ([TrackId]);
        CREATE INDEX [IFK_TrackAlbumId] ON [Track] ([AlbumId]);
        INSERT INTO [Artist] ([ArtistId], [Name]) VALUES (1, 'AC/DC'), (2, 'Accept'), (3, 'Aerosmith');
        INSERT INTO [Album] ([AlbumId], [Title], [ArtistId]) VALUES (1, 'For Those About To Rock We Salute You', 1), (2, 'Balls to the Wall', 2), (3, 'Restless and Wild', 2), (4, 'Let There Be Rock', 1);
        INSERT INTO [Track] ([TrackId], [Name], [AlbumId], [Composer], [Milliseconds], [UnitPrice]) VALUES
            (1, 'For Those About To Rock (We Salute You)', 1, 'Angus Young, Malcolm Young, Brian Johnson', 343719, 0.99),
            (2, 'Balls to the Wall', 2, NULL, 342562, 0.99),
            (3, 'Fast As a Shark', 3, 'F. Baltes, S. Kaufman, U. Dirkscneider & W. Hoffman', 230619, 0.99),
            (4, 'Go Down', 4, 'AC/DC', 331180, 1.99),
            (5, 'Loose Single', NULL, NULL, 1000, 0.5);
        INSERT INTO [Playlist] ([PlaylistId], [Name]) VALUES (1, 'Music'), (8, 'Heavy Metal Classic');
        INSERT INTO [PlaylistTrack] ([PlaylistId], [TrackId]) VALUES (1, 1), (1, 2), (1, 3), (8, 1), (8, 4);
        """

    static let tables = ["Artist", "Album", "Track", "Playlist", "PlaylistTrack"]
}

/// Chinook as it is, declared in Swift: idiomatic property names on PascalCase columns.
enum ChinookV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static let models: [any PersistentModel.Type] = [
        Artist.self, Album.self, Track.self, Playlist.self, PlaylistTrack.self,
    ]

    final class Artist: PersistentModel {
        @Attribute(.primaryKey, column: "ArtistId") var artistID: Int
        @Attribute(column: "Name", sqlType: "NVARCHAR(120)") var name: String?
        init() {}
    }

    final class Album: PersistentModel {
        static let indexes: [[String]] = [["artistID"]]
        static let indexNames = ["IFK_AlbumArtistId": ["artistID"]]
        @Attribute(.primaryKey, column: "AlbumId") var albumID: Int
        @Attribute(column: "Title", sqlType: "NVARCHAR(160)") var title: String
        @Attribute(column: "ArtistId", references: .to(Artist.self)) var artistID: Int
        init() {}
    }

    final class Track: PersistentModel {
        static let indexes: [[String]] = [["albumID"]]
        static let indexNames = ["IFK_TrackAlbumId": ["albumID"]]
        @Attribute(.primaryKey, column: "TrackId") var trackID: Int
        @Attribute(column: "Name", sqlType: "NVARCHAR(200)") var name: String
        @Attribute(column: "AlbumId", references: .to(Album.self, onUpdate: .noAction)) var albumID: Int?
        @Attribute(column: "Composer", sqlType: "NVARCHAR(220)") var composer: String?
        @Attribute(column: "Milliseconds") var milliseconds: Int
        @Attribute(column: "UnitPrice", sqlType: "NUMERIC(10,2)") var unitPrice: Double
        init() {}
    }

    final class Playlist: PersistentModel {
        @Attribute(.primaryKey, column: "PlaylistId") var playlistID: Int
        @Attribute(column: "Name", sqlType: "NVARCHAR(120)") var name: String?
        init() {}
    }

    final class PlaylistTrack: PersistentModel {
        static let primaryKey: [String]? = ["playlistID", "trackID"]
        static let indexes: [[String]] = [["trackID"]]
        static let indexNames = ["IFK_PlaylistTrackTrackId": ["trackID"]]
        @Attribute(column: "PlaylistId", references: .to(Playlist.self)) var playlistID: Int
        @Attribute(column: "TrackId", references: .to(Track.self)) var trackID: Int
        init() {}
    }
}

/// The first migration: a column renamed (`Album.Title` to `Name`), an optional column added
/// (`Track.Rating`, filled by `didMigrate` through the data API), an index added (`Track.Name`),
/// and options changed (`Playlist.Name` to `NVARCHAR(200)`, `PlaylistTrack` cascading deletes).
enum ChinookV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static let models: [any PersistentModel.Type] = [
        Artist.self, Album.self, Track.self, Playlist.self, PlaylistTrack.self,
    ]

    typealias Artist = ChinookV1.Artist

    final class Album: PersistentModel {
        static let indexes: [[String]] = [["artistID"]]
        static let indexNames = ["IFK_AlbumArtistId": ["artistID"]]
        @Attribute(.primaryKey, column: "AlbumId") var albumID: Int
        @Attribute(column: "Name", sqlType: "NVARCHAR(160)") var title: String
        @Attribute(column: "ArtistId", references: .to(Artist.self)) var artistID: Int
        init() {}
    }

    final class Track: PersistentModel {
        static let indexes: [[String]] = [["albumID"], ["name"]]
        static let indexNames = ["IFK_TrackAlbumId": ["albumID"]]
        @Attribute(.primaryKey, column: "TrackId") var trackID: Int
        @Attribute(column: "Name", sqlType: "NVARCHAR(200)") var name: String
        @Attribute(column: "AlbumId", references: .to(Album.self, onUpdate: .noAction)) var albumID: Int?
        @Attribute(column: "Composer", sqlType: "NVARCHAR(220)") var composer: String?
        @Attribute(column: "Milliseconds") var milliseconds: Int
        @Attribute(column: "UnitPrice", sqlType: "NUMERIC(10,2)") var unitPrice: Double
        @Attribute(column: "Rating") var rating: Int?
        init() {}
    }

    final class Playlist: PersistentModel {
        @Attribute(.primaryKey, column: "PlaylistId") var playlistID: Int
        @Attribute(column: "Name", sqlType: "NVARCHAR(200)") var name: String?
        init() {}
    }

    final class PlaylistTrack: PersistentModel {
        static let primaryKey: [String]? = ["playlistID", "trackID"]
        static let indexes: [[String]] = [["trackID"]]
        static let indexNames = ["IFK_PlaylistTrackTrackId": ["trackID"]]
        @Attribute(column: "PlaylistId", references: .to(Playlist.self, onDelete: .cascade)) var playlistID: Int
        @Attribute(column: "TrackId", references: .to(Track.self)) var trackID: Int
        init() {}
    }
}

enum ChinookPlan: SchemaMigrationPlan {
    static let schemas: [any VersionedSchema.Type] = [ChinookV1.self, ChinookV2.self]
    static let stages: [MigrationStage] = [
        .custom(
            fromVersion: ChinookV1.self, toVersion: ChinookV2.self, willMigrate: nil,
            didMigrate: { context in
                // One star per started minute, up to five, by the property names of the declaration.
                try context.forEach("Track", properties: ["milliseconds"]) { track in
                    let minutes = try track.value("milliseconds", as: Int.self) / 60_000
                    try context.update("Track", id: track.id, values: ["rating": min(5, minutes + 1)])
                }
            })
    ]
}
