import Foundation
import Testing

@testable import SchemaMigrations

/// `STRICT` declared on a model: created, compared, turned on by a rebuild that SQLite's type
/// checks guard, and refused with a type STRICT does not know.
@Suite struct StrictTableTests {
    enum Loose: VersionedSchema {
        static let versionIdentifier = Schema.Version(1, 0, 0)
        static let models: [any PersistentModel.Type] = [Reading.self]
        final class Reading: PersistentModel {
            @Attribute var sensor: String
            @Attribute var value: Double
            init() {}
        }
    }

    enum Strict: VersionedSchema {
        static let versionIdentifier = Schema.Version(2, 0, 0)
        static let models: [any PersistentModel.Type] = [Reading.self]
        final class Reading: PersistentModel {
            static let strict = true
            @Attribute var sensor: String
            @Attribute var value: Double
            var unit: String? = nil
            init() {}
        }
    }

    enum StrictWithAWideType: VersionedSchema {
        static let versionIdentifier = Schema.Version(1, 0, 0)
        static let models: [any PersistentModel.Type] = [Reading.self]
        final class Reading: PersistentModel {
            static let strict = true
            @Attribute(sqlType: "NVARCHAR(20)") var sensor: String
            init() {}
        }
    }

    @Test func turningStrictOnRebuildsTheTableWithItsRows() throws {
        let db = TemporaryDatabase()
        try db.execute(
            "CREATE TABLE Reading (id INTEGER PRIMARY KEY, sensor TEXT NOT NULL, value REAL NOT NULL); INSERT INTO Reading VALUES (1, 'a', 1.5), (2, 'b', 2);"
        )
        try PlanBuilder.migrator([Schema(Loose.self), Schema(Strict.self)]).migrate(databaseAt: db.url)
        #expect(
            try db.scalar("SELECT sql FROM sqlite_schema WHERE name = 'Reading'")?.stringValue?.hasSuffix(") STRICT")
                == true)
        #expect(
            try db.rows("SELECT id, sensor, value, unit FROM Reading ORDER BY id") == [
                ["1", "'a'", "1.5", "NULL"], ["2", "'b'", "2.0", "NULL"],
            ])
        #expect(throws: SQLiteError.self) {
            try db.execute("INSERT INTO Reading (sensor, value) VALUES ('c', 'not a number')")
        }
        let differences = SchemaComparison(checksDefaults: false).differences(
            declared: try Schema(Strict.self), live: try LiveSchema.read(from: db.connect()))
        #expect(differences == [])
    }

    @Test func aValueStrictRefusesRollsTheRebuildBack() throws {
        let db = TemporaryDatabase()
        try db.execute(
            "CREATE TABLE Reading (id INTEGER PRIMARY KEY, sensor TEXT NOT NULL, value REAL NOT NULL); INSERT INTO Reading VALUES (1, 'a', 'high');"
        )
        let before = try db.bytes()
        #expect(throws: MigrationError.self) {
            try PlanBuilder.migrator([Schema(Loose.self), Schema(Strict.self)]).migrate(databaseAt: db.url)
        }
        #expect(try db.bytes() == before)
    }

    @Test func aLooseTableIsADifferenceFromAStrictDeclaration() throws {
        let db = TemporaryDatabase()
        try db.execute(
            "CREATE TABLE Reading (id INTEGER PRIMARY KEY, sensor TEXT NOT NULL, value REAL NOT NULL, unit TEXT)")
        let differences = SchemaComparison(checksDefaults: false).differences(
            declared: try Schema(Strict.self), live: try LiveSchema.read(from: db.connect()))
        #expect(differences.map(\.description) == ["Reading is not STRICT, declared STRICT"])
    }

    @Test func aTypeStrictDoesNotKnowIsRefused() throws {
        let error = try #require(throws: MigrationError.self) { try Schema(StrictWithAWideType.self) }
        #expect(error.message == "'Reading' is STRICT, which does not allow the type NVARCHAR(20) of 'Reading.sensor'")
    }
}
