import Testing

@testable import SchemaMigrations

/// What the semantic schema calls a deferred key is what SQLite defers: for each way a table's
/// foreign key may spell its timing, a violating insert fails at once exactly when the key is
/// not listed as deferred. (`NOT DEFERRABLE INITIALLY DEFERRED` is immediate.)
@Suite struct SemanticTimingTests {
    @Test(arguments: Schema.ForeignKeyTiming.allCases.map(\.rawValue) + [""])
    func aKeyIsDeferredExactlyWhenSQLiteDefersIt(timing: String) throws {
        let database = TemporaryDatabase()
        try database.execute(
            """
            CREATE TABLE p (id INTEGER PRIMARY KEY, k INTEGER, UNIQUE (id, k));
            CREATE TABLE c (id INTEGER PRIMARY KEY, pid INTEGER, pk INTEGER,
                FOREIGN KEY (pid, pk) REFERENCES p (id, k) \(timing));
            """)
        let db = try database.connect()
        try db.execute("PRAGMA foreign_keys = ON")
        try db.execute("BEGIN")
        let immediate = (try? db.execute("INSERT INTO c (pid, pk) VALUES (9, 9)")) == nil
        try? db.execute("ROLLBACK")
        let lines = try SemanticSchema.lines(database.path)
        #expect(lines.contains("table c deferred key: pid,pk") == !immediate, "\(timing): \(lines)")
    }
}
