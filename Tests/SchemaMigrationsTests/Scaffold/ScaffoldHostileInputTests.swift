import Foundation
import Testing

@testable import SchemaMigrations

/// Scaffolding what a careless or hostile database or caller hands it: tables and plans named
/// like the types the generated file uses or like Swift keywords, the widest tables SQLite
/// allows, STRICT `ANY` columns. (That the results compile is ScaffoldRoundTripTests'.)
@Suite struct ScaffoldHostileInputTests {
    static func render(_ entities: [Schema.Entity], name: String = "App") -> SwiftDeclarations {
        SwiftDeclarations(schema: Schema(version: Schema.Version(1, 0, 0), entities: entities), name: name)
    }

    /// One entity using every feature the renderer has words for: named and expression indexes,
    /// uniqueness, a foreign key, every value type with a default, date storages, a generated
    /// column, CHECK, COLLATE, an SQL type, a hash modifier and original name.
    static var everyFeature: [Schema.Entity] {
        let parent = Schema.Entity(
            name: "Parent", attributes: [Schema.Attribute(name: "label", valueType: .string, defaultValue: "''")])
        let child = Schema.Entity(
            name: "Child", originalName: "OldChild", hashModifier: "2",
            attributes: [
                Schema.Attribute(
                    name: "label", valueType: .string, defaultValue: "'x'", sqlType: "NVARCHAR(20)",
                    check: "length(label) > 0", collation: "NOCASE"),
                Schema.Attribute(name: "count", valueType: .integer, defaultValue: "3"),
                Schema.Attribute(name: "ratio", valueType: .double, defaultValue: "1.5"),
                Schema.Attribute(name: "flag", valueType: .bool, defaultValue: "1"),
                Schema.Attribute(name: "at", valueType: .date, defaultValue: "0.5"),
                Schema.Attribute(name: "day", valueType: .date, isOptional: true, dateStorage: .iso8601Text),
                Schema.Attribute(name: "bytes", valueType: .data, defaultValue: "X'00'"),
                Schema.Attribute(
                    name: "uuid", valueType: .uuid, defaultValue: "'E621E1F8-C36C-495A-93FC-0C247A3E6E5F'"),
                Schema.Attribute(name: "url", valueType: .url, defaultValue: "'https://example.com'"),
                Schema.Attribute(name: "amount", valueType: .decimal, defaultValue: "'1.25'"),
                Schema.Attribute(
                    name: "parent_id", valueType: .integer, isOptional: true,
                    references: Schema.ForeignKey(table: "Parent", onDelete: "CASCADE")),
                Schema.Attribute(
                    name: "total", valueType: .integer, isOptional: true, generated: .virtual("count * 2")),
            ],
            indexes: [
                Schema.Index(["label"], isUnique: true),
                Schema.Index(elements: [.expression("lower(label)")], name: "child_lower", predicate: "count > 0"),
            ])
        return [parent, child]
    }

    /// The capitalised names the source mentions as types: outside string literals and comments,
    /// not after a `.` (a member such as `Schema.Version` or `.Type`).
    static func typeNames(in source: String) -> Set<String> {
        var names = Set<String>()
        var scalars = Array(source.unicodeScalars)[...]
        var previous: Unicode.Scalar = " "
        while let scalar = scalars.first {
            if scalar == "/", scalars.dropFirst().first == "/" {
                scalars = scalars.drop { $0 != "\n" }
            } else if scalar == "\"" {
                scalars = scalars.dropFirst()
                while let next = scalars.first, next != "\"" { scalars = scalars.dropFirst(next == "\\" ? 2 : 1) }
                scalars = scalars.dropFirst()
                previous = "\""
            } else if scalar.properties.isXIDStart || scalar == "_" {
                let word = String(String.UnicodeScalarView(scalars.prefix { $0.properties.isXIDContinue }))
                scalars = scalars.dropFirst(word.unicodeScalars.count)
                if previous != ".", let first = word.first, first.isUppercase { names.insert(word) }
                previous = "a"
            } else {
                if !scalar.properties.isWhitespace { previous = scalar }
                scalars = scalars.dropFirst()
            }
        }
        return names
    }

    /// A table named `NamedIndex` used to give Swift that does not compile: the model shadowed
    /// the library's type inside the version's enum.
    @Test func everyTypeNameTheGeneratedFileMentionsIsReservedOrItsOwn() {
        let swift = Self.render(Self.everyFeature)
        let own = Set([swift.schemaTypeName, swift.planTypeName, "Parent", "Child"])
        let mentioned = Self.typeNames(in: swift.source)
        #expect(swift.leftOut.isEmpty, "\(swift.leftOut)")
        #expect(mentioned.contains("NamedIndex"), "the case uses a named index:\n\(swift.source)")
        #expect(
            mentioned.subtracting(own).subtracting(ScaffoldNames.reservedTypeNames).isEmpty,
            "not reserved: \(mentioned.subtracting(own).subtracting(ScaffoldNames.reservedTypeNames).sorted())\n\(swift.source)"
        )
    }

    @Test(
        arguments: ScaffoldNames.reservedTypeNames.sorted() + [
            "NamedIndex", "AppSchemaV1", "AppMigrationPlan", "Self", "Type", "Protocol", "self", "class",
        ])
    func aTableNamedLikeATypeTheFileUsesOrAKeywordIsGivenAnotherTypeName(table: String) {
        let swift = Self.render(
            Self.everyFeature + [
                Schema.Entity(
                    name: table, attributes: [Schema.Attribute(name: "value", valueType: .integer, defaultValue: "0")])
            ])
        let type = ScaffoldNames(
            schema: Schema(
                version: Schema.Version(1, 0, 0),
                entities: Self.everyFeature + [Schema.Entity(name: table, attributes: [])]),
            taken: [swift.schemaTypeName, swift.planTypeName]
        ).type(table)
        #expect(
            !ScaffoldNames.reservedTypeNames.contains(type) && type != "NamedIndex"
                && !SwiftIdentifier.keywords.contains(type), "\(table) → \(type)")
        #expect(
            ![swift.schemaTypeName, swift.planTypeName, "Self", "Type", "Protocol"].contains(type), "\(table) → \(type)"
        )
        #expect(
            swift.source.contains(
                "public final class \(type): PersistentModel {\n        public static let entityName = \(SwiftInitialValue.stringLiteral(table))\n"
            ),
            "\(table) → \(type)\n\(swift.source)")
    }

    @Test(arguments: [
        ("class", "ClassSchemaV1", "ClassMigrationPlan"), ("Self", "SelfSchemaV1", "SelfMigrationPlan"),
        ("", "AppSchemaV1", "AppMigrationPlan"),
        ("\"quoted\"", "QuotedSchemaV1", "QuotedMigrationPlan"),
        ("NamedIndex", "NamedIndexSchemaV1", "NamedIndexMigrationPlan"),
        ("Date", "DateSchemaV1", "DateMigrationPlan"), ("a\\\"b\n", "ABSchemaV1", "ABMigrationPlan"),
        ("123", "_123SchemaV1", "_123MigrationPlan"),
        ("😀", "AppSchemaV1", "AppMigrationPlan"),
    ])
    func anyPlanNameGivesUsableTypeNamesAndIsKeptAsTheStringItIs(name: String, schemaType: String, planType: String) {
        let swift = Self.render(Self.everyFeature, name: name)
        #expect(swift.schemaTypeName == schemaType)
        #expect(swift.planTypeName == planType)
        #expect(swift.source.contains("    public static let name = \(SwiftInitialValue.stringLiteral(name))\n"))
    }

    /// A table of more date-named columns than one profiling query can hold used to fail the
    /// scaffold with SQLite's "too many columns in result set".
    @Test(arguments: [450, 2000])
    func aTableOfAsManyDateColumnsAsSQLiteAllowsIsScaffolded(columns: Int) throws {
        let db = TemporaryDatabase()
        let names = (1...columns - 1).map { "r\($0)" }
        try db.execute(
            "CREATE TABLE Reading (id INTEGER PRIMARY KEY, " + names.map { "\($0) DATETIME" }.joined(separator: ", ")
                + ")")
        try db.execute(
            "INSERT INTO Reading VALUES (1, " + names.map { _ in "'2024-01-02 03:04:05'" }.joined(separator: ", ") + ")"
        )
        try db.execute(
            "INSERT INTO Reading VALUES (2, " + names.map { _ in "1700000000.5" }.joined(separator: ", ") + ")")
        let found = try SchemaIntrospection(databaseAt: db.url)
        #expect(found.undeclarable.isEmpty)
        let entity = try #require(found.schema.entity(named: "Reading"))
        #expect(entity.attributes.count == columns - 1)
        #expect(
            entity.attributes.allSatisfy { $0.valueType == .date && $0.sqlType == "DATETIME" && $0.dateStorage == nil })
        let swift = SwiftDeclarations(schema: found.schema, name: "Readings")
        #expect(swift.leftOut.isEmpty)
        #expect(swift.declaredEntities == ["Reading"])
        // The schema adopts the file with zero differences, every row kept.
        let before = try db.rows("SELECT * FROM Reading ORDER BY id")
        let result = try PlanBuilder.migrator([found.schema]).migrate(databaseAt: db.url)
        #expect(result.adopted)
        #expect(try db.rows("SELECT * FROM Reading ORDER BY id") == before)
    }

    /// A STRICT table's `ANY` column keeps every value as given; it used to be left out as if it
    /// had NUMERIC affinity (which `ANY` has only in a table that is not STRICT).
    @Test func aStrictTablesAnyColumnIsDeclaredAndAdoptedWithItsValuesAsGiven() throws {
        let db = TemporaryDatabase()
        try db.execute(
            """
            CREATE TABLE Setting (id INTEGER PRIMARY KEY, name TEXT NOT NULL, value ANY, fallback ANY NOT NULL DEFAULT 'none') STRICT;
            INSERT INTO Setting (id, name, value) VALUES (1, 'theme', 'dark'), (2, 'size', '012'), (3, 'none', NULL);
            CREATE TABLE Loose (id INTEGER PRIMARY KEY, value ANY);
            INSERT INTO Loose VALUES (1, 'text');
            """)
        let found = try SchemaIntrospection(databaseAt: db.url)
        // In a table that is not STRICT, ANY has NUMERIC affinity: the text there is kept as an SQLiteValue.
        #expect(found.undeclarable.isEmpty)
        let loose = try #require(found.schema.entity(named: "Loose")?.attribute(named: "value"))
        #expect(loose.valueType == .sqliteValue && loose.sqlType == "ANY")
        let setting = try #require(found.schema.entity(named: "Setting"))
        #expect(setting.isStrict)
        let value = try #require(setting.attribute(named: "value"))
        #expect(value.valueType == .string && value.sqlType == "ANY" && value.isOptional)
        let fallback = try #require(setting.attribute(named: "fallback"))
        #expect(
            fallback.valueType == .string && fallback.sqlType == "ANY" && !fallback.isOptional
                && fallback.defaultValue == "'none'")
        let swift = SwiftDeclarations(schema: found.schema, name: "Settings")
        #expect(swift.declaredEntities == ["Setting", "Loose"])
        #expect(swift.source.contains(#"@Attribute(sqlType: "ANY") var value: String? = nil"#), "\(swift.source)")

        let before = try db.rows("SELECT id, value, typeof(value) FROM Setting ORDER BY id")
        #expect(before == [["1", "'dark'", "'text'"], ["2", "'012'", "'text'"], ["3", "NULL", "'null'"]])
        let result = try PlanBuilder.migrator([found.schema]).migrate(databaseAt: db.url)
        #expect(result.adopted)
        // A rebuild (a hash modifier) copies the values as given too.
        var v2 = found.schema
        v2.entities.removeAll { $0.name == "Loose" }
        v2.version = Schema.Version(2, 0, 0)
        v2.entities[0].hashModifier = "rebuild"
        try PlanBuilder.migrator([found.schema, v2]).migrate(databaseAt: db.url)
        #expect(try db.rows("SELECT id, value, typeof(value) FROM Setting ORDER BY id") == before)
    }

    @Test func aStrictAnyColumnHoldingOnlyNumbersOrBlobsIsDeclaredByWhatItHolds() throws {
        let db = TemporaryDatabase()
        try db.execute(
            """
            CREATE TABLE Mixed (id INTEGER PRIMARY KEY, ints ANY, reals ANY, blobs ANY, both ANY) STRICT;
            INSERT INTO Mixed VALUES (1, 1, 1.5, X'00', 'a'), (2, 2, 2, X'01', 3);
            """)
        let found = try SchemaIntrospection(databaseAt: db.url)
        let mixed = try #require(found.schema.entity(named: "Mixed"))
        // a mix: every value as stored
        #expect(mixed.attributes.map(\.valueType) == [.integer, .double, .data, .sqliteValue])
    }
}
