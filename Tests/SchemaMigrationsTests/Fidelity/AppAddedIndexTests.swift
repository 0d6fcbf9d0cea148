import Foundation
import Testing

@testable import SchemaMigrations

/// Indexes the app adds by SQL to a table the plan created are the database's own, whatever
/// their kind: the next migration rebuilds the table with each of them kept exactly (and still
/// enforced), and none of them is drift.
@Suite struct AppAddedIndexTests {
    typealias A = PlanBuilder

    static let v1 = A.schema(
        1,
        [
            Schema.Entity(
                name: "Item",
                attributes: [
                    A.attribute("email", .string, optional: true), A.attribute("name", .string, default: "''"),
                ])
        ])
    /// `name` becomes optional: a rebuild.
    static let v2 = A.schema(
        2,
        [
            Schema.Entity(
                name: "Item",
                attributes: [
                    A.attribute("email", .string, optional: true), A.attribute("name", .string, optional: true),
                ])
        ])

    static let appIndexes = [
        "CREATE UNIQUE INDEX item_email_lower ON Item (lower(email))",
        "CREATE UNIQUE INDEX item_email_nocase ON Item (email COLLATE NOCASE)",
        "CREATE INDEX item_email_length ON Item (length(email))",
        "CREATE UNIQUE INDEX item_name_live ON Item (name) WHERE email IS NOT NULL",
        "CREATE UNIQUE INDEX item_email ON Item (email)",
        "CREATE INDEX item_name_desc ON Item (name DESC)",
    ]

    static func indexSQL(_ db: TemporaryDatabase) throws -> [[String]] {
        try db.rows("SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'Item' ORDER BY name")
    }

    @Test(arguments: appIndexes)
    func anIndexOfAnyKindTheAppAddsIsKeptByTheNextRebuildAndIsNoDrift(index: String) throws {
        let db = TemporaryDatabase()
        try A.migrator([Self.v1]).migrate(databaseAt: db.url)
        try db.execute("INSERT INTO Item (id, email, name) VALUES (1, 'Ada@example.com', 'Ada'), (2, NULL, 'Alan')")
        try db.execute(index)
        let before = try Self.indexSQL(db)

        let migrator = try A.migrator([Self.v1, Self.v2])
        #expect(try A.migrator([Self.v1]).verify(databaseAt: db.url).isUpToDate, "an app's index is not drift")
        let report = try migrator.plan(databaseAt: db.url)
        #expect(report.stages.first?.steps.contains { $0.step.op == .rebuildTable } == true)
        try migrator.migrate(databaseAt: db.url)

        #expect(try db.recordedVersion() == "2.0.0")
        #expect(try Self.indexSQL(db) == before)
        #expect(
            try db.rows("SELECT id, email, name FROM Item ORDER BY id") == [
                ["1", "'Ada@example.com'", "'Ada'"], ["2", "NULL", "'Alan'"],
            ])
        if index.hasPrefix("CREATE UNIQUE") {
            // Still enforced after the rebuild.
            #expect(throws: SQLiteError.self) {
                try db.execute("INSERT INTO Item (email, name) VALUES ('Ada@example.com', 'Ada')")
            }
        }
        #expect(try migrator.verify(databaseAt: db.url).isUpToDate)
    }

    /// Adoption is the one place an undeclared unique index counts: an unversioned file holding
    /// one is not yet the version that does not declare it.
    @Test func anUnversionedFileWithAnUndeclaredUniqueIndexIsNotAdoptedSilently() throws {
        let db = TemporaryDatabase()
        try db.execute(
            #"CREATE TABLE Item (id INTEGER PRIMARY KEY, email TEXT, name TEXT NOT NULL DEFAULT ''); CREATE UNIQUE INDEX item_email_lower ON Item (lower(email));"#
        )
        let before = try db.bytes()
        let error = try #require(throws: MigrationError.self) { try A.migrator([Self.v1]).migrate(databaseAt: db.url) }
        #expect(error.code == .unknownVersion)
        #expect(try db.bytes() == before)
    }
}
