import CSQLite
import Foundation
import Testing

@testable import SchemaMigrations

/// The checks around a custom stage's code follow what the code touched (SQLite's authorizer tells
/// as each statement is compiled): a broken reference is caught whichever way the code made it, a
/// damaged table is refused before the code reads it, and what the code did not touch is not read.
@Suite struct CodeFootprintTests {
    typealias A = PlanBuilder

    /// V1 `Person` with three rows, plus hand-made tables that reference it; V2 adds a column.
    static func database(extra sql: String) throws -> (TemporaryDatabase, [Schema]) {
        let db = TemporaryDatabase()
        let v1 = A.schema(1, [PersonFixture.person])
        let v2 = A.schema(
            2, [PersonFixture.person { $0.attributes.append(A.attribute("nickname", .string, optional: true)) }])
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute(
            PersonFixture.rows + """
                CREATE TABLE pet (id INTEGER PRIMARY KEY, owner INTEGER REFERENCES Person(id), name TEXT);
                INSERT INTO pet VALUES (1, 1, 'Rex'), (2, 3, 'Tom');
                """ + sql)
        return (db, [v1, v2])
    }

    /// Runs `code` as the stage's didMigrate, expecting a refusal for a broken reference that
    /// leaves the file as it was.
    static func expectBrokenReference(
        _ extra: String = "", details: [String], _ code: @escaping @Sendable (MigrationContext) throws -> Void
    ) throws {
        let (db, schemas) = try database(extra: extra)
        let before = try db.bytes()
        let error = try #require(throws: MigrationError.self) {
            try A.migrator(schemas, kind: .custom, didMigrate: code).migrate(databaseAt: db.url)
        }
        #expect(error.code == .dataViolation)
        #expect(error.details == details)
        #expect(try db.bytes() == before)
    }

    @Test func aChildPointedAtAMissingParentIsCaught() throws {
        try Self.expectBrokenReference(details: ["pet row 1 references a missing row of Person"]) { context in
            try context.execute("UPDATE pet SET owner = 99 WHERE id = 1")
        }
    }

    @Test func aParentWhoseKeyChangesIsCaught() throws {
        try Self.expectBrokenReference(details: ["pet row 2 references a missing row of Person"]) { context in
            try context.execute("UPDATE Person SET id = 30 WHERE id = 3")
        }
    }

    @Test func aParentDeletedThroughTheDataAPIIsCaughtForATableThePlanDoesNotDeclare() throws {
        try Self.expectBrokenReference(details: ["pet row 1 references a missing row of Person"]) { context in
            try context.delete("Person", id: 1)
        }
    }

    @Test func aRowDeletedByOrReplaceIsCaught() throws {
        // Replacing on the unique email deletes owner 1, whom dog 1 references.
        let tables = """
            CREATE TABLE owner (id INTEGER PRIMARY KEY, email TEXT UNIQUE);
            CREATE TABLE dog (id INTEGER PRIMARY KEY, owner INTEGER REFERENCES owner(id));
            INSERT INTO owner VALUES (1, 'a@example.com'), (2, 'b@example.com');
            INSERT INTO dog VALUES (1, 1), (2, 2);
            """
        try Self.expectBrokenReference(tables, details: ["dog row 1 references a missing row of owner"]) { context in
            try context.execute("INSERT OR REPLACE INTO owner (id, email) VALUES (7, 'a@example.com')")
        }
    }

    @Test func aParentDeletedByATriggerIsCaught() throws {
        let trigger =
            "CREATE TRIGGER pet_renamed AFTER UPDATE OF name ON pet BEGIN DELETE FROM Person WHERE id = new.owner; END;"
        try Self.expectBrokenReference(trigger, details: ["pet row 2 references a missing row of Person"]) { context in
            try context.execute("UPDATE pet SET name = 'Tommy' WHERE id = 2")
        }
    }

    @Test func codeThatChangesNoKeyRunsNoForeignKeyCheckAndReadsOnlyItsTable() throws {
        let (db, schemas) = try Self.database(extra: "CREATE TABLE unrelated (x); INSERT INTO unrelated VALUES (1);")
        let connection = try db.connect()
        let recorder = StatementRecorder()
        connection.startRecording(into: recorder)
        try A.migrator(
            schemas, kind: .custom,
            didMigrate: { context in
                try context.forEach("Person") { row in
                    try context.update(
                        "Person", id: row.id,
                        values: ["nickname": String(try row.value("name", as: String.self).prefix(2))])
                }
            }
        ).migrate(using: connection)
        connection.stopRecording()
        let checks = recorder.entries.compactMap { entry -> String? in
            guard case .statement(let sql, _) = entry,
                sql.hasPrefix("PRAGMA quick_check") || sql.contains("pragma_foreign_key_check")
            else { return nil }
            return sql
        }
        #expect(checks == ["PRAGMA quick_check('sqlite_schema')", "PRAGMA quick_check('Person')"])
        #expect(try db.rows("SELECT nickname FROM Person ORDER BY id") == [["'Ad'"], ["'Al'"], ["'Gr'"]])
    }

    @Test func aDamagedTableIsRefusedBeforeTheCodeReadsItEvenIfTheCodeCatchesTheError() throws {
        let db = TemporaryDatabase()
        let v1 = A.schema(1, [PersonFixture.person])
        let v2 = A.schema(
            2, [PersonFixture.person { $0.attributes.append(A.attribute("nickname", .string, optional: true)) }])
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute("PRAGMA page_size = 1024; VACUUM;")
        try db.execute(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 500) INSERT INTO Person (id, name) SELECT i, 'person ' || i FROM n;"
        )
        // Zero a leaf page of Person: its root's right-most child (bytes 8–11 of an interior page's header).
        let root = try #require(try db.scalar("SELECT rootpage FROM sqlite_schema WHERE name = 'Person'")?.int64Value)
        var bytes = [UInt8](try db.bytes())
        let rootOffset = Int(root - 1) * 1024
        try #require(bytes[rootOffset] == 0x05, "Person's root is an interior page")
        let leaf = bytes[rootOffset + 8..<rootOffset + 12].reduce(0) { $0 << 8 | Int($1) }
        for index in (leaf - 1) * 1024..<leaf * 1024 { bytes[index] = 0 }
        try Data(bytes).write(to: db.url)
        let before = try db.bytes()
        let error = try #require(throws: MigrationError.self) {
            try A.migrator(
                [v1, v2], kind: .custom,
                didMigrate: { context in
                    do {
                        try context.forEach("Person") { row in
                            try context.update("Person", id: row.id, values: ["nickname": "x"])
                        }
                    } catch {
                        // Swallowed: the stage must fail all the same.
                    }
                }
            ).migrate(databaseAt: db.url)
        }
        #expect(error.code == .notADatabase)
        #expect(try db.bytes() == before)
    }

    @Test func aBorrowedConnectionKeepsItsOwnersAuthorizerAndIsCheckedInFull() throws {
        let (db, schemas) = try Self.database(extra: "")
        let app = try db.connect()
        final class Calls { var count = 0 }
        let calls = Calls()
        sqlite3_set_authorizer(
            app.handle,
            { context, _, _, _, _, _ in
                Unmanaged<Calls>.fromOpaque(context!).takeUnretainedValue().count += 1
                return SQLITE_OK
            }, Unmanaged.passUnretained(calls).toOpaque())
        let recorder = StatementRecorder()
        app.startRecording(into: recorder)
        try A.migrator(
            schemas, kind: .custom, didMigrate: { context in try context.execute("UPDATE Person SET nickname = name") }
        )
        .migrate(connection: app.handle)
        app.stopRecording()
        let checks = recorder.entries.compactMap { entry -> String? in
            guard case .statement(let sql, _) = entry,
                sql.hasPrefix("PRAGMA quick_check") || sql.contains("pragma_foreign_key_check")
            else { return nil }
            return sql
        }
        #expect(
            checks == [
                "PRAGMA quick_check('sqlite_schema')", "PRAGMA quick_check('Person')", "PRAGMA quick_check('pet')",
                "SELECT 1 FROM pragma_foreign_key_check('pet') LIMIT 1",
            ])
        let before = calls.count
        _ = try app.scalar("SELECT count(*) FROM Person")
        #expect(calls.count > before, "the app's authorizer no longer runs")
        #expect(try db.rows("SELECT nickname FROM Person ORDER BY id") == [["'Ada'"], ["'Alan'"], ["'Grace'"]])
    }

    @Test(arguments: [
        ("INSERT OR REPLACE INTO t VALUES (1)", true), ("replace into t values (1)", true),
        ("UPDATE OR\nREPLACE t SET x = 1", true),
        ("UPDATE t SET x = replace(x, 'a', 'b')", false), ("INSERT INTO t VALUES ('or replace')", true),
        ("SELECT 1", false),
    ])
    func orReplaceIsToldFromTheReplaceFunction(sql: String, mayReplace: Bool) {
        #expect(CodeFootprint.mayReplace(sql) == mayReplace)
    }

    /// An insert into a table declared `ON CONFLICT REPLACE` may delete rows its children
    /// reference, so they are checked after the code; a column named `replaced_at` with the
    /// default 'REPLACE' declares no such thing, and its children are not read.
    @Test(arguments: [
        ("replaced_at TEXT DEFAULT 'REPLACE'", false), ("replaced_at TEXT, UNIQUE (email) ON CONFLICT REPLACE", true),
    ])
    func childrenOfATableThatReplacesOnConflictAreChecked(columns: String, checksChildren: Bool) throws {
        let (db, schemas) = try Self.database(
            extra: """
                CREATE TABLE owner (id INTEGER PRIMARY KEY, email TEXT, \(columns));
                CREATE TABLE dog (id INTEGER PRIMARY KEY, owner INTEGER REFERENCES owner(id));
                INSERT INTO owner (id, email) VALUES (1, 'a@example.com');
                INSERT INTO dog VALUES (1, 1);
                """)
        let connection = try db.connect()
        let recorder = StatementRecorder()
        connection.startRecording(into: recorder)
        try A.migrator(
            schemas, kind: .custom,
            didMigrate: { context in try context.execute("INSERT INTO owner (id, email) VALUES (2, 'b@example.com')") }
        ).migrate(using: connection)
        connection.stopRecording()
        let checks = recorder.entries.compactMap { entry -> String? in
            guard case .statement(let sql, _) = entry, sql.contains("pragma_foreign_key_check") else { return nil }
            return sql
        }
        #expect(checks == (checksChildren ? ["SELECT 1 FROM pragma_foreign_key_check('dog') LIMIT 1"] : []))
    }

    @Test(arguments: [
        ("CREATE TABLE t (a INTEGER PRIMARY KEY ON CONFLICT REPLACE)", true),
        ("CREATE TABLE t (a NOT NULL on conflict replace, b)", true),
        (
            "CREATE TABLE t (replaced_at, b DEFAULT 'REPLACE', \"on conflict replace\", c REFERENCES p ON DELETE CASCADE)",
            false
        ),
        ("CREATE TABLE t (a UNIQUE ON CONFLICT IGNORE, b CHECK (replace(b, 'x', '') <> ''))", false),
    ])
    func onConflictReplaceIsToldByItsKeywords(sql: String, replaces: Bool) {
        #expect(CodeFootprint.resolvesByReplacing(sql) == replaces)
    }
}
