import Foundation
import Testing

@testable import SchemaMigrations

/// A schema difference is a value: stored as a kind and the names and values it concerns, read
/// back as the same value, and printed as the sentence `verify` and drift errors have always said.
@Suite struct SchemaDifferenceTests {
    static let samples: [SchemaDifference] = [
        .missingTable("Trip"),
        .primaryKey(table: "Trip", live: ["id"], declared: ["code", "day"]),
        .noIntegerPrimaryKey(table: "Trip"),
        .missingTableOption(table: "Trip", .autoincrement),
        .missingTableOption(table: "Trip", .strict),
        .missingTableOption(table: "Trip", .withoutRowID),
        .missingColumn(table: "Trip", column: "name"),
        .undeclaredColumn(table: "Trip", column: "legacy"),
        .columnType(table: "Trip", column: "name", live: "", declared: "TEXT"),
        .nullability(table: "Trip", column: "name", liveNotNull: true),
        .nullability(table: "Trip", column: "name", liveNotNull: false),
        .missingForeignKey(table: "Stop", column: "trip_id", declared: .init(table: "Trip", onDelete: "CASCADE")),
        .undeclaredForeignKey(table: "Stop", column: "trip_id", live: .init(table: "Trip")),
        .foreignKeyTarget(
            table: "Stop", column: "trip_id", live: .init(table: "Trip", onDelete: "NO ACTION"),
            declared: .init(table: "Trip", onDelete: "CASCADE")),
        .foreignKeyColumn(
            table: "Stop", column: "trip_id", live: .init(table: "Trip", column: "code"),
            declared: .init(table: "Trip", column: "id")),
        .foreignKeyOnUpdate(table: "Stop", column: "trip_id", live: "NO ACTION", declared: "CASCADE"),
        .foreignKeyNotDeferred(table: "Stop", column: "trip_id"),
        .check(table: "Trip", column: "name", live: [], declared: "length(name) > 0"),
        .check(table: "Trip", column: "name", live: ["a > 0", "b > 0"], declared: "length(name) > 0"),
        .collation(table: "Trip", column: "name", live: "BINARY", declared: "NOCASE"),
        .generated(table: "Trip", column: "total", live: "VIRTUAL", declared: nil),
        .generated(table: "Trip", column: "total", live: nil, declared: "GENERATED ALWAYS AS (a + b) STORED"),
        .generated(
            table: "Trip", column: "total", live: "GENERATED ALWAYS AS (a) VIRTUAL",
            declared: "GENERATED ALWAYS AS (b) VIRTUAL"),
        .defaultValue(table: "Trip", column: "rank", live: nil, declared: "0"),
        .defaultValue(table: "Trip", column: "rank", live: "1", declared: nil),
        .missingIndex(table: "Trip", Schema.Index(["name", "day"], isUnique: true)),
        .missingIndex(
            table: "Trip",
            Schema.Index(elements: [.expression("lower(name)")], name: "Trip_lower", predicate: "day > 0")),
        .indexName(table: "Trip", Schema.Index(["name"], name: "by_name"), live: "Trip_name"),
        .undeclaredUniqueIndex(table: "Trip", index: "trip_name", columns: ["name"], sql: nil),
        .undeclaredUniqueIndex(
            table: "Trip", index: "trip_lower", columns: [],
            sql: "CREATE UNIQUE INDEX trip_lower ON Trip (lower(name))"),
    ]

    @Test func everyDifferenceIsReadBackFromWhatABaselineStores() throws {
        for difference in Self.samples {
            let stored = try difference.encoded()
            #expect(SchemaDifference(encoded: stored) == difference, "\(stored)")
            #expect(!stored.contains(difference.description), "the stored form is not the sentence: \(stored)")
        }
        #expect(Set(Self.samples.map(\.kind)).count == 21, "every kind is sampled")
    }

    /// The stored form is a format a later release reads: these strings must keep decoding to these values.
    @Test func theStoredFormIsAKindAndNames() throws {
        let stored: [(String, SchemaDifference)] = [
            (
                #"{"column":"legacy","kind":"undeclaredColumn","table":"Trip"}"#,
                .undeclaredColumn(table: "Trip", column: "legacy")
            ),
            (
                #"{"column":"destination","kind":"nullability","live":"NULL","table":"Trip"}"#,
                .nullability(table: "Trip", column: "destination", liveNotNull: false)
            ),
            (
                #"{"column":"end_date","declared":"REAL","kind":"columnType","live":"INTEGER","table":"Trip"}"#,
                .columnType(table: "Trip", column: "end_date", live: "INTEGER", declared: "REAL")
            ),
            (
                #"{"column":"trip_id","declared":{"onDelete":"CASCADE","table":"Trip"},"kind":"missingForeignKey","table":"Stop"}"#,
                .missingForeignKey(
                    table: "Stop", column: "trip_id", declared: .init(table: "Trip", onDelete: "CASCADE"))
            ),
            (
                #"{"declared":"STRICT","kind":"missingTableOption","table":"Reading"}"#,
                .missingTableOption(table: "Reading", .strict)
            ),
            (
                #"{"declared":{"columns":["name"],"isUnique":false},"kind":"missingIndex","table":"Trip"}"#,
                .missingIndex(table: "Trip", Schema.Index(["name"]))
            ),
            (
                #"{"columns":["name"],"index":"trip_name","kind":"undeclaredUniqueIndex","table":"Trip"}"#,
                .undeclaredUniqueIndex(table: "Trip", index: "trip_name", columns: ["name"], sql: nil)
            ),
        ]
        for (text, difference) in stored {
            #expect(try difference.encoded() == text)
            #expect(SchemaDifference(encoded: text) == difference)
        }
    }

    @Test func aSentenceOrAnUnknownKindIsNotAStoredDifference() {
        #expect(SchemaDifference(encoded: "column Trip.legacy is not declared") == nil)
        #expect(SchemaDifference(encoded: #"{"kind":"somethingNew","table":"Trip"}"#) == nil)
    }

    @Test func eachDifferenceReadsAsTheSentenceVerifyPrints() {
        #expect(
            Self.samples.map(\.description) == [
                "table Trip is missing",
                "Trip's primary key is (id), declared (code, day)",
                "Trip has no \"id\" INTEGER PRIMARY KEY column",
                "Trip's key is not AUTOINCREMENT, declared AUTOINCREMENT",
                "Trip is not STRICT, declared STRICT",
                "Trip is not WITHOUT ROWID, declared WITHOUT ROWID",
                "column Trip.name is missing",
                "column Trip.legacy is not declared",
                "column Trip.name is untyped, declared TEXT",
                "column Trip.name is NOT NULL, declared optional",
                "column Trip.name is nullable, declared non-optional",
                "column Stop.trip_id has no foreign key, declared REFERENCES Trip ON DELETE CASCADE",
                "column Stop.trip_id REFERENCES Trip, which is not declared",
                "column Stop.trip_id REFERENCES Trip ON DELETE NO ACTION, declared Trip ON DELETE CASCADE",
                "column Stop.trip_id REFERENCES Trip(code), declared Trip(id)",
                "column Stop.trip_id's foreign key is ON UPDATE NO ACTION, declared ON UPDATE CASCADE",
                "column Stop.trip_id's foreign key is not DEFERRABLE INITIALLY DEFERRED, declared deferred",
                "column Trip.name has no CHECK, declared CHECK (length(name) > 0)",
                "column Trip.name has CHECK (a > 0), CHECK (b > 0), declared CHECK (length(name) > 0)",
                "column Trip.name is COLLATE BINARY, declared COLLATE NOCASE",
                "column Trip.total is generated (VIRTUAL), declared an ordinary column",
                "column Trip.total is an ordinary column, declared GENERATED ALWAYS AS (a + b) STORED",
                "column Trip.total is GENERATED ALWAYS AS (a) VIRTUAL, declared GENERATED ALWAYS AS (b) VIRTUAL",
                "column Trip.rank has default none, declared 0",
                "column Trip.rank has default 1, declared none",
                "unique index Trip(name, day) is missing",
                "index Trip_lower on Trip(lower(name)) WHERE day > 0 is missing",
                "index by_name(name) is named Trip_name",
                "unique index trip_name on Trip(name) is not declared",
                "unique index trip_lower on Trip, `CREATE UNIQUE INDEX trip_lower ON Trip (lower(name))`, is not declared",
            ])
    }
}
