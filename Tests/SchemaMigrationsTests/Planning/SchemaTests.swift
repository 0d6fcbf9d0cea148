import Foundation
import Testing

@testable import SchemaMigrations

@Suite struct SchemaTests {
    typealias A = PlanBuilder
    static let base = A.schema(1, [PersonFixture.person])

    static func changed(_ change: (inout Schema) -> Void) -> Schema {
        var copy = base
        change(&copy)
        return copy
    }

    @Test func theHashIsSixtyFourHexDigitsAndStable() {
        #expect(Self.base.versionHash.count == 64)
        #expect(Self.base.versionHash == Self.changed { _ in }.versionHash)
        #expect(Self.base.versionHash.allSatisfy { "0123456789abcdef".contains($0) })
    }

    @Test func originalNameOrderVersionAndOptionsDoNotChangeTheHash() {
        let hash = Self.base.versionHash
        #expect(Self.changed { $0.entities[0].attributes[0].originalName = "title" }.versionHash == hash)
        #expect(Self.changed { $0.entities[0].originalName = "People" }.versionHash == hash)
        #expect(Self.changed { $0.entities[0].attributes.reverse() }.versionHash == hash)
        #expect(Self.changed { $0.version = Schema.Version(9, 9, 9) }.versionHash == hash)
        #expect(Self.changed { $0.entities[0].attributes[0].options = ["spotlight"] }.versionHash == hash)
        #expect(Self.changed { $0.entities[0].attributes[0].swiftType = "Substring" }.versionHash == hash)
    }

    @Test func whatIsStoredChangesTheHash() {
        let hash = Self.base.versionHash
        #expect(Self.changed { $0.entities[0].attributes[0].hashModifier = "x" }.versionHash != hash)
        #expect(Self.changed { $0.entities[0].hashModifier = "x" }.versionHash != hash)
        #expect(Self.changed { $0.entities[0].attributes[0].name = "title" }.versionHash != hash)
        #expect(Self.changed { $0.entities[0].attributes[1].isOptional = false }.versionHash != hash)
        #expect(Self.changed { $0.entities[0].attributes[1].valueType = .double }.versionHash != hash)
        #expect(Self.changed { $0.entities[0].attributes[0].defaultValue = "'x'" }.versionHash != hash)
        #expect(Self.changed { $0.entities[0].indexes[0].isUnique = true }.versionHash != hash)
    }

    @Test func snapshotsRoundTripAndRevealTampering() throws {
        let json = try Self.base.snapshotJSON()
        #expect(try Schema(snapshotJSON: Data(json.utf8)) == Self.base)
        #expect(json.contains("\"hash\": \"\(Self.base.versionHash)\""))
        let tampered = json.replacingOccurrences(of: "\"age\"", with: "\"years\"")
        let error = try #require(throws: MigrationError.self) { try Schema(snapshotJSON: Data(tampered.utf8)) }
        #expect(error.code == .invalidSchema)
        #expect(error.message.hasPrefix("the snapshot of version 1.0.0 records hash"))
        let malformed = try #require(throws: MigrationError.self) {
            try Schema(snapshotJSON: Data(#"{"version": "1.0.0"}"#.utf8))
        }
        #expect(malformed.message == "the schema snapshot is not valid JSON of a schema: missing key 'entities'")
    }

    @Test(
        arguments: [
            (
                "duplicate entity", { @Sendable (s: inout Schema) in s.entities.append(s.entities[0]) },
                "entities 'Person' and 'Person' have the same table name (SQLite names ignore case)"
            ),
            (
                "case clash",
                { @Sendable (s: inout Schema) in
                    var e = s.entities[0]
                    e.name = "PERSON"
                    e.indexes = []
                    s.entities.append(e)
                }, "entities 'Person' and 'PERSON' have the same table name (SQLite names ignore case)"
            ),
            (
                "sqlite name",
                { @Sendable (s: inout Schema) in
                    s.entities[0].name = "sqlite_stuff"
                    s.entities[0].indexes = []
                },
                "'sqlite_stuff' is a reserved table name (SQLite reserves 'sqlite_…'; SchemaMigrations reserves '_schema_migrations' and '_sm_new_…')"
            ),
            (
                "metadata name",
                { @Sendable (s: inout Schema) in
                    s.entities[0].name = "_schema_migrations"
                    s.entities[0].indexes = []
                },
                "'_schema_migrations' is a reserved table name (SQLite reserves 'sqlite_…'; SchemaMigrations reserves '_schema_migrations' and '_sm_new_…')"
            ),
            (
                "no attributes",
                { @Sendable (s: inout Schema) in
                    s.entities[0].attributes = []
                    s.entities[0].indexes = []
                }, "entity 'Person' has no attributes"
            ),
            (
                "duplicate attribute",
                { @Sendable (s: inout Schema) in s.entities[0].attributes.append(PlanBuilder.attribute("Name", .string))
                }, "'Person' declares 'name' and 'Name', which name the same column (SQLite names ignore case)"
            ),
            (
                "id attribute",
                { @Sendable (s: inout Schema) in s.entities[0].attributes.append(PlanBuilder.attribute("id", .uuid)) },
                "'Person.id' clashes with the integer primary key column 'id' every table has"
            ),
            (
                "unknown index column",
                { @Sendable (s: inout Schema) in s.entities[0].indexes.append(Schema.Index(["nmae"])) },
                "an index of 'Person' names 'nmae', which is not an attribute of 'Person'"
            ),
            (
                "empty index", { @Sendable (s: inout Schema) in s.entities[0].indexes.append(Schema.Index([])) },
                "an index of 'Person' lists no properties"
            ),
            (
                "duplicate index",
                { @Sendable (s: inout Schema) in s.entities[0].indexes.append(Schema.Index(["name"])) },
                "'Person' declares the index (name) twice"
            ),
        ] as [(String, @Sendable (inout Schema) -> Void, String)])
    func invalidSchemasAreRefusedWithAClearMessage(
        _ label: String, _ change: @Sendable (inout Schema) -> Void, _ message: String
    ) throws {
        let error = try #require(throws: MigrationError.self) { try Self.changed(change).validate() }
        #expect(error.code == .invalidSchema, "\(label)")
        #expect(error.message == message, "\(label)")
    }

    @Test func plansRefuseDuplicateVersionsAndHashes() throws {
        let v2same = Self.changed { $0.version = Schema.Version(2, 0, 0) }
        let sameHash = try #require(throws: MigrationError.self) {
            try ResolvedPlan(name: "p", schemas: [Self.base, v2same], stages: [])
        }
        #expect(sameHash.code == .invalidPlan)
        #expect(sameHash.message.hasPrefix("versions 1.0.0 and 2.0.0 declare the same schema (hash "))
        let twice = try #require(throws: MigrationError.self) {
            try ResolvedPlan(name: "p", schemas: [Self.base, Self.base], stages: [])
        }
        #expect(twice.message == "version 1.0.0 is listed twice in the plan 'p'")
        let empty = try #require(throws: MigrationError.self) { try ResolvedPlan(name: "p", schemas: [], stages: []) }
        #expect(empty.message == "the plan 'p' lists no schema versions")
    }

    @Test func plansRefuseStagesBetweenNonConsecutiveOrUnknownVersions() throws {
        let v2 = Self.changed {
            $0.version = Schema.Version(2, 0, 0)
            $0.entities[0].hashModifier = "2"
        }
        let v3 = Self.changed {
            $0.version = Schema.Version(3, 0, 0)
            $0.entities[0].hashModifier = "3"
        }
        let skip = try #require(throws: MigrationError.self) {
            try ResolvedPlan(
                name: "p", schemas: [Self.base, v2, v3],
                stages: [PlannedStage(from: Self.base.version, to: v3.version, kind: .lightweight)])
        }
        #expect(skip.message == "a stage goes from 1.0.0 to 3.0.0, which are not consecutive versions")
        let unknown = try #require(throws: MigrationError.self) {
            try ResolvedPlan(
                name: "p", schemas: [Self.base, v2],
                stages: [PlannedStage(from: v2.version, to: Schema.Version(4, 0, 0), kind: .lightweight)])
        }
        #expect(unknown.message == "a stage goes from 2.0.0 to 4.0.0, but the plan 'p' does not list version 4.0.0")
        let plan = try ResolvedPlan(name: "p", schemas: [Self.base, v2, v3], stages: [])
        #expect(plan.stages.map(\.kind) == [.lightweight, .lightweight])
    }

    @Test func versionsParseCompareAndPrint() {
        #expect(Schema.Version("2") == Schema.Version(2, 0, 0))
        #expect(Schema.Version("1.10.3")! > Schema.Version("1.9.9")!)
        #expect(Schema.Version("1.x") == nil)
        #expect(Schema.Version(1, 2, 3).description == "1.2.3")
    }
}

extension SchemaTests {
    @Test func theHandWrittenCanonicalTextIsWhatTheCanonicalEncoderWrites() throws {
        let schemas = [
            Self.base, try Schema(GraphV2.self), try Schema(EveryTypeSchema.self),
            Self.changed {
                $0.entities[0].hashModifier = "h\"x"
                $0.entities[0].attributes[0].hashModifier = "tab\tand \\"
            },
        ]
        for schema in schemas {
            let hashed = HashedSchema(schema)
            #expect(hashed.canonicalText == (try CanonicalJSON.encode(hashed)))
        }
    }

    @Test func theHashOfAKnownSchemaIsStable() {
        // A change here would make every recorded database look like a changed released version.
        #expect(Self.base.versionHash == "5bf5f0dd9926496f32e548a5c881a83af0617dbc8d2a9edbfb0ab7a7050f69fd")
    }
}
