import Foundation
import Testing

@testable import SchemaMigrations

enum Mood: String, Codable, Sendable { case happy, sad }
enum Priority: Int, Sendable {
    case low = 1
    case high = 2
}
struct Address: Codable, Equatable, Sendable {
    var street: String
    var zip: String
}

enum EveryTypeSchema: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static let models: [any PersistentModel.Type] = [Sample.self]

    final class Sample: PersistentModel {
        static let indexes: [[String]] = [["int8", "text"]]
        static let uniqueness: [[String]] = [["uuid"], ["text", "date"]]

        var int = 0
        var int8: Int8 = 0
        var int16: Int16 = 0
        var int32: Int32 = -3
        var int64: Int64 = 0
        var uint: UInt = 0
        var uint8: UInt8 = 0
        var uint16: UInt16 = 0
        var uint32: UInt32 = 0
        var uint64: UInt64 = 0
        var double = 2.5
        var float: Float = 0.5
        var flag = true
        var text = "it's"
        var date = Date(timeIntervalSince1970: 86400)
        var data = Data([0, 255])
        var uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
        var url = URL(string: "https://example.com/a")!
        var decimal = Decimal(string: "1.10")!
        var mood = Mood.happy
        var priority = Priority.high
        var address = Address(street: "Main", zip: "1")
        var tags: [String] = ["a"]
        var optionalText: String? = nil
        var optionalNumber: Int? = 7
        var optionalMood: Mood? = nil
        @Attribute(.unique, .spotlight) var code = "x"
        @Attribute(originalName: "old_name", hashModifier: "h1") var renamed = 0
        @Attribute var required: Int
        @Transient var cache = [1, 2, 3]
        init() {}
    }
}

enum UnstorableSchema: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static let models: [any PersistentModel.Type] = [Unstorable.self]

    final class Unstorable: PersistentModel {
        var name = ""
        var handle: FileHandle? = nil
        init() {}
    }
}

@Suite struct ReflectionTests {
    static let schema = try! Schema(EveryTypeSchema.self)
    static var entity: Schema.Entity { schema.entities[0] }
    static func attribute(_ name: String) -> Schema.Attribute { entity.attribute(named: name)! }

    @Test func theEntityIsNamedAfterTheClassNotItsNamespace() {
        #expect(Self.entity.name == "Sample")
    }

    @Test func everySupportedTypeMapsToItsStorage() {
        let expected: [String: (Schema.ValueType, String?)] = [
            "int": (.integer, "0"), "int8": (.integer, "0"), "int16": (.integer, "0"), "int32": (.integer, "-3"),
            "int64": (.integer, "0"),
            "uint": (.integer, "0"), "uint8": (.integer, "0"), "uint16": (.integer, "0"), "uint32": (.integer, "0"),
            "uint64": (.integer, "0"),
            "double": (.double, "2.5"), "float": (.double, "0.5"), "flag": (.bool, "1"), "text": (.string, "'it''s'"),
            "date": (.date, "86400.0"), "data": (.data, "X'00FF'"),
            "uuid": (.uuid, "'E621E1F8-C36C-495A-93FC-0C247A3E6E5F'"),
            "url": (.url, "'https://example.com/a'"), "decimal": (.decimal, "'1.1'"), "mood": (.string, "'happy'"),
            "priority": (.integer, "2"),
            "address": (.json, #"'{"street":"Main","zip":"1"}'"#), "tags": (.json, #"'["a"]'"#),
            "optionalText": (.string, nil), "optionalNumber": (.integer, "7"), "optionalMood": (.string, nil),
            "code": (.string, "'x'"), "renamed": (.integer, "0"), "required": (.integer, nil),
        ]
        #expect(Set(Self.entity.attributes.map(\.name)) == Set(expected.keys))
        for (name, (type, defaultValue)) in expected {
            #expect(Self.attribute(name).valueType == type, "\(name)")
            #expect(Self.attribute(name).defaultValue == defaultValue, "\(name)")
        }
    }

    @Test func declarationOrderIsKept() {
        #expect(Self.entity.attributes.prefix(4).map(\.name) == ["int", "int8", "int16", "int32"])
    }

    @Test func optionalsAreOptional() {
        #expect(Self.attribute("optionalText").isOptional)
        #expect(Self.attribute("optionalMood").isOptional)
        #expect(!Self.attribute("text").isOptional)
    }

    @Test func transientPropertiesHaveNoColumn() {
        #expect(Self.entity.attribute(named: "cache") == nil)
    }

    @Test func attributeOptionsRenamesAndHashModifiersAreRecorded() {
        #expect(Self.attribute("code").options == ["spotlight"])
        #expect(Self.attribute("renamed").originalName == "old_name")
        #expect(Self.attribute("renamed").hashModifier == "h1")
        #expect(Self.attribute("mood").swiftType == "Mood")
    }

    @Test func indexesAndUniquenessAreCollected() {
        #expect(
            Self.entity.indexes.map(\.structure.description) == [
                "UNIQUE (code)", "UNIQUE (uuid)", "UNIQUE (text, date)", "(int8, text)",
            ])
    }

    @Test func anUnstorableTypeIsRefusedNamingTheProperty() throws {
        let error = try #require(throws: MigrationError.self) { try Schema(UnstorableSchema.self) }
        #expect(error.code == .unsupportedType)
        #expect(error.entity == "Unstorable")
        #expect(error.property == "handle")
        #expect(error.message == "'Unstorable.handle' has type FileHandle?, which cannot be stored in SQLite")
    }

    @Test func theSampleTableIsCreatedAndRoundTripsThroughIntrospection() throws {
        let db = TemporaryDatabase()
        let plan = try ResolvedPlan(name: "t", schemas: [Self.schema], stages: [])
        try Migrator(resolvedPlan: plan).migrate(databaseAt: db.url)
        let live = try LiveSchema.read(from: db.connect())
        #expect(SchemaComparison(checksDefaults: true).differences(declared: Self.schema, live: live) == [])
        try db.execute("INSERT INTO Sample (required) VALUES (1)")
        #expect(
            try db.rows("SELECT flag, data, mood, address, optionalNumber FROM Sample") == [
                ["1", "X'00FF'", "'happy'", #"'{"street":"Main","zip":"1"}'"#, "7"]
            ])
    }
}
