import Foundation
import Testing

@testable import SchemaMigrations

/// What a baseline accepted is stored as differences, not as the sentences they print: rewording
/// a sentence leaves every baseline as it was, and the sentences earlier releases stored still
/// accept what they named.
@Suite struct BaselineStoredFormTests {
    /// A Trip table close to V1: a nullable destination and an extra column, which a baseline accepts.
    static func closeToV1() throws -> TemporaryDatabase {
        let db = TemporaryDatabase()
        try db.execute(
            """
            CREATE TABLE Trip (id INTEGER PRIMARY KEY, name TEXT NOT NULL, destination TEXT, start_date REAL NOT NULL, end_date REAL NOT NULL, legacy TEXT);
            INSERT INTO Trip VALUES (1, 'Paris', 'France', 1, 2, 'a'), (2, 'Rome', NULL, 3, 4, NULL);
            """)
        return db
    }

    static func stored(_ db: TemporaryDatabase) throws -> [String] {
        try db.connect().rows(
            "SELECT difference FROM \"\(TableNames.acceptedDifferences)\" WHERE plan = 'default' ORDER BY rowid"
        )
        .map { $0[0].stringValue ?? "" }
    }

    /// The differences V1 has with the file now, as drift checks work them out.
    static func differences(_ db: TemporaryDatabase) throws -> [SchemaDifference] {
        SchemaComparison(checksDefaults: false, undeclaredUniqueIndexesDiffer: false)
            .differences(declared: try Schema(TripsV1.self), live: try LiveSchema.read(from: db.connect()))
    }

    @Test func aBaselineStillHoldsWhenTheSentencesAreReworded() throws {
        let db = try Self.closeToV1()
        let migrator = Migrator(plan: TripsPlan.self)
        let result = try migrator.baseline(databaseAt: db.url, version: Schema.Version(1, 0, 0))
        #expect(
            result.acceptedDifferences == [
                "column Trip.destination is nullable, declared non-optional", "column Trip.legacy is not declared",
            ])
        #expect(
            try Self.stored(db) == [
                #"{"column":"destination","kind":"nullability","live":"NULL","table":"Trip"}"#,
                #"{"column":"legacy","kind":"undeclaredColumn","table":"Trip"}"#,
            ])

        // Whatever the words, what the baseline stored accepts the same differences.
        let accepted = try AcceptedDifferences.load(from: db.connect(), plan: "default")
        #expect(accepted.sentences.isEmpty)
        let differences = try Self.differences(db)
        #expect(differences.count == 2)
        #expect(accepted.unaccepted(differences, renderedAs: { "reworded: \($0.kind) of \($0.table)" }) == [])
        #expect(accepted.unaccepted(differences) == [])

        #expect(try migrator.verify(databaseAt: db.url).currentVersion == Schema.Version(1, 0, 0))
        #expect(try migrator.migrate(databaseAt: db.url).toVersion == Schema.Version(3, 0, 0))
        #expect(
            try db.rows("SELECT id, destination, legacy FROM Trip ORDER BY id") == [
                ["1", "'France'", "'a'"], ["2", "NULL", "NULL"],
            ])
    }

    @Test func aBaselineAnEarlierReleaseStoredAsSentencesIsStillAccepted() throws {
        let db = try Self.closeToV1()
        let migrator = Migrator(plan: TripsPlan.self)
        try migrator.baseline(databaseAt: db.url, version: Schema.Version(1, 0, 0))
        // The rows as releases up to this one wrote them: one sentence per accepted difference.
        try db.execute(
            """
            DELETE FROM "_schema_migrations_accepted";
            INSERT INTO "_schema_migrations_accepted" ("plan", "difference") VALUES ('default', 'column Trip.destination is nullable, declared non-optional');
            INSERT INTO "_schema_migrations_accepted" ("plan", "difference") VALUES ('default', 'column Trip.legacy is not declared');
            """)
        let accepted = try AcceptedDifferences.load(from: db.connect(), plan: "default")
        #expect(accepted.differences.isEmpty && accepted.sentences.count == 2)
        #expect(accepted.unaccepted(try Self.differences(db)) == [])

        #expect(try migrator.status(databaseAt: db.url).currentVersion == Schema.Version(1, 0, 0))
        #expect(try migrator.verify(databaseAt: db.url).currentVersion == Schema.Version(1, 0, 0))
        // A difference no sentence named is still drift.
        try db.execute("ALTER TABLE Trip ADD COLUMN extra INTEGER")
        let drift = try #require(throws: MigrationError.self) { try migrator.verify(databaseAt: db.url) }
        #expect(drift.code == .drift && drift.details == ["column Trip.extra is not declared"])
        try db.execute("ALTER TABLE Trip DROP COLUMN extra")
        // And the migration's own check after the last stage accepts what the sentences named.
        let migrated = try migrator.migrate(databaseAt: db.url)
        #expect(migrated.fromVersion == Schema.Version(1, 0, 0) && migrated.toVersion == Schema.Version(3, 0, 0))
        #expect(
            try db.rows("SELECT id, destination, legacy FROM Trip ORDER BY id") == [
                ["1", "'France'", "'a'"], ["2", "NULL", "NULL"],
            ])
        #expect(try migrator.verify(databaseAt: db.url).isUpToDate)
    }

    /// The refusal is one of the differences: a column declared with the very SQL type the file
    /// has is no difference, so it is not refused for an affinity its Swift type stores otherwise.
    @Test func aColumnOfTheDeclaredSQLTypeIsNotRefused() throws {
        let db = TemporaryDatabase()
        try db.execute(
            "CREATE TABLE Event (id INTEGER PRIMARY KEY, at DATETIME NOT NULL, legacy TEXT); INSERT INTO Event VALUES (1, '2026-01-02T03:04:05Z', 'a');"
        )
        let at = Schema.Attribute(name: "at", valueType: .date, sqlType: "DATETIME", dateStorage: .iso8601Text)
        let migrator = try PlanBuilder.migrator([
            PlanBuilder.schema(1, [Schema.Entity(name: "Event", attributes: [at])])
        ])
        let result = try migrator.baseline(databaseAt: db.url, version: Schema.Version(1, 0, 0))
        #expect(result.acceptedDifferences == ["column Event.legacy is not declared"])
        #expect(try migrator.verify(databaseAt: db.url).isUpToDate)
    }
}
