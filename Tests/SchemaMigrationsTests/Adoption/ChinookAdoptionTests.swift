import Foundation
import Testing

@testable import SchemaMigrations

/// A public sample database with its own conventions (Chinook: PascalCase tables, `AlbumId`-style
/// keys, a composite key, NVARCHAR/NUMERIC/DATETIME columns, foreign keys onto the key columns,
/// named indexes), built from its project's SQL script in `Fixtures/Chinook`: introspected, every
/// table is declared, and a plan with that schema as V1 adopts the file with zero differences.
@Suite struct ChinookAdoptionTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
            "Fixtures/Chinook/Chinook_Sqlite.sql")

    /// The Chinook database, built from the script as its README says.
    static func chinook() throws -> TemporaryDatabase {
        let db = TemporaryDatabase("Chinook.sqlite")
        try db.execute(String(contentsOf: script, encoding: .utf8))
        return db
    }

    @Test func everyTableOfChinookIsDeclaredAsTheFileHasIt() throws {
        let db = try Self.chinook()
        let found = try SchemaIntrospection(databaseAt: db.url)
        #expect(found.undeclarable.isEmpty)
        #expect(found.notCarried.isEmpty)
        #expect(
            Set(found.schema.entityNames) == [
                "Album", "Artist", "Customer", "Employee", "Genre", "Invoice", "InvoiceLine", "MediaType", "Playlist",
                "PlaylistTrack", "Track",
            ])

        let album = try #require(found.schema.entity(named: "Album"))
        #expect(album.primaryKey == ["AlbumId"])
        #expect(album.attributes.map(\.property) == ["albumID", "title", "artistID"])
        #expect(
            album.attribute(named: "AlbumId")
                == Schema.Attribute(name: "AlbumId", valueType: .integer, propertyName: "albumID"))
        #expect(
            album.attribute(named: "Title")
                == Schema.Attribute(name: "Title", valueType: .string, propertyName: "title", sqlType: "NVARCHAR(160)"))
        #expect(
            album.attribute(named: "ArtistId")?.references
                == Schema.ForeignKey(table: "Artist", onDelete: "NO ACTION", column: "ArtistId"))
        #expect(album.indexes == [Schema.Index(["ArtistId"], name: "IFK_AlbumArtistId")])

        let playlistTrack = try #require(found.schema.entity(named: "PlaylistTrack"))
        #expect(playlistTrack.primaryKey == ["PlaylistId", "TrackId"] && !playlistTrack.isWithoutRowID)
        #expect(playlistTrack.attributes.map(\.references?.table) == ["Playlist", "Track"])

        let invoice = try #require(found.schema.entity(named: "Invoice"))
        #expect(
            invoice.attribute(named: "InvoiceDate")
                == Schema.Attribute(
                    name: "InvoiceDate", valueType: .date, propertyName: "invoiceDate",
                    sqlType: "DATETIME", dateStorage: .iso8601Text))
        #expect(
            invoice.attribute(named: "Total")
                == Schema.Attribute(name: "Total", valueType: .double, propertyName: "total", sqlType: "NUMERIC(10,2)"))
        let employee = try #require(found.schema.entity(named: "Employee"))
        #expect(
            employee.attribute(named: "ReportsTo")?.references
                == Schema.ForeignKey(table: "Employee", onDelete: "NO ACTION", column: "EmployeeId"))
        #expect(employee.attribute(named: "BirthDate")?.isOptional == true)
        #expect(SwiftNames.typeNames(of: found.schema)["InvoiceLine"] == "InvoiceLine")
    }

    @Test func aPlanWithTheIntrospectedSchemaAsV1AdoptsChinookWithZeroDifferences() throws {
        let db = try Self.chinook()
        let v1 = try Schema(introspecting: db.url)
        #expect(try Schema(introspecting: db.url).versionHash == v1.versionHash)
        let directory = db.directory.appendingPathComponent("plan")
        try PlanDirectory(name: "Chinook", schemas: [v1], stages: []).write(to: directory)
        let migrator = try Migrator(planDirectory: directory)
        let status = try migrator.status(databaseAt: db.url)
        #expect(status.currentVersion == Schema.Version(1, 0, 0) && !status.isRecorded && status.pendingStages.isEmpty)

        let counts =
            "SELECT (SELECT count(*) FROM Track), (SELECT total(UnitPrice) FROM InvoiceLine), (SELECT count(*) FROM PlaylistTrack), (SELECT max(InvoiceDate) FROM Invoice)"
        let before = try db.rows(counts)
        let result = try migrator.migrate(databaseAt: db.url)
        #expect(result.adopted && result.stages.isEmpty)
        #expect(try db.recordedVersion(plan: "Chinook") == "1.0.0")
        #expect(try db.rows(counts) == before)
        #expect(try db.rows("PRAGMA foreign_key_check").isEmpty)
        #expect(try migrator.verify(databaseAt: db.url).isUpToDate)
    }
}

/// After adopting Chinook with its introspected V1, a V2 written on it migrates the file with
/// every row, key, foreign key and named index kept.
@Suite struct ChinookFirstMigrationTests {
    @Test func aV2OnTheIntrospectedChinookRenamesAddsIndexesAndChecksKeepingEveryRow() throws {
        let db = try ChinookAdoptionTests.chinook()
        let v1 = try Schema(introspecting: db.url)
        var v2 = v1
        v2.version = Schema.Version(2, 0, 0)
        func entity(_ name: String) throws -> Int { try #require(v2.entities.firstIndex { $0.name == name }) }
        let track = try entity("Track")
        let album = try entity("Album")
        let customer = try entity("Customer")
        let line = try entity("InvoiceLine")
        let composer = try #require(v2.entities[track].attributes.firstIndex { $0.name == "Composer" })
        v2.entities[track].attributes[composer].name = "ComposerName"  // rename a column
        v2.entities[track].attributes[composer].originalName = "Composer"
        v2.entities[track].attributes[composer].propertyName = "composerName"
        v2.entities[album].attributes.append(
            // add an optional column
            Schema.Attribute(name: "ReleaseYear", valueType: .integer, isOptional: true, propertyName: "releaseYear"))
        v2.entities[customer].indexes.append(Schema.Index(["Email"], name: "IX_CustomerEmail"))  // add an index
        let quantity = try #require(v2.entities[line].attributes.firstIndex { $0.name == "Quantity" })
        // add a CHECK: a rebuild of a table with foreign keys
        v2.entities[line].attributes[quantity].check = "\"Quantity\" > 0"
        let directory = db.directory.appendingPathComponent("plan")
        try PlanDirectory(name: "Chinook", schemas: [v1, v2], stages: []).write(to: directory)

        let checksums = """
            SELECT (SELECT count(*) || ':' || total(TrackId * Milliseconds) || ':' || total(length(Composer)) FROM Track),
                   (SELECT count(*) || ':' || total(AlbumId * ArtistId) FROM Album),
                   (SELECT count(*) || ':' || total(InvoiceLineId * Quantity) || ':' || total(UnitPrice) FROM InvoiceLine),
                   (SELECT count(*) || ':' || total(PlaylistId * TrackId) FROM PlaylistTrack),
                   (SELECT count(*) || ':' || group_concat(CustomerId || Email) FROM (SELECT CustomerId, Email FROM Customer ORDER BY CustomerId))
            """
        let before = try db.rows(checksums)
        let result = try Migrator(planDirectory: directory).migrate(databaseAt: db.url)
        #expect(
            result.adopted && result.fromVersion == Schema.Version(1, 0, 0)
                && result.toVersion == Schema.Version(2, 0, 0))
        let after = try db.rows(checksums.replacingOccurrences(of: "length(Composer)", with: "length(ComposerName)"))
        #expect(after == before)
        #expect(try db.rows("PRAGMA integrity_check") == [["'ok'"]])
        #expect(try db.rows("PRAGMA foreign_key_check").isEmpty)
        #expect(
            try db.rows(
                "SELECT \"from\", \"table\", \"to\" FROM pragma_foreign_key_list('InvoiceLine') ORDER BY \"from\"")
                == [["'InvoiceId'", "'Invoice'", "'InvoiceId'"], ["'TrackId'", "'Track'", "'TrackId'"]])
        #expect(
            try db.rows("SELECT name FROM pragma_index_list('InvoiceLine') WHERE origin = 'c' ORDER BY name") == [
                ["'IFK_InvoiceLineInvoiceId'"], ["'IFK_InvoiceLineTrackId'"],
            ])
        #expect(
            try db.rows("SELECT name FROM sqlite_schema WHERE name = 'IX_CustomerEmail'") == [["'IX_CustomerEmail'"]])
        let lineSQL = try #require(
            try db.scalar("SELECT sql FROM sqlite_schema WHERE name = 'InvoiceLine'")?.stringValue)
        #expect(lineSQL.contains("NUMERIC(10,2)") && lineSQL.contains("CHECK (\"Quantity\" > 0)"))
        #expect(throws: SQLiteError.self) {
            try db.execute("UPDATE InvoiceLine SET Quantity = 0 WHERE InvoiceLineId = 1")
        }
        #expect(try Migrator(planDirectory: directory).verify(databaseAt: db.url).isUpToDate)
    }
}
