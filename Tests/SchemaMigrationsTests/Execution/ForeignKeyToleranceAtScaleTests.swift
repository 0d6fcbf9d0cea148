import Foundation
import Testing

@testable import SchemaMigrations

/// A database whose rows already point at missing parents by the thousand: the foreign key check
/// after a stage keeps them in a temporary table, not in memory, still tells them apart from the
/// ones the stage introduces, and leaves nothing behind on the application's connection.
@Suite struct ForeignKeyToleranceAtScaleTests {
    typealias A = PlanBuilder
    static let oldOrphans = 5_000

    /// V1 of ``ForeignKeyHistoryTests``, plus `oldOrphans` pets whose owners never existed.
    static func populated() throws -> (TemporaryDatabase, Schema) {
        let (db, v1) = try ForeignKeyHistoryTests.populated()
        try db.execute(
            """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(oldOrphans))
            INSERT INTO Pet (id, name, owner_id) SELECT 100 + i, 'stray', 100000 + i FROM n;
            """)
        return (db, v1)
    }

    @Test(arguments: [false, true])
    func thousandsOfOldOrphansAreKeptAndTheCheckLeavesNoTableBehind(borrowed: Bool) throws {
        let (db, v1) = try Self.populated()
        let v2 = A.schema(2, ForeignKeyHistoryTests.owners(pet: "Animal", petOriginal: "Pet", petModifier: "rebuild"))
        let migrator = try A.migrator(
            [v1, v2], kind: .custom, didMigrate: { try $0.execute("UPDATE Owner SET name = upper(name)") })
        let app = try db.connect()
        if borrowed {
            try migrator.migrate(connection: app.handle)
            // The temporary table was the application's connection's: dropped once the stage passed.
            #expect(try app.rows("SELECT name FROM temp.sqlite_schema") == [])
        } else {
            try migrator.migrate(databaseAt: db.url)
        }
        #expect(try db.recordedVersion() == "2.0.0")
        #expect(try db.rows("SELECT count(*) FROM Animal WHERE owner_id > 100000") == [["\(Self.oldOrphans)"]])
        #expect(try db.rows("SELECT count(*) FROM pragma_foreign_key_check") == [["\(Self.oldOrphans + 1)"]])
    }

    @Test func newOrphansAmongThousandsOfOldOnesAreCountedAloneAndNothingIsWritten() throws {
        let (db, v1) = try Self.populated()
        let before = try db.bytes()
        let v2 = A.schema(2, ForeignKeyHistoryTests.owners(pet: "Animal", petOriginal: "Pet", petModifier: "rebuild"))
        let error = try #require(throws: MigrationError.self) {
            try A.migrator(
                [v1, v2], kind: .custom,
                didMigrate: {
                    try $0.execute("UPDATE Animal SET owner_id = 77 WHERE id IN (3, 1)")
                    // An old orphan given another missing owner is still the same old orphan.
                    try $0.execute("UPDATE Animal SET owner_id = owner_id + 1 WHERE id BETWEEN 101 AND 200")
                    try $0.execute("INSERT INTO Animal (id, name, owner_id) VALUES (99999, 'new', 5)")
                }
            ).migrate(databaseAt: db.url)
        }
        #expect(error.code == .dataViolation)
        #expect(error.message.hasPrefix("the migration would leave 3 rows pointing at missing parents"))
        #expect(error.entity == "Animal")
        #expect(
            error.details == [
                "Animal row 1 references a missing row of Owner", "Animal row 3 references a missing row of Owner",
                "Animal row 99999 references a missing row of Owner",
            ])
        #expect(try db.bytes() == before)
    }

    /// More than ten introduced: the count is all of them, the details the first ten by row.
    @Test func theDetailsNameTheFirstTenOfManyNewOrphans() throws {
        let (db, v1) = try Self.populated()
        let v2 = A.schema(2, ForeignKeyHistoryTests.owners(ownerModifier: "rebuild"))
        let error = try #require(throws: MigrationError.self) {
            try A.migrator(
                [v1, v2], kind: .custom,
                didMigrate: {
                    try $0.execute(
                        """
                        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000)
                        INSERT INTO Pet (id, name, owner_id) SELECT 200000 + i, 'new', -i FROM n
                        """)
                }
            ).migrate(databaseAt: db.url)
        }
        #expect(error.message.hasPrefix("the migration would leave 1000 rows pointing at missing parents"))
        #expect(error.details == (200_001...200_010).map { "Pet row \($0) references a missing row of Owner" })
    }
}
