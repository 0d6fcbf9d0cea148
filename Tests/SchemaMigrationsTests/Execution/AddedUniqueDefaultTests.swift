import Foundation
import Testing

@testable import SchemaMigrations

/// A new unique attribute with a constant default, added to a table with rows: every row would
/// take the default, so a second row clashes. Refused before any write, by the dry run first, in
/// the same words; one row, or none, passes; a lint names the condition.
@Suite struct AddedUniqueDefaultTests {
    typealias A = PlanBuilder

    static let v1 = A.schema(
        1, [Schema.Entity(name: "Item", attributes: [A.attribute("name", .string, default: "''")])])
    static let v2 = A.schema(
        2,
        [
            Schema.Entity(
                name: "Item",
                attributes: [
                    A.attribute("name", .string, default: "''"), A.attribute("code", .string, default: "'x'"),
                ],
                indexes: [Schema.Index(["code"], isUnique: true)])
        ])

    @Test(arguments: [0, 1, 3])
    func aUniqueColumnEveryRowWouldShareIsRefusedBeforeAnyWrite(rows: Int) throws {
        let database = TemporaryDatabase()
        try A.migrator([Self.v1]).migrate(databaseAt: database.url)
        for row in 0..<rows { try database.execute("INSERT INTO Item (name) VALUES ('item \(row)')") }
        let migrator = try A.migrator([Self.v1, Self.v2])
        let report = try migrator.plan(databaseAt: database.url)
        guard rows > 1 else {
            #expect(report.refusals.isEmpty)
            try migrator.migrate(databaseAt: database.url)
            #expect(try database.rows("SELECT code FROM Item") == Array(repeating: ["'x'"], count: rows))
            return
        }
        let before = try database.bytes()
        let error = try #require(throws: MigrationError.self) { try migrator.migrate(databaseAt: database.url) }
        #expect(error.code == .dataViolation)
        #expect(error.message == "cannot make (code) unique on 'Item': its 3 rows would all take the default 'x'")
        #expect(report.refusals.map(\.message) == [error.message])
        #expect(try database.bytes() == before)
        #expect(
            try migrator.lint().stages[0].steps.flatMap(\.dataDependencies).contains(
                "(code) becomes unique on Item with the default 'x' in every row: the table may hold one row at most"))
    }
}
