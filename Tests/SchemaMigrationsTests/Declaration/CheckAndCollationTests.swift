import Foundation
import Testing

@testable import SchemaMigrations

/// CHECK constraints and collations declared on attributes: adopted where the table has them,
/// changed by a rebuild that replaces only the column's own clause.
@Suite struct CheckAndCollationTests {
    static let table = """
        CREATE TABLE Tag (id INTEGER PRIMARY KEY, label TEXT NOT NULL COLLATE NOCASE CHECK (length(label) > 0), weight INTEGER NOT NULL CHECK(weight >= 0),
                          CHECK (weight < 1000));
        INSERT INTO Tag VALUES (1, 'swift', 3), (2, 'SQLite', 0), (3, 'go', 999);
        """

    enum V1: VersionedSchema {
        static let versionIdentifier = Schema.Version(1, 0, 0)
        static let models: [any PersistentModel.Type] = [Tag.self]
        final class Tag: PersistentModel {
            @Attribute(check: "LENGTH(label)>0", collation: "nocase") var label: String
            @Attribute(check: "weight >= 0") var weight: Int
            init() {}
        }
    }

    /// `label` renamed to `name` (its CHECK follows), `note` added, an index on `name`, the CHECK
    /// tightened and the collation changed.
    enum V2: VersionedSchema {
        static let versionIdentifier = Schema.Version(2, 0, 0)
        static let models: [any PersistentModel.Type] = [Tag.self]
        final class Tag: PersistentModel {
            static let indexes: [[String]] = [["name"]]
            @Attribute(originalName: "label", check: "length(name) BETWEEN 1 AND 10", collation: "RTRIM") var name:
                String
            @Attribute(check: "weight >= 0") var weight: Int
            var note: String? = nil
            init() {}
        }
    }

    @Test func aTableWithChecksAndACollationIsDeclaredWithNoDifference() throws {
        let db = TemporaryDatabase()
        try db.execute(Self.table)
        let differences = SchemaComparison(checksDefaults: false).differences(
            declared: try Schema(V1.self), live: try LiveSchema.read(from: db.connect()))
        #expect(differences == [])
        let created = TemporaryDatabase()
        try PlanBuilder.migrator([Schema(V1.self)]).migrate(databaseAt: created.url)
        #expect(
            try created.scalar("SELECT sql FROM sqlite_schema WHERE name = 'Tag'")?.stringValue
                == #"CREATE TABLE "Tag" ("id" INTEGER PRIMARY KEY, "label" TEXT NOT NULL COLLATE nocase CHECK (LENGTH(label)>0), "weight" INTEGER NOT NULL CHECK (weight >= 0))"#
        )
    }

    @Test func aMissingOrDifferentClauseIsADifference() throws {
        let db = TemporaryDatabase()
        try db.execute(
            "CREATE TABLE Tag (id INTEGER PRIMARY KEY, label TEXT NOT NULL CHECK (length(label) > 1), weight INTEGER NOT NULL)"
        )
        let differences = SchemaComparison(checksDefaults: false).differences(
            declared: try Schema(V1.self), live: try LiveSchema.read(from: db.connect()))
        #expect(
            differences.map(\.description) == [
                "column Tag.label has CHECK (length(label) > 1), declared CHECK (LENGTH(label)>0)",
                "column Tag.label is COLLATE BINARY, declared COLLATE nocase",
                "column Tag.weight has no CHECK, declared CHECK (weight >= 0)",
            ])
    }

    @Test func aChangedCheckAndCollationAreRebuiltKeepingTheTablesOwnCheck() throws {
        let db = TemporaryDatabase()
        try db.execute(Self.table)
        let result = try PlanBuilder.migrator([Schema(V1.self), Schema(V2.self)]).migrate(databaseAt: db.url)
        #expect(result.adopted)
        #expect(
            try db.rows("SELECT id, name, weight, note FROM Tag ORDER BY id") == [
                ["1", "'swift'", "3", "NULL"], ["2", "'SQLite'", "0", "NULL"], ["3", "'go'", "999", "NULL"],
            ])
        let sql = try #require(try db.scalar("SELECT sql FROM sqlite_schema WHERE name = 'Tag'")?.stringValue)
        #expect(sql.contains("CHECK (length(name) BETWEEN 1 AND 10)") && sql.contains("COLLATE RTRIM"))
        #expect(!sql.contains("NOCASE") && !sql.contains("> 0"))
        #expect(sql.contains("CHECK (weight < 1000)"))  // the table's own, which no declaration spoke of
        #expect(try db.indexes("Tag") == ["(name)"])
        #expect(try db.rows("PRAGMA integrity_check") == [["'ok'"]])
        #expect(throws: SQLiteError.self) {
            try db.execute("INSERT INTO Tag (name, weight) VALUES ('far too long a name', 1)")
        }
    }

    @Test func aCheckTheRowsBreakRollsEverythingBack() throws {
        let db = TemporaryDatabase()
        try db.execute(Self.table + "INSERT INTO Tag VALUES (4, 'kotlin-multiplatform', 1);")
        let before = try db.bytes()
        let error = try #require(throws: MigrationError.self) {
            try PlanBuilder.migrator([Schema(V1.self), Schema(V2.self)]).migrate(databaseAt: db.url)
        }
        #expect(error.sqliteError?.message.contains("CHECK constraint failed") == true)
        #expect(try db.bytes() == before)
    }

    enum NotAnExpression: VersionedSchema {
        static let versionIdentifier = Schema.Version(1, 0, 0)
        static let models: [any PersistentModel.Type] = [Tag.self]
        final class Tag: PersistentModel {
            @Attribute(check: "1); DROP TABLE Tag; --") var label = ""
            init() {}
        }
    }

    @Test func aCheckThatIsNotOneExpressionIsRefused() throws {
        let error = try #require(throws: MigrationError.self) { try Schema(NotAnExpression.self) }
        #expect(error.message == "the CHECK of 'Tag.label' is not one SQL expression: 1); DROP TABLE Tag; --")
        #expect(error.property == "label")
    }
}
