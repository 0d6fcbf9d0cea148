import Testing

@testable import SchemaMigrations

/// The Swift names introspection gives columns and tables, the same `migrate scaffold` writes.
@Suite struct SwiftNamesTests {
    @Test func columnsBecomeLowerCamelCaseProperties() {
        let names = [
            "AlbumId", "created_at", "FirstName", "EMAIL", "HTTPStatus", "album_ID", "userID", "e-mail", "2fa_code",
            "Unit Price", "%", "default", "self", "Type",
        ]
        .map(SwiftNames.propertyName(forColumn:))
        #expect(
            names == [
                "albumID", "createdAt", "firstName", "email", "httpStatus", "albumID", "userID", "eMail", "_2faCode",
                "unitPrice", "column", "default", "selfColumn", "type",
            ])
        #expect(SwiftNames.spelled("default") == "`default`" && SwiftNames.spelled("albumId") == "albumId")
    }

    @Test func tablesBecomeUpperCamelCaseTypesThatDoNotClash() {
        #expect(
            ["invoice_lines", "PlaylistTrack", "Date", "order", "2020_sales"].map(SwiftNames.typeName(forTable:))
                == ["InvoiceLines", "PlaylistTrack", "DateTable", "Order", "_2020Sales"])
        let schema = Schema(
            version: Schema.Version(1, 0, 0),
            entities: ["user_account", "UserAccount2", "userAccount"].map {
                Schema.Entity(name: $0, attributes: [Schema.Attribute(name: "a", valueType: .integer)])
            })
        #expect(
            SwiftNames.typeNames(of: schema) == [
                "user_account": "UserAccount", "UserAccount2": "UserAccount2", "userAccount": "UserAccountTable",
            ])
    }
}
