import Testing

@testable import SchemaMigrations

/// ``TableDefinition/rowidAlias`` says what SQLite does: for each way of writing a key, a row
/// inserted with key 7 gets rowid 7 exactly when SQLite made the key the rowid's alias.
@Suite struct TableDefinitionRowidAliasTests {
    static let tables = [
        "CREATE TABLE t (id INTEGER PRIMARY KEY, a)",
        "CREATE TABLE t (id INTEGER PRIMARY KEY DESC, a)",
        "CREATE TABLE t (id INTEGER PRIMARY KEY ASC AUTOINCREMENT, a)",
        "CREATE TABLE t (id integer CONSTRAINT k PRIMARY KEY, a)",
        "CREATE TABLE t (id INT PRIMARY KEY, a)",
        "CREATE TABLE t (id BIGINT PRIMARY KEY, a)",
        "CREATE TABLE t (id INTEGER, a, PRIMARY KEY (id))",
        "CREATE TABLE t (id INTEGER, a, PRIMARY KEY (id DESC))",
        "CREATE TABLE t (id INTEGER, a, PRIMARY KEY (id COLLATE NOCASE))",
        "CREATE TABLE t ([Id] INTEGER NOT NULL, a, CONSTRAINT [PK_t] PRIMARY KEY ([Id]))",
        "CREATE TABLE t (id INTEGER, a, PRIMARY KEY (\"ID\"))",
        "CREATE TABLE t (id INTEGER, a, PRIMARY KEY (id) ON CONFLICT REPLACE)",
        "CREATE TABLE t (id INTEGER NOT NULL CONSTRAINT n CHECK (id > 0), a, CONSTRAINT \"p k\" PRIMARY KEY (id ASC))",
        "CREATE TABLE t (id INTEGER, a, PRIMARY KEY (id, a))",
        "CREATE TABLE t (id INTEGER, a, PRIMARY KEY (a))",
        "CREATE TABLE t (id INTEGER, a INTEGER, PRIMARY KEY (a))",
        "CREATE TABLE t (id INTEGER, a, PRIMARY KEY (id)) WITHOUT ROWID",
        "CREATE TABLE t (id INTEGER PRIMARY KEY, a ANY) STRICT",
        "CREATE TABLE t (id UNSIGNED INTEGER, a, PRIMARY KEY (id))",
        "CREATE TABLE t (id, a, PRIMARY KEY (id))",
        "CREATE TABLE t (id INTEGER, a)",
    ]

    @Test(arguments: tables)
    func theAliasIsTheOneSQLiteMakes(createTable: String) throws {
        let db = try SQLiteConnection(path: ":memory:")
        try db.execute(createTable)
        let keyColumn = createTable.contains("PRIMARY KEY (a)") ? "a" : "id"
        try db.execute("INSERT INTO t (\(keyColumn)) VALUES (7)")
        // A WITHOUT ROWID table has no rowid to select.
        let aliased = (try? db.scalar("SELECT rowid = 7 FROM t"))??.int64Value == 1
        let found = try TableDefinition(parsing: createTable).rowidAlias?.name
        #expect(found?.sqlFolded == (aliased ? keyColumn : nil), "\(createTable)")
    }

    /// A key column whose name needs quoting, and one that only a quoted name can be.
    @Test(arguments: ["\"we\"\"ird\"", "[we\"ird]", "`we\"ird`"])
    func aQuotedKeyNameIsFound(quoted: String) throws {
        let createTable = "CREATE TABLE t (\(quoted) INTEGER, a, PRIMARY KEY (\(quoted)))"
        let db = try SQLiteConnection(path: ":memory:")
        try db.execute(createTable)
        try db.execute("INSERT INTO t (\"we\"\"ird\") VALUES (7)")
        #expect(try db.scalar("SELECT rowid FROM t")?.int64Value == 7)
        #expect(try TableDefinition(parsing: createTable).rowidAlias?.name == "we\"ird")
    }
}
