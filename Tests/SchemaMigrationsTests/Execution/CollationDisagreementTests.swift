import Foundation
import Testing

@testable import SchemaMigrations

/// The collation the migrator is given takes two values for equal that the application's own
/// collation keeps apart under a unique index (`Ada` and `ADA` under a case-folding `appcase`
/// given to the migrator, where the app's `appcase` is binary). Offline and online alike, the
/// rebuild refuses, naming the values and their rows, and no row is lost.
@Suite struct CollationDisagreementTests {
    typealias A = PlanBuilder

    /// The application's `appcase`: byte order (so `Ada` and `ADA` are two values).
    static let appCollation = SQLCollation("appcase") {
        $0 < $1 ? .orderedAscending : $0 == $1 ? .orderedSame : .orderedDescending
    }
    /// What the migrator is given under the same name: case folded.
    static let migratorCollation = SQLCollation("appcase") { lhs, rhs in
        let (l, r) = (lhs.lowercased(), rhs.lowercased())
        return l < r ? .orderedAscending : l == r ? .orderedSame : .orderedDescending
    }

    static let tag = Schema.Entity(
        name: "Tag", attributes: [A.attribute("name", .string, default: "''"), A.attribute("rank", .integer)])
    static let v1 = A.schema(1, [tag])
    /// V2 changes `rank`'s default: a rebuild, online.
    static let v2 = A.schema(
        2,
        [
            Schema.Entity(
                name: "Tag",
                attributes: [A.attribute("name", .string, default: "''"), A.attribute("rank", .integer, default: "0")])
        ])

    /// A V1 database made by the app: a unique index under its `appcase`, rows `Ada` and `ADA` among others.
    static func makeV1(_ db: TemporaryDatabase) throws {
        try A.migrator([v1]).migrate(databaseAt: db.url)
        let app = try SQLiteConnection(path: db.path, environment: SQLEnvironment(collations: [appCollation]))
        try app.execute("CREATE UNIQUE INDEX Tag_name_appcase ON Tag (name COLLATE appcase)")
        try app.execute(
            """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 600)
            INSERT INTO Tag (id, name, rank) SELECT i, 'tag ' || i, i FROM n;
            INSERT INTO Tag (id, name, rank) VALUES (1001, 'Ada', 1), (1002, 'ADA', 2);
            """)
    }

    @Test(arguments: [false, true])
    func theRebuildRefusesNamingTheValuesAndLosesNoRow(online: Bool) throws {
        let db = TemporaryDatabase()
        try Self.makeV1(db)
        var options = MigrationOptions(sqlEnvironment: SQLEnvironment(collations: [Self.migratorCollation]))
        if online { options.online = OnlineRebuildOptions(chunkTargetMilliseconds: 0.5) }
        let before = online ? nil : try db.bytes()
        let report = try A.migrator([Self.v1, Self.v2], options: options).plan(databaseAt: db.url)
        let error = try #require(throws: MigrationError.self) {
            try A.migrator([Self.v1, Self.v2], options: options).migrate(databaseAt: db.url)
        }
        #expect(error.code == .dataViolation)
        #expect(
            error.message
                == "rows of Tag that its unique index over (name) holds apart are equal under appcase as this connection has it; everything was rolled back"
        )
        #expect(error.details == ["equal: 'Ada' ≡ 'ADA' (rowids 1001, 1002)"])
        #expect(error.remedy?.hasPrefix("give the migrator the collations and functions the application uses") == true)
        #expect(report.refusals.map(\.message) == [error.message], "the dry run refuses first, in the same words")
        #expect(report.refusals.first?.details == error.details)
        #expect(try db.recordedVersion() == "1.0.0")
        #expect(try db.rows("SELECT count(*) FROM Tag NOT INDEXED") == [["602"]])
        #expect(try db.rows("SELECT name FROM sqlite_schema WHERE name LIKE '\\_sm\\_%' ESCAPE '\\'").isEmpty)
        if let before { #expect(try db.bytes() == before) }
    }

    /// A WITHOUT ROWID table has no rowids to name: the refusal names the equal values alone.
    @Test func aWithoutRowIDTableIsNamedByItsValues() throws {
        let db = try SQLiteConnection(path: ":memory:", environment: SQLEnvironment(collations: [Self.appCollation]))
        try db.execute(
            "CREATE TABLE tag (name TEXT PRIMARY KEY) WITHOUT ROWID; CREATE UNIQUE INDEX tag_name ON tag (name COLLATE appcase); INSERT INTO tag VALUES ('Ada'), ('ADA')"
        )
        try db.apply(SQLEnvironment(collations: [Self.migratorCollation]))
        let refusal = try #require(try UniqueCollision.predictedRefusal(table: "tag", db: db, version: nil))
        #expect(refusal.details == ["equal: 'ADA' ≡ 'Ada'"] || refusal.details == ["equal: 'Ada' ≡ 'ADA'"])
        #expect(
            refusal.message.hasPrefix(
                "rows of tag that its unique index over (name) holds apart are equal under appcase"))
    }
}
