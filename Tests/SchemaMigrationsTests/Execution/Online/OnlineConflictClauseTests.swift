import Foundation
import Testing

@testable import SchemaMigrations

/// Conflict clauses a version adds, with the application writing beside an online change: the
/// shadow never settles a write by skipping or deleting a row the table keeps. A new `UNIQUE`
/// (whatever its clause) needs the duplicates check, so its stage runs offline, every row kept;
/// a column made non-optional `ON CONFLICT IGNORE` runs online, and a NULL the application
/// writes during the copy reaches the shadow as the default, through the rebuild's own `SELECT`,
/// never as a row the clause would skip.
@Suite struct OnlineConflictClauseTests {
    typealias A = PlanBuilder

    static let log = Schema.Entity(
        name: "Log",
        attributes: [A.attribute("line", .string, default: "''"), A.attribute("level", .integer, optional: true)])
    static let v1 = A.schema(1, [log])

    /// 300 lines, and online options whose progress runs `beside` after the copy's second chunk,
    /// noting whether the stage cut over online.
    static func setUp(_ beside: @escaping @Sendable () -> Void) throws -> (
        TemporaryDatabase, MigrationOptions, Box<Bool>
    ) {
        let db = TemporaryDatabase()
        try A.migrator([Self.v1]).migrate(databaseAt: db.url)
        try db.execute(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300) INSERT INTO Log (line, level) SELECT 'line ' || i, i % 7 FROM n"
        )
        var options = MigrationOptions()
        options.online = OnlineRebuildOptions(chunkTargetMilliseconds: 0.05)
        let count = Counter()
        let online = Box<Bool>(false)
        options.progress = { event in
            if event.activity == .cuttingOver { online.value = true }
            if event.activity == .copyingOnline, count.next() == 1 { beside() }
        }
        return (db, options, online)
    }

    @Test(arguments: [nil, Schema.ConflictResolution.ignore, .replace, .fail, .rollback])
    func aNewUniqueConstraintRunsOfflineWhateverItsClauseKeepingEveryRow(_ resolution: Schema.ConflictResolution?)
        throws
    {
        let (db, options, online) = try Self.setUp {}
        var entity = Self.log
        entity.constraints = [.unique(["line"], onConflict: resolution)]
        try A.migrator([Self.v1, A.schema(2, [entity])], options: options).migrate(databaseAt: db.url)
        #expect(!online.value)
        #expect(try db.rows("SELECT count(*) FROM Log") == [["300"]])
        #expect(try db.recordedVersion() == "2.0.0")
    }

    @Test func aNullWrittenDuringTheCopyOfAColumnMadeNonOptionalIgnoringNullsTakesTheDefault() throws {
        let app = Box<SQLiteConnection?>(nil)
        let (db, options, online) = try Self.setUp {
            try? app.value?.execute("INSERT INTO Log (line, level) VALUES ('beside', NULL)")
        }
        app.value = try db.connect()
        var entity = Self.log
        entity.attributes[1].isOptional = false
        entity.attributes[1].defaultValue = "0"
        entity.attributes[1].notNullOnConflict = .ignore
        try A.migrator([Self.v1, A.schema(2, [entity])], options: options).migrate(databaseAt: db.url)
        #expect(online.value)
        #expect(try db.rows("SELECT count(*) FROM Log") == [["301"]])
        #expect(try db.rows("SELECT level FROM Log WHERE line = 'beside'") == [["0"]])
        // After the cut-over the clause is the table's: a NULL is skipped, as declared.
        try db.execute("INSERT INTO Log (line, level) VALUES ('after', NULL)")
        #expect(try db.rows("SELECT count(*) FROM Log WHERE line = 'after'") == [["0"]])
    }
}
