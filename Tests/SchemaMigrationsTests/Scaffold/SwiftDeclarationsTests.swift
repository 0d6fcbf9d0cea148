import Foundation
import SchemaMigrations
import Testing

/// What `SwiftDeclarations` writes for the cases a compile cannot show at a glance: how a default
/// is said, what is left out and why, and that the same schema always gives the same source.
/// (That the source compiles and reads back as its schema is ScaffoldRoundTripTests'.)
@Suite struct SwiftDeclarationsTests {
    static func attribute(
        _ name: String, _ type: Schema.ValueType, optional: Bool = false, default value: String? = nil
    ) -> Schema.Attribute {
        Schema.Attribute(name: name, valueType: type, isOptional: optional, defaultValue: value)
    }

    static func render(_ entities: [Schema.Entity]) -> SwiftDeclarations {
        SwiftDeclarations(schema: Schema(version: Schema.Version(1, 0, 0), entities: entities), name: "App")
    }

    @Test func aDefaultIsAnInitialValueOnlyWhenItStoresAsTheVeryLiteral() {
        let source = Self.render([
            Schema.Entity(
                name: "Reading",
                attributes: [
                    Self.attribute("zero", .double, default: "0"),
                    Self.attribute("ratio", .double, default: "1.5"),
                    Self.attribute("label", .string, default: "'it''s'"),
                    Self.attribute("stamp", .string, default: "CURRENT_TIMESTAMP"),
                    Self.attribute("maybe", .integer, optional: true, default: "NULL"),
                    Self.attribute("count", .integer, default: "-3"),
                    Self.attribute("flag", .bool, default: "1"),
                    Self.attribute("blob", .data, default: "X'00FF'"),
                    Self.attribute("required", .string),
                    Self.attribute("optional", .date, optional: true),
                ])
        ]).source
        for line in [
            "@Attribute(defaultExpression: \"0\") var zero: Double",
            "var ratio = 1.5",
            "var label = \"it's\"",
            "@Attribute(defaultExpression: \"CURRENT_TIMESTAMP\") var stamp: String",
            "@Attribute(defaultExpression: \"NULL\") var maybe: Int?",
            "var count = -3",
            "var flag = true",
            "var blob = Data([0x00, 0xFF])",
            "@Attribute var required: String",
            "var optional: Date? = nil",
        ] {
            #expect(source.contains("\n        " + line + "\n"), "missing: \(line)\n\(source)")
        }
    }

    @Test func propertyNamesFollowSwiftsConventionsWithTheColumnNamedWhereItDiffers() {
        let source = Self.render([
            Schema.Entity(
                name: "api_calls",
                attributes: ["HTTPStatus", "Track2Id", "NAME", "user_url", "iPhone", "plain"].map {
                    Self.attribute($0, .string, optional: true)
                })
        ]).source
        for line in [
            "public final class ApiCalls: PersistentModel {", "public static let entityName = \"api_calls\"",
            "@Attribute(column: \"HTTPStatus\") var httpStatus: String? = nil",
            "@Attribute(column: \"Track2Id\") var track2ID: String? = nil",
            "@Attribute(column: \"NAME\") var name: String? = nil",
            "@Attribute(column: \"user_url\") var userURL: String? = nil",
            "var iPhone: String? = nil", "var plain: String? = nil",
        ] {
            #expect(
                source.contains("\n        " + line + "\n") || source.contains("\n    " + line + "\n"),
                "missing: \(line)\n\(source)")
        }
    }

    @Test func whatADeclarationCannotSayIsLeftOutWithItsReasonAndSoIsWhatRefersToIt() {
        let swift = Self.render([
            Schema.Entity(name: "Settings", attributes: [Self.attribute("payload", .json)]),
            Schema.Entity(
                name: "Profile",
                attributes: [
                    Schema.Attribute(
                        name: "settings_id", valueType: .integer,
                        references: Schema.ForeignKey(table: "Settings", onDelete: "CASCADE"))
                ]),
            Schema.Entity(name: "Note", attributes: [Self.attribute("text", .string)]),
        ])
        #expect(swift.declaredEntities == ["Note"])
        #expect(swift.leftOut.map(\.table) == ["Settings", "Profile"])
        #expect(
            swift.leftOut.map(\.notes) == [
                ["column payload holds JSON: its Codable type is not in the schema"],
                ["it refers to Settings, which is left out"],
            ])
        #expect(
            swift.source.contains(
                "//   - Settings: column payload holds JSON: its Codable type is not in the schema\n//   - Profile: it refers to Settings, which is left out\n"
            ))
        #expect(swift.source.contains("public static let models: [any PersistentModel.Type] = [Note.self]\n"))
        #expect(!swift.source.contains("class Settings"))
    }

    @Test func aJoinTableOfTheStorageLayoutIsLeftOutForItsRelationship() {
        let swift = Self.render([
            Schema.Entity(
                name: "Snippet_tags",
                attributes: [Self.attribute("Snippet_id", .integer), Self.attribute("tags_id", .integer)],
                primaryKey: ["Snippet_id", "tags_id"], isJoinTable: true)
        ])
        #expect(swift.declaredEntities.isEmpty)
        #expect(
            swift.leftOut.map(\.notes) == [
                [
                    "a join table the storage layout makes for a many-to-many relationship: declare the relationship instead"
                ]
            ])
    }

    @Test func theSameSchemaGivesTheSameSourceInDeclarationOrder() throws {
        let schema = Schema(
            version: Schema.Version(3, 1, 0),
            entities: [
                Schema.Entity(
                    name: "zebra", attributes: [Self.attribute("name", .string)],
                    indexes: [Schema.Index(["name"], name: "b"), Schema.Index(["id", "name"], name: "a")]),
                Schema.Entity(name: "Apple", attributes: [Self.attribute("name", .string)]),
            ])
        let first = SwiftDeclarations(schema: schema, name: "Orchard").source
        #expect(first == SwiftDeclarations(schema: schema, name: "Orchard").source)
        #expect(
            first.contains(
                "enum OrchardSchemaV3: VersionedSchema {\n    public static let versionIdentifier = Schema.Version(3, 1, 0)\n    public static let models: [any PersistentModel.Type] = [Zebra.self, Apple.self]\n"
            ))
        #expect(
            first.contains(
                "public static let indexNames: [String: [String]] = [\"a\": [\"id\", \"name\"], \"b\": [\"name\"]]"
            )
        )
    }

    /// A named plain index beside a unique one over the same column is a NamedIndex, which names
    /// it: indexNames, naming indexes by their columns, could not tell them apart (the scaffold
    /// used to leave such a table out).
    @Test func aNamedIndexSharingItsColumnsIsANamedIndex() throws {
        let schema = Schema(
            version: Schema.Version(1, 0, 0),
            entities: [
                Schema.Entity(
                    name: "people", attributes: [Self.attribute("email", .string)],
                    indexes: [Schema.Index(["email"], isUnique: true), Schema.Index(["email"], name: "people_email")])
            ])
        let swift = SwiftDeclarations(schema: schema, name: "People")
        #expect(swift.leftOut.isEmpty, "\(swift.leftOut)")
        #expect(
            swift.source.contains(
                #"public static let namedIndexes: [NamedIndex] = [.index("people_email", ["email"])]"#),
            "\(swift.source)")
        #expect(swift.source.contains("@Attribute(.unique) var email: String"), "\(swift.source)")
        #expect(!swift.source.contains("indexNames"))
    }
}
