import Foundation
import Testing

@testable import SchemaMigrations

/// After a custom stage's code, the columns it may have written hold only values their
/// declaration can read: otherwise the migration rolls back, naming the entity, the property and
/// the rows, as the NOT NULL check after `didMigrate` does.
@Suite struct CustomStageStoredValueTests {
    typealias A = PlanBuilder

    static let words = ["one": 1, "two": 2, "three": 3]

    /// `Reading.value` String at V1, Int at V2 (a custom stage with a hash modifier, which hands
    /// didMigrate the old text to convert).
    static let v1 = A.schema(
        1, [Schema.Entity(name: "Reading", attributes: [A.attribute("value", .string, default: "''")])])
    static let v2 = A.schema(
        2,
        [
            Schema.Entity(
                name: "Reading", attributes: [A.attribute("value", .integer, default: "0", hashModifier: "as-number")])
        ])

    /// The old behaviour: the stage forgot 'four', the migration succeeded, `verify` passed, and the
    /// INTEGER column declared `Int` held text no declaration can read.
    @Test func aValueTheCustomStageForgotToConvertRollsTheMigrationBackNamingTheRows() throws {
        let db = TemporaryDatabase()
        try A.migrator([Self.v1]).migrate(databaseAt: db.url)
        try db.execute(
            "INSERT INTO Reading (id, value) VALUES (1, 'one'), (2, 'two'), (3, '3'), (4, 'four'), (5, 'three'), (6, 'many')"
        )
        let before = try db.bytes()
        let error = try #require(throws: MigrationError.self) {
            try A.migrator(
                [Self.v1, Self.v2], kind: .custom,
                didMigrate: { context in
                    try context.forEach("Reading") { reading in
                        guard case .text(let text)? = reading["value"], let number = Self.words[text] else { return }
                        try context.update("Reading", id: reading.id, values: ["value": number])
                    }
                }
            ).migrate(databaseAt: db.url)
        }
        #expect(error.code == .dataViolation)
        #expect(
            error.message
                == "after the custom stage 1.0.0 → 2.0.0, 'Reading.value' (Int) holds 2 values its declaration cannot read (text); everything was rolled back"
        )
        #expect(error.entity == "Reading" && error.property == "value" && error.version == Schema.Version(2, 0, 0))
        #expect(error.details == ["rows (id): 4, 6"])
        #expect(try db.bytes() == before, "the file is byte for byte as it was")
        #expect(try db.recordedVersion() == "1.0.0")
    }

    @Test func oneQueryNamesTheFirstTenRowsOfEachColumnAndTheOtherColumnsToo() throws {
        let db = TemporaryDatabase()
        let v1 = A.schema(
            1,
            [
                Schema.Entity(
                    name: "Sample",
                    attributes: [A.attribute("a", .string, default: "''"), A.attribute("b", .string, default: "''")])
            ])
        let v2 = A.schema(
            2,
            [
                Schema.Entity(
                    name: "Sample",
                    attributes: [
                        A.attribute("a", .double, default: "0", hashModifier: "2"),
                        A.attribute("b", .data, optional: true, hashModifier: "2"),
                    ])
            ])
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 12) INSERT INTO Sample (id, a, b) SELECT i, 'x' || i, 'y' FROM n"
        )
        let error = try #require(throws: MigrationError.self) {
            try A.migrator([v1, v2], kind: .custom, didMigrate: { _ in }).migrate(databaseAt: db.url)
        }
        #expect(
            error.message
                == "after the custom stage 1.0.0 → 2.0.0, 'Sample.a' (Double) holds 12 values its declaration cannot read (text); everything was rolled back"
        )
        #expect(
            error.details == [
                "rows (id): 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, …",
                "'Sample.b' (Data) holds 12 values it cannot read (text), rows (id): 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, …",
            ])
    }

    /// What each declared type reads is never refused: a Double column's integers, a Date's
    /// seconds as integers or ISO-8601 text, a Bool's 0 and 1, an optional's NULL, a Decimal's
    /// integers, and whatever any column held in a table the stage did not write.
    @Test func valuesTheDeclarationReadsAreKept() throws {
        let db = TemporaryDatabase()
        let attributes: [Schema.Attribute] = [
            A.attribute("ratio", .double, optional: true), A.attribute("when", .date, optional: true),
            A.attribute("flag", .bool, optional: true),
            A.attribute("amount", .decimal, optional: true), A.attribute("count", .integer, optional: true),
            A.attribute("label", .string, optional: true),
            Schema.Attribute(name: "day", valueType: .date, isOptional: true, dateStorage: .iso8601Text),
            Schema.Attribute(name: "julian", valueType: .date, isOptional: true, dateStorage: .julianDay),
        ]
        let untouched = Schema.Entity(name: "Untouched", attributes: [A.attribute("count", .integer, optional: true)])
        let v1 = A.schema(1, [Schema.Entity(name: "Row", attributes: attributes), untouched])
        var row2 = Schema.Entity(name: "Row", attributes: attributes)
        row2.attributes.append(A.attribute("extra", .string, optional: true))
        let v2 = A.schema(2, [row2, untouched])
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute("INSERT INTO Untouched (id, count) VALUES (1, 'not a number')")
        try A.migrator(
            [v1, v2], kind: .custom,
            didMigrate: { context in
                try context.execute(
                    """
                    INSERT INTO Row (ratio, "when", flag, amount, count, label, day, julian) VALUES
                        (1, 0, 0, 12, 3.0, 'x', '2024-01-02 03:04:05.000', 2460000),
                        (1.5, '2024-01-02 03:04:05', 1, '12.5', -1, '', '2024-01-02', '2024-01-02'),
                        (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)
                    """)
            }
        ).migrate(databaseAt: db.url)
        #expect(try db.recordedVersion() == "2.0.0")
        #expect(try db.rows("SELECT count(*) FROM Row") == [["3"]])
    }

    @Test(arguments: [
        ("count", Schema.ValueType.integer, "'seven'", "text"), ("count", .integer, "1.5", "real"),
        ("count", .integer, "X'00'", "blob"),
        ("ratio", .double, "'1.5x'", "text"), ("flag", .bool, "2", "integer"), ("flag", .bool, "'yes'", "text"),
        ("label", .string, "X'41'", "blob"), ("blob", .data, "'text'", "text"), ("when", .date, "'yesterday'", "text"),
        ("id2", .uuid, "X'00'", "blob"), ("amount", .decimal, "X'00'", "blob"),
    ])
    func rawSQLThatStoresWhatTheDeclarationCannotReadIsRefused(
        column: String, type: Schema.ValueType, literal: String, storageClass: String
    ) throws {
        let db = TemporaryDatabase()
        let attribute = A.attribute(column, type, optional: true)
        let v1 = A.schema(1, [Schema.Entity(name: "Row", attributes: [A.attribute("title", .string, default: "''")])])
        let v2 = A.schema(
            2, [Schema.Entity(name: "Row", attributes: [A.attribute("title", .string, default: "''"), attribute])])
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute("INSERT INTO Row (id, title) VALUES (1, 'a'), (2, 'b')")
        let before = try db.bytes()
        let error = try #require(throws: MigrationError.self) {
            try A.migrator(
                [v1, v2], kind: .custom,
                didMigrate: { context in
                    try context.execute("UPDATE Row SET \(SQL.quoteIdentifier(column)) = \(literal) WHERE id = 2")
                }
            ).migrate(databaseAt: db.url)
        }
        #expect(error.code == .dataViolation)
        #expect(
            error.message.contains("'Row.\(column)'") && error.message.contains("(\(storageClass))"), "\(error.message)"
        )
        #expect(error.details == ["rows (id): 2"])
        #expect(try db.bytes() == before)
    }
}
