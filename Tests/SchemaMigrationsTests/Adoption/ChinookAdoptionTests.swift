import Foundation
import Testing
@testable import SchemaMigrations

/// A public sample database with its own conventions (Chinook: PascalCase tables, `AlbumId`-style
/// keys, a composite key, NVARCHAR/NUMERIC/DATETIME columns, foreign keys onto the key columns,
/// named indexes), built from its project's SQL script in `Fixtures/Chinook`: introspected, every
/// table is declared, and a plan with that schema as V1 adopts the file with zero differences.
@Suite struct ChinookAdoptionTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/Chinook/Chinook_Sqlite.sql")

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
        #expect(Set(found.schema.entityNames) == ["Album", "Artist", "Customer", "Employee", "Genre", "Invoice", "InvoiceLine", "MediaType", "Playlist", "PlaylistTrack", "Track"])

        let album = try #require(found.schema.entity(named: "Album"))
        #expect(album.primaryKey == ["AlbumId"])
        #expect(album.attributes.map(\.property) == ["albumId", "title", "artistId"])
        #expect(album.attribute(named: "AlbumId") == Schema.Attribute(name: "AlbumId", valueType: .integer, propertyName: "albumId"))
        #expect(album.attribute(named: "Title") == Schema.Attribute(name: "Title", valueType: .string, propertyName: "title", sqlType: "NVARCHAR(160)"))
        #expect(album.attribute(named: "ArtistId")?.references == Schema.ForeignKey(table: "Artist", onDelete: "NO ACTION", column: "ArtistId"))
        #expect(album.indexes == [Schema.Index(["ArtistId"], name: "IFK_AlbumArtistId")])

        let playlistTrack = try #require(found.schema.entity(named: "PlaylistTrack"))
        #expect(playlistTrack.primaryKey == ["PlaylistId", "TrackId"] && !playlistTrack.isWithoutRowID)
        #expect(playlistTrack.attributes.map(\.references?.table) == ["Playlist", "Track"])

        let invoice = try #require(found.schema.entity(named: "Invoice"))
        #expect(invoice.attribute(named: "InvoiceDate") == Schema.Attribute(name: "InvoiceDate", valueType: .date, propertyName: "invoiceDate",
                                                                           sqlType: "DATETIME", dateStorage: .iso8601Text))
        #expect(invoice.attribute(named: "Total") == Schema.Attribute(name: "Total", valueType: .double, propertyName: "total", sqlType: "NUMERIC(10,2)"))
        let employee = try #require(found.schema.entity(named: "Employee"))
        #expect(employee.attribute(named: "ReportsTo")?.references == Schema.ForeignKey(table: "Employee", onDelete: "NO ACTION", column: "EmployeeId"))
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

        let counts = "SELECT (SELECT count(*) FROM Track), (SELECT total(UnitPrice) FROM InvoiceLine), (SELECT count(*) FROM PlaylistTrack), (SELECT max(InvoiceDate) FROM Invoice)"
        let before = try db.rows(counts)
        let result = try migrator.migrate(databaseAt: db.url)
        #expect(result.adopted && result.stages.isEmpty)
        #expect(try db.recordedVersion(plan: "Chinook") == "1.0.0")
        #expect(try db.rows(counts) == before)
        #expect(try db.rows("PRAGMA foreign_key_check").isEmpty)
        #expect(try migrator.verify(databaseAt: db.url).isUpToDate)
    }
}
