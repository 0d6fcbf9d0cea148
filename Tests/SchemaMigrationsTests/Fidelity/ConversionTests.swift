import Foundation
import Testing

@testable import SchemaMigrations

/// Type changes at their boundaries: each value converted exactly, or the change refused with its
/// rows named and the file unchanged.
@Suite struct ConversionTests {
    typealias A = PlanBuilder

    static func migrate(_ from: Schema.ValueType, to: Schema.ValueType, values: [String]) throws -> (
        TemporaryDatabase, Result<MigrationResult, Error>, Data
    ) {
        let db = TemporaryDatabase()
        let v1 = A.schema(1, [Schema.Entity(name: "t", attributes: [A.attribute("v", from, optional: true)])])
        let v2 = A.schema(2, [Schema.Entity(name: "t", attributes: [A.attribute("v", to, optional: true)])])
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute(
            "INSERT INTO t (id, v) VALUES "
                + values.enumerated().map { "(\($0.offset + 1), \($0.element))" }.joined(separator: ", "))
        let before = try db.bytes()
        return (db, Result { try A.migrator([v1, v2]).migrate(databaseAt: db.url) }, before)
    }

    @Test func doublesBecomeTheShortestTextThatReadsBackAsTheSameDouble() throws {
        let (db, result, _) = try Self.migrate(
            .double, to: .string,
            values: [
                "0.1 + 0.2", "0.1", "1e308", "-0.0", "5e-324", "0.1 + 0.7", "-1.5", "NULL", "'not a number'", "X'00FF'",
            ])
        _ = try result.get()
        let texts = try db.rows("SELECT v FROM t ORDER BY id").map { $0[0] }
        #expect(
            texts == [
                "'0.30000000000000004'", "'0.1'", "'1.0e+308'", "'0.0'", "'4.94065645841247e-324'",
                "'0.7999999999999999'", "'-1.5'", "NULL", "'not a number'", "X'00FF'",
            ])
        // Each reads back as the double it was.
        #expect(
            try db.rows(
                "SELECT count(*) FROM t WHERE id <= 7 AND CAST(v AS REAL) <> CASE id WHEN 1 THEN 0.1 + 0.2 WHEN 2 THEN 0.1 WHEN 3 THEN 1e308 WHEN 4 THEN 0.0 WHEN 5 THEN 5e-324 WHEN 6 THEN 0.1 + 0.7 ELSE -1.5 END"
            ) == [["0"]])
    }

    @Test func integersThatADoubleCannotHoldAreRefusedWithTheirRows() throws {
        let (db, result, before) = try Self.migrate(
            .integer, to: .double,
            values: ["9007199254740993", "9223372036854775807", "1", "-9223372036854775808", "9007199254740992"])
        let error = try #require(
            { if case .failure(let error) = result { return error as? MigrationError } else { return nil } }())
        #expect(error.message == "'t.v' cannot change from integer to double: 2 values do not convert exactly")
        #expect(error.details == ["rows (id): 1, 2"])
        #expect(try db.bytes() == before)
    }

    @Test func integersConvertExactlyAndOtherStorageClassesAreCarriedUnchanged() throws {
        let (db, result, _) = try Self.migrate(
            .integer, to: .double,
            values: ["-9223372036854775808", "9007199254740992", "'abc'", "X'01'", "2.5", "NULL"])
        _ = try result.get()
        #expect(
            try db.rows("SELECT typeof(v) FROM t ORDER BY id").map { $0[0] } == [
                "'real'", "'real'", "'text'", "'blob'", "'real'", "'null'",
            ])
        #expect(
            try db.rows("SELECT v FROM t WHERE id BETWEEN 3 AND 5 ORDER BY id").map { $0[0] } == [
                "'abc'", "X'01'", "2.5",
            ])
        #expect(
            try db.rows("SELECT CAST(v AS INTEGER) FROM t WHERE id <= 2 ORDER BY id") == [
                ["-9223372036854775808"], ["9007199254740992"],
            ])
    }

    @Test func integersBecomeTextExactlyAndRealsInAnIntegerColumnKeepEveryDigit() throws {
        let (db, result, _) = try Self.migrate(
            .integer, to: .string, values: ["9223372036854775807", "-9223372036854775808", "0.1 + 0.2", "X'02'"])
        _ = try result.get()
        #expect(
            try db.rows("SELECT v FROM t ORDER BY id") == [
                ["'9223372036854775807'"], ["'-9223372036854775808'"], ["'0.30000000000000004'"], ["X'02'"],
            ])
    }
}
