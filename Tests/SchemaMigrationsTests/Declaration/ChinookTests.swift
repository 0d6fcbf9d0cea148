import Foundation
import Testing

@testable import SchemaMigrations

/// A public sample database with its own conventions, declared exactly in Swift, adopted with no
/// differences, then migrated with every row, key, foreign key and index intact.
@Suite struct ChinookTests {
    /// The differences between a declared version and the live file, as adoption and `verify` see them.
    static func differences(_ version: any VersionedSchema.Type, _ db: TemporaryDatabase) throws -> [String] {
        let declared = try StorageLayout.expand(Schema(version))
        return SchemaComparison(checksDefaults: false).differences(
            declared: declared, live: try LiveSchema.read(from: db.connect())
        ).map(\.description)
    }

    static func counts(_ db: TemporaryDatabase) throws -> [String: String] {
        var counts: [String: String] = [:]
        for table in Chinook.tables {
            counts[table] = try db.scalar("SELECT count(*) FROM \(SQL.quoteIdentifier(table))")?.description
        }
        return counts
    }

    @Test func theSampleAsItIsMatchesItsDeclarationWithNoDifference() throws {
        let db = TemporaryDatabase()
        try db.execute(Chinook.sql)
        #expect(try Self.differences(ChinookV1.self, db) == [])
        let status = try Migrator(plan: ChinookPlan.self).verify(databaseAt: db.url)
        #expect(status.currentVersion == Schema.Version(1, 0, 0))
    }

    @Test func theSampleIsAdoptedAndMigratedWithEveryRowKeyAndIndex() throws {
        let db = TemporaryDatabase()
        try db.execute(Chinook.sql)
        let countsBefore = try Self.counts(db)
        let tracksBefore = try db.rows(
            "SELECT TrackId, Name, AlbumId, Composer, Milliseconds, UnitPrice FROM Track ORDER BY TrackId")

        let result = try Migrator(plan: ChinookPlan.self).migrate(databaseAt: db.url)

        #expect(result.adopted)
        #expect(result.fromVersion == Schema.Version(1, 0, 0))
        #expect(result.toVersion == Schema.Version(2, 0, 0))
        #expect(try Self.counts(db) == countsBefore)
        #expect(
            try db.rows("SELECT TrackId, Name, AlbumId, Composer, Milliseconds, UnitPrice FROM Track ORDER BY TrackId")
                == tracksBefore)
        // didMigrate wrote through the data API, by property names, addressing rows by their own key.
        #expect(
            try db.rows("SELECT TrackId, Rating FROM Track ORDER BY TrackId") == [
                ["1", "5"], ["2", "5"], ["3", "4"], ["4", "5"], ["5", "1"],
            ])
        // The renamed column, with its values.
        #expect(
            try db.rows("SELECT AlbumId, Name, ArtistId FROM Album ORDER BY AlbumId").map { $0[0] + " " + $0[2] } == [
                "1 1", "2 2", "3 2", "4 1",
            ])
        #expect(try db.columns("Album")["Name"] == "NVARCHAR(160) NOT NULL")
        #expect(try db.columns("Playlist")["Name"] == "NVARCHAR(200)")
        // Keys: rowid aliases stay aliases, the composite key stays composite.
        #expect(
            try db.scalar("SELECT group_concat(name) FROM pragma_table_info('PlaylistTrack') WHERE pk > 0 ORDER BY pk")?
                .stringValue == "PlaylistId,TrackId")
        #expect(try db.rows("SELECT rowid = AlbumId FROM Album").allSatisfy { $0 == ["1"] })
        // Foreign keys: kept, the changed one cascading now, none violated.
        #expect(
            try db.rows(
                "SELECT \"table\", \"from\", \"to\", on_delete FROM pragma_foreign_key_list('PlaylistTrack') ORDER BY \"from\""
            )
                == [
                    ["'Playlist'", "'PlaylistId'", "'PlaylistId'", "'CASCADE'"],
                    ["'Track'", "'TrackId'", "'TrackId'", "'NO ACTION'"],
                ])
        #expect(
            try db.rows("SELECT \"table\", \"to\" FROM pragma_foreign_key_list('Album')") == [
                ["'Artist'", "'ArtistId'"]
            ])
        #expect(try db.rows("PRAGMA foreign_key_check") == [])
        #expect(try db.rows("PRAGMA integrity_check") == [["'ok'"]])
        // Indexes: the sample's own, under their own names, and the new one.
        #expect(try db.indexes("Track") == ["(AlbumId)", "(Name)"])
        #expect(
            try db.scalar(
                "SELECT count(*) FROM sqlite_schema WHERE name IN ('IFK_AlbumArtistId', 'IFK_PlaylistTrackTrackId', 'IFK_TrackAlbumId')"
            )?.int64Value == 3)
        // The result is exactly V2, as verify sees it.
        #expect(try Self.differences(ChinookV2.self, db) == [])
        #expect(
            try Migrator(plan: ChinookPlan.self).verify(databaseAt: db.url).currentVersion == Schema.Version(2, 0, 0))
    }

    @Test func aPlanCreatesTheSampleFromItsDeclarationAsTheScriptDoes() throws {
        let made = TemporaryDatabase()
        let declared = TemporaryDatabase()
        try made.execute(Chinook.sql)
        try Migrator(plan: ChinookV1Only.self).migrate(databaseAt: declared.url)
        for table in Chinook.tables {
            #expect(try declared.columns(table) == made.columns(table), "\(table)")
            #expect(
                try declared.rows("SELECT name, pk FROM pragma_table_info('\(table)')")
                    == made.rows("SELECT name, pk FROM pragma_table_info('\(table)')"))
            #expect(
                try declared.rows(
                    "SELECT \"table\", \"from\", \"to\", on_update, on_delete FROM pragma_foreign_key_list('\(table)') ORDER BY \"from\""
                )
                    == made.rows(
                        "SELECT \"table\", \"from\", \"to\", on_update, on_delete FROM pragma_foreign_key_list('\(table)') ORDER BY \"from\""
                    ))
            #expect(try declared.indexes(table) == made.indexes(table))
            #expect(
                try declared.rows(
                    "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = '\(table)' AND sql IS NOT NULL ORDER BY name"
                )
                    == made.rows(
                        "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = '\(table)' AND sql IS NOT NULL ORDER BY name"
                    ))
        }
        #expect(try Self.differences(ChinookV1.self, declared) == [])
    }

    @Test func aDifferentSQLTypeIsADifferenceNamingTheColumn() throws {
        let db = TemporaryDatabase()
        try db.execute(Chinook.sql.replacingOccurrences(of: "[Title] NVARCHAR(160)", with: "[Title] TEXT"))
        #expect(try Self.differences(ChinookV1.self, db) == ["column Album.Title is TEXT, declared NVARCHAR(160)"])
    }
}

enum ChinookV1Only: SchemaMigrationPlan {
    static let schemas: [any VersionedSchema.Type] = [ChinookV1.self]
}

extension ChinookTests {
    /// The `migrate` command without the app's code: the JSON plan directory carries every new
    /// option, so it adopts the sample as the Swift plan does, and verifies it.
    @Test func aJSONPlanDirectoryOfTheDeclarationAdoptsTheSample() throws {
        let db = TemporaryDatabase()
        let scratch = TemporaryDatabase()
        try db.execute(Chinook.sql)
        let plan = scratch.directory.appendingPathComponent("plan")
        try PlanDirectory(plan: ChinookV1Only.self).write(to: plan)
        let snapshot = try String(
            contentsOf: plan.appendingPathComponent(FrozenVersions.fileName(for: Schema.Version(1, 0, 0))),
            encoding: .utf8)
        #expect(snapshot.contains(#""sqlType": "NUMERIC(10,2)""#) && snapshot.contains(#""propertyName": "unitPrice""#))
        let migrator = try Migrator(planDirectory: plan)
        #expect(try migrator.schemas() == [try Schema(ChinookV1.self)])
        let before = try db.bytes()
        #expect(try migrator.verify(databaseAt: db.url).currentVersion == Schema.Version(1, 0, 0))
        #expect(try db.bytes() == before)
        let result = try migrator.migrate(databaseAt: db.url)
        #expect(result.adopted)
        #expect(try db.recordedVersion() == "1.0.0")
    }
}
