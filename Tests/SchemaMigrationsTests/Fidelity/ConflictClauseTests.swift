import Foundation
import Testing

@testable import SchemaMigrations

/// A table the app made with `ON CONFLICT REPLACE` on a UNIQUE constraint the rebuild keeps: two
/// rows the new table takes for equal are never settled by dropping one. A declared collation
/// change is refused before any write, by the dry run first; a collation the migrator is given
/// that disagrees with the app's fails the copy (`INSERT OR ABORT` overrides the constraint's
/// `REPLACE`). Offline and online alike, every row stays.
@Suite struct ConflictClauseTests {
    /// The app's table: `email` unique, a collision settled by replacing the older row.
    static let table = """
        CREATE TABLE user (id INTEGER PRIMARY KEY, email TEXT COLLATE appcase UNIQUE ON CONFLICT REPLACE,
            name TEXT NOT NULL ON CONFLICT IGNORE DEFAULT '');
        INSERT INTO user (email, name) VALUES ('A@x', 'first'), ('a@x', 'second'), ('b@x', 'third');
        """

    static func makeV1(_ database: TemporaryDatabase) throws -> Schema {
        let app = try SQLiteConnection(
            path: database.path, environment: SQLEnvironment(collations: [CollationDisagreementTests.appCollation]))
        try app.execute(table)
        return try SchemaIntrospection(databaseAt: database.url).schema
    }

    static func names(_ database: TemporaryDatabase) throws -> [[String]] {
        try database.rows("SELECT name FROM user ORDER BY id")
    }

    @Test(arguments: [false, true])
    func aDeclaredCollationThatMakesTwoRowsEqualIsRefusedBeforeAnyWrite(online: Bool) throws {
        let database = TemporaryDatabase()
        let v1 = try Self.makeV1(database)
        var v2 = v1
        v2.version = Schema.Version(2, 0, 0)
        let position = try #require(v2.entities[0].attributes.firstIndex { $0.name == "email" })
        v2.entities[0].attributes[position].collation = "NOCASE"
        var options = MigrationOptions(
            sqlEnvironment: SQLEnvironment(collations: [CollationDisagreementTests.appCollation]))
        if online { options.online = OnlineRebuildOptions() }
        let before = try database.bytes()
        let report = try PlanBuilder.migrator([v1, v2], options: options).plan(databaseAt: database.url)
        let error = try #require(throws: MigrationError.self) {
            try PlanBuilder.migrator([v1, v2], options: options).migrate(databaseAt: database.url)
        }
        #expect(report.refusals.map(\.message) == [error.message])
        #expect(error.code == .dataViolation)
        #expect(
            error.message
                == "cannot make (email) unique on 'user' under its new collation NOCASE: 1 value is shared by more than one row"
        )
        #expect(error.details == ["'A@x' is shared by 2 rows"])
        #expect(try Self.names(database) == [["'first'"], ["'second'"], ["'third'"]])
        #expect(try database.bytes() == before)
    }

    @Test(arguments: [false, true])
    func aCollisionTheCopyMeetsFailsRatherThanReplaceARow(online: Bool) throws {
        let database = TemporaryDatabase()
        let v1 = try Self.makeV1(database)
        // A rebuild for another reason: `name`'s default changes.
        var v2 = v1
        v2.version = Schema.Version(2, 0, 0)
        let position = try #require(v2.entities[0].attributes.firstIndex { $0.name == "name" })
        v2.entities[0].attributes[position].defaultValue = "'nobody'"
        // The migrator's `appcase` folds case, where the app's does not: 'A@x' and 'a@x' collide.
        var options = MigrationOptions(
            sqlEnvironment: SQLEnvironment(collations: [CollationDisagreementTests.migratorCollation]))
        if online { options.online = OnlineRebuildOptions(chunkTargetMilliseconds: 0.5) }
        let before = try database.bytes()
        let error = try #require(throws: MigrationError.self) {
            try PlanBuilder.migrator([v1, v2], options: options).migrate(databaseAt: database.url)
        }
        #expect(error.code == .dataViolation, "\(error)")
        #expect(error.details.contains { $0.hasPrefix("equal: 'A@x' ≡ 'a@x'") }, "\(error)")
        #expect(try Self.names(database) == [["'first'"], ["'second'"], ["'third'"]])
        if !online { #expect(try database.bytes() == before) }
    }
}
