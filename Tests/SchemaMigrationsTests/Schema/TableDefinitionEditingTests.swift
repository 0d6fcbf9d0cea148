import Testing

@testable import SchemaMigrations

/// A rebuild changes only what the plan changes: each edit of a parsed definition touches its own
/// clause and leaves every other one as written, and the result is a table SQLite creates.
@Suite struct TableDefinitionEditingTests {
    private let version = Schema.Version(2, 0, 0)

    /// A database holding the definition as table `t`.
    private func create(_ definition: TableDefinition) throws -> SQLiteConnection {
        let db = try SQLiteConnection(path: ":memory:")
        try db.execute(definition.sql(named: "t"))
        return db
    }

    /// name → "type|notnull|default" as pragma_table_xinfo says.
    private func columns(_ db: SQLiteConnection) throws -> [String: String] {
        var result: [String: String] = [:]
        for row in try db.rows("SELECT name, type, \"notnull\", dflt_value FROM pragma_table_xinfo('t')") {
            result[row[0].description] = "\(row[1])|\(row[2])|\(row[3].isNull ? "-" : row[3].description)"
        }
        return result
    }

    @Test func setNotNullAddsOrRemovesOnlyTheNullConstraints() throws {
        var definition = try TableDefinition(
            parsing:
                "CREATE TABLE t(a INT NULL CHECK (a > 0), b TEXT CONSTRAINT nn NOT NULL DEFAULT 'x' COLLATE NOCASE)")
        definition.setNotNull(true, column: "A")
        definition.setNotNull(false, column: "b")
        let db = try create(definition)
        #expect(try columns(db) == ["a": "INT|1|-", "b": "TEXT|0|'x'"])
        // The CHECK and the collation are still there.
        #expect(throws: SQLiteError.self) { try db.execute("INSERT INTO t (a) VALUES (-1)") }
        try db.execute("INSERT INTO t (a, b) VALUES (1, 'Swift')")
        #expect(try db.scalar("SELECT count(*) FROM t WHERE b = 'SWIFT'")?.int64Value == 1)
        #expect(
            definition.sql(named: "t")
                == "CREATE TABLE \"t\" (a INT CHECK (a > 0) NOT NULL, b TEXT DEFAULT 'x' COLLATE NOCASE)")
    }

    @Test func setDefaultReplacesEveryDefaultClauseOrRemovesIt() throws {
        var definition = try TableDefinition(
            parsing:
                "CREATE TABLE t(a TEXT CONSTRAINT d DEFAULT (1) DEFAULT 'x' NOT NULL, b INT DEFAULT 5 CHECK (b < 9))")
        definition.setDefault("'none'", column: "a")
        definition.setDefault(nil, column: "B")
        let db = try create(definition)
        #expect(try columns(db) == ["a": "TEXT|1|'none'", "b": "INT|0|-"])
        #expect(throws: SQLiteError.self) { try db.execute("INSERT INTO t (b) VALUES (10)") }
    }

    @Test func setTypeChangesTheTypeAndKeepsTheConstraints() throws {
        var definition = try TableDefinition(parsing: "CREATE TABLE t(a VARCHAR(10) COLLATE NOCASE UNIQUE, b)")
        definition.setType("DECIMAL(10, 5)", column: "a")
        definition.setType("TEXT", column: "b")
        let db = try create(definition)
        #expect(try columns(db) == ["a": "DECIMAL(10, 5)|0|-", "b": "TEXT|0|-"])
        try db.execute("INSERT INTO t (a) VALUES ('x')")
        #expect(throws: SQLiteError.self) { try db.execute("INSERT INTO t (a) VALUES ('X')") }
    }

    @Test func setReferenceReplacesTheColumnsOwnForeignKeyAndNoOther() throws {
        var definition = try TableDefinition(
            parsing: """
                CREATE TABLE t(a REFERENCES p(id) ON UPDATE CASCADE, b REFERENCES p(id) NOT NULL DEFERRABLE INITIALLY DEFERRED, c, d,
                  FOREIGN KEY (c) REFERENCES p(id), FOREIGN KEY (c, d) REFERENCES p2(x, y))
                """)
        definition.setReference(Schema.ForeignKey(table: "q", onDelete: "CASCADE"), column: "a")
        definition.setReference(nil, column: "b")
        definition.setReference(Schema.ForeignKey(table: "r", onDelete: "SET NULL"), column: "C")
        let db = try create(definition)
        let keys = try db.rows(
            "SELECT \"from\", \"table\", \"to\", on_update, on_delete FROM pragma_foreign_key_list('t') ORDER BY \"from\", \"table\""
        )
        .map { $0.map(\.description).joined(separator: " ") }
        #expect(
            keys == [
                "a q id NO ACTION CASCADE", "c p2 x NO ACTION NO ACTION", "c r id NO ACTION SET NULL",
                "d p2 y NO ACTION NO ACTION",
            ])
        // b keeps its NOT NULL; its DEFERRABLE, which belonged to the removed key, went with it.
        #expect(try columns(db)["b"] == "|1|-")
        #expect(!definition.sql(named: "t").contains("DEFERRABLE"))
    }

    @Test func droppingAColumnTakesItsOwnClausesAndSaysSo() throws {
        var definition = try TableDefinition(
            parsing: """
                CREATE TABLE t(id INTEGER PRIMARY KEY, a TEXT UNIQUE COLLATE NOCASE CHECK (a <> '') REFERENCES p(id), b INT,
                  CHECK (length(a) < 10), FOREIGN KEY (a) REFERENCES p(name) ON DELETE CASCADE, CHECK (b > 0))
                """)
        let removed = try definition.dropColumn("A", entity: "Item", version: version)
        #expect(
            removed == [
                "the constraint `CHECK (length(a) < 10)`",
                "the constraint `FOREIGN KEY (a) REFERENCES p(name) ON DELETE CASCADE`",
                "its `UNIQUE`", "its `COLLATE NOCASE`", "its `CHECK (a <> '')`", "its `REFERENCES p(id)`",
            ])
        #expect(definition.columns.map(\.name) == ["id", "b"])
        #expect(definition.constraints.map(\.text) == ["CHECK (b > 0)"])
        _ = try create(definition)
    }

    @Test(arguments: [
        ("CREATE TABLE t(a, b CHECK (b > a))", "the CHECK constraint of column b, `CHECK (b > a)`,"),
        ("CREATE TABLE t(a, b AS (a + 1))", "the generated expression of column b, `AS (a + 1)`,"),
        ("CREATE TABLE t(a, b, CHECK (a < b))", "the table constraint `CHECK (a < b)`"),
        ("CREATE TABLE t(a, b, UNIQUE (a, b))", "the table constraint `UNIQUE (a, b)`"),
        (
            "CREATE TABLE t(a, b, CONSTRAINT k PRIMARY KEY (b, a))",
            "the table constraint `CONSTRAINT k PRIMARY KEY (b, a)`"
        ),
        (
            "CREATE TABLE t(a, b, FOREIGN KEY (a, b) REFERENCES p(x, y))",
            "the table constraint `FOREIGN KEY (a, b) REFERENCES p(x, y)`"
        ),
    ])
    func droppingAColumnSomethingElseNeedsIsRefusedChangingNothing(_ statement: String, _ what: String) throws {
        var definition = try TableDefinition(parsing: statement)
        let before = definition
        let error = try #require(throws: MigrationError.self) {
            try definition.dropColumn("a", entity: "Item", version: version)
        }
        #expect(error.code == .unsupportedChange)
        #expect(error.message == "cannot drop 'Item.a': \(what) uses it")
        #expect(error.entity == "Item" && error.property == "a" && error.version == version)
        #expect(error.remedy?.isEmpty == false)
        #expect(definition == before)
    }

    @Test(arguments: [
        // The referenced table's name is not a column of this table.
        (
            "CREATE TABLE t(id INTEGER PRIMARY KEY, author TEXT, author_id INT, FOREIGN KEY (author_id) REFERENCES author(id))",
            "author"
        ),
        // Neither are keywords (KEY may name a column) nor constraint names.
        ("CREATE TABLE t(id INT, key TEXT, PRIMARY KEY (id))", "key"),
        ("CREATE TABLE t(price REAL, total REAL, CONSTRAINT total CHECK (price > 0))", "total"),
        ("CREATE TABLE t(a TEXT, nocase TEXT, UNIQUE (a COLLATE nocase))", "nocase"),
        // Nor are function names.
        ("CREATE TABLE t(name TEXT CHECK (length(name) > 0), length INT, total AS (abs(length)))", "abs"),
        ("CREATE TABLE t(name TEXT, length INT, abs INT AS (abs(-1)), CHECK (length(name) > 0))", "length"),
    ])
    func droppingAColumnNothingUsesIsAllowed(_ statement: String, _ column: String) throws {
        var definition = try TableDefinition(parsing: statement)
        let constraints = definition.constraints
        #expect(try definition.dropColumn(column, entity: "Item", version: version) == [])
        #expect(definition.constraints == constraints)
        _ = try create(definition)
    }

    /// Renames checked against SQLite's own `ALTER TABLE … RENAME COLUMN` (a swap as three renames):
    /// the rewritten clauses must be exactly the text SQLite writes.
    @Test(arguments: [
        (
            "CREATE TABLE t(a INT CHECK (a > b), b TEXT COLLATE NOCASE, c AS (a || b), UNIQUE (a, b), FOREIGN KEY (b) REFERENCES p(a), CHECK (length(b) < 10))",
            ["a": "b", "b": "a"], [("a", "tmp"), ("b", "a"), ("tmp", "b")]
        ),
        (
            "CREATE TABLE t(id INTEGER PRIMARY KEY, parent REFERENCES t(id) ON DELETE CASCADE, other REFERENCES p(id))",
            ["id": "key"], [("id", "key")]
        ),
        (
            "CREATE TABLE t(id INTEGER PRIMARY KEY, author REFERENCES author ON DELETE CASCADE, FOREIGN KEY (id) REFERENCES author)",
            ["author": "writer"], [("author", "writer")]
        ),
        (
            "CREATE TABLE t(nocase TEXT, b TEXT COLLATE nocase, CONSTRAINT nocase CHECK (nocase <> b))",
            ["nocase": "n"], [("nocase", "n")]
        ),
        // Columns named like keywords (fuzzer, seed 20261124): the keywords stay keywords.
        (
            #"CREATE TABLE t(key TEXT PRIMARY KEY ON CONFLICT REPLACE, value TEXT GENERATED ALWAYS AS (upper(key)) STORED, "end" INT CHECK (CASE WHEN key <> '' THEN "end" ELSE 0 END), replace INT, match TEXT CHECK (match NOT LIKE 'x' ESCAPE '\'), UNIQUE (key DESC, end ASC), FOREIGN KEY (replace) REFERENCES p(key) MATCH FULL)"#,
            ["key": "name", "end": "finish", "replace": "r", "match": "m"],
            [("key", "name"), ("end", "finish"), ("replace", "r"), ("match", "m")]
        ),
        (
            #"CREATE TABLE t("Mixed Case" TEXT CHECK ("mixed case" <> 'Mixed Case'), [x] DEFAULT 'x' CHECK (x IN ('x', "x")))"#,
            ["mixed case": "renamed", "x": "y"], [("Mixed Case", "renamed"), ("x", "y")]
        ),
    ])
    func renamesRewriteWhatSQLiteRewrites(
        _ statement: String, _ substitution: [String: String], _ steps: [(String, String)]
    ) throws {
        var definition = try TableDefinition(parsing: statement)
        definition.renameColumns(substitution)
        let db = try SQLiteConnection(path: ":memory:")
        try db.execute(statement)
        for (old, new) in steps {
            try db.execute("ALTER TABLE t RENAME COLUMN \(SQL.quoteIdentifier(old)) TO \(SQL.quoteIdentifier(new))")
        }
        let sqlite = try #require(try db.scalar("SELECT sql FROM sqlite_schema WHERE name = 't'")?.stringValue)
        #expect(
            try DefinitionRoundTrip.bodyTokens(definition.sql(named: "t")) == DefinitionRoundTrip.bodyTokens(sqlite),
            "SQLite wrote: \(sqlite)")
        let renamed = try TableDefinition(parsing: sqlite)
        #expect(definition.columns.map(\.name) == renamed.columns.map(\.name))
        #expect(definition.constraints.map(\.columns) == renamed.constraints.map(\.columns))
    }

    @Test func substituteLeavesFunctionNamesCollationsAndStringLiteralsAlone() {
        let sql = #"lower(a) || 'a' || "a" || [A] || a COLLATE lower || "lower"(b)"#
        #expect(
            TableDefinition.substitute(["lower": "x", "a": "b c"], in: sql)
                == #"lower("b c") || 'a' || "b c" || "b c" || "b c" COLLATE lower || "lower"(b)"#)
        #expect(TableDefinition.substitute([:], in: sql) == sql)
        // An index named like the column keeps its name, as SQLite's RENAME COLUMN leaves it.
        #expect(
            TableDefinition.substitute(
                ["key": "name"], in: "CREATE UNIQUE INDEX key ON t (key DESC) WHERE key IS NOT NULL")
                == #"CREATE UNIQUE INDEX key ON t ("name" DESC) WHERE "name" IS NOT NULL"#)
        #expect(TableDefinition.substitute(["a": "b"], in: "'unterminated a") == "'unterminated a")
    }

    @Test func addColumnAppendsBeforeTheTableConstraints() throws {
        var definition = try TableDefinition(parsing: "CREATE TABLE t(a, UNIQUE (a)) STRICT")
        try definition.addColumn(definition: #""notes" TEXT DEFAULT '' NOT NULL"#)
        #expect(
            definition.sql(named: "t") == #"CREATE TABLE "t" (a, "notes" TEXT DEFAULT '' NOT NULL, UNIQUE (a)) STRICT"#)
        #expect(throws: TableDefinition.ParseError.self) { try definition.addColumn(definition: "b TEXT CHECK (") }
    }
}
