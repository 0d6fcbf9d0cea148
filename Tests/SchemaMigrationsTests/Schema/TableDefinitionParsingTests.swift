import Testing

@testable import SchemaMigrations

/// A rebuild starts from the live table's own `CREATE TABLE` text. Every statement here is created
/// in a real SQLite database; the parser reads the text SQLite stored, must agree with what SQLite
/// reports (pragma_table_xinfo, pragma_table_list, pragma_foreign_key_list), and the definition
/// written back under another name must give a table SQLite cannot tell from the original
/// (see ``DefinitionRoundTrip``).
@Suite struct TableDefinitionParsingTests {
    /// Statements from SQLite's documentation, as printed there (a trailing `;` dropped; where the
    /// page elides columns with a comment, the comment is kept and the dangling comma removed).
    static let documentation: [String] = [
        // https://www.sqlite.org/foreignkeys.html §1
        "CREATE TABLE artist(\n  artistid    INTEGER PRIMARY KEY, \n  artistname  TEXT\n)",
        "CREATE TABLE track(\n  trackid     INTEGER,\n  trackname   TEXT, \n  trackartist INTEGER     -- Must map to an artist.artistid!\n)",
        "CREATE TABLE track(\n  trackid     INTEGER, \n  trackname   TEXT, \n  trackartist INTEGER,\n  FOREIGN KEY(trackartist) REFERENCES artist(artistid)\n)",
        // https://www.sqlite.org/foreignkeys.html §3
        "CREATE TABLE parent(a PRIMARY KEY, b UNIQUE, c, d, e, f)",
        "CREATE TABLE child1(f, g REFERENCES parent(a))",
        "CREATE TABLE child2(h, i REFERENCES parent(b))",
        "CREATE TABLE child3(j, k, FOREIGN KEY(j, k) REFERENCES parent(c, d))",
        "CREATE TABLE child4(l, m REFERENCES parent(e))",
        "CREATE TABLE child5(n, o REFERENCES parent(f))",
        "CREATE TABLE child6(p, q, FOREIGN KEY(p, q) REFERENCES parent(b, c))",
        "CREATE TABLE child7(r REFERENCES parent(c))",
        "CREATE TABLE track(\n  trackid     INTEGER,\n  trackname   TEXT,\n  trackartist INTEGER REFERENCES artist\n)",
        // https://www.sqlite.org/foreignkeys.html §4.1
        "CREATE TABLE album(\n  albumartist TEXT,\n  albumname TEXT,\n  albumcover BINARY,\n  PRIMARY KEY(albumartist, albumname)\n)",
        "CREATE TABLE song(\n  songid     INTEGER,\n  songartist TEXT,\n  songalbum TEXT,\n  songname   TEXT,\n  FOREIGN KEY(songartist, songalbum) REFERENCES album(albumartist, albumname)\n)",
        // https://www.sqlite.org/foreignkeys.html §4.2
        "CREATE TABLE track(\n  trackid     INTEGER,\n  trackname   TEXT,\n  trackartist INTEGER REFERENCES artist(artistid) DEFERRABLE INITIALLY DEFERRED\n)",
        // https://www.sqlite.org/foreignkeys.html §4.3
        "CREATE TABLE track(\n  trackid     INTEGER,\n  trackname   TEXT,\n  trackartist INTEGER REFERENCES artist(artistid) ON UPDATE CASCADE\n)",
        "CREATE TABLE track(\n  trackid     INTEGER,\n  trackname   TEXT,\n  trackartist INTEGER DEFAULT 0 REFERENCES artist(artistid) ON DELETE SET DEFAULT\n)",
        // https://www.sqlite.org/gencol.html §2
        "CREATE TABLE t1(\n   a INTEGER PRIMARY KEY,\n   b INT,\n   c TEXT,\n   d INT GENERATED ALWAYS AS (a*abs(b)) VIRTUAL,\n   e TEXT GENERATED ALWAYS AS (substr(c,b,b+1)) STORED\n)",
        "CREATE TABLE t1(\n   a INTEGER PRIMARY KEY,\n   b INT,\n   c TEXT,\n   d INT AS (a*abs(b)),\n   e TEXT AS (substr(c,b,b+1)) STORED\n)",
        // https://www.sqlite.org/stricttables.html §3
        "CREATE TABLE t1(a ANY) STRICT",
        "CREATE TABLE t2(b ANY)",
        // https://www.sqlite.org/withoutrowid.html §1.1
        "CREATE TABLE IF NOT EXISTS wordcount(\n  word TEXT PRIMARY KEY,\n  cnt INTEGER\n) WITHOUT ROWID",
        // https://www.sqlite.org/lang_createtable.html#rowid
        "CREATE TABLE t(x INTEGER PRIMARY KEY ASC, y, z)",
        "CREATE TABLE t(x INTEGER, y, z, PRIMARY KEY(x ASC))",
        "CREATE TABLE t(x INTEGER, y, z, PRIMARY KEY(x DESC))",
        "CREATE TABLE t(x INTEGER PRIMARY KEY DESC, y, z)",
        // https://www.sqlite.org/datatype3.html §3.4 and §7.1
        "CREATE TABLE t1(\n    t  TEXT,     -- text affinity by rule 2\n    nu NUMERIC,  -- numeric affinity by rule 5\n    i  INTEGER,  -- integer affinity by rule 1\n    r  REAL,     -- real affinity by rule 4\n    no BLOB      -- no affinity by rule 3\n)",
        "CREATE TABLE t1(\n    x INTEGER PRIMARY KEY,\n    a,                 /* collating sequence BINARY */\n    b COLLATE BINARY,  /* collating sequence BINARY */\n    c COLLATE RTRIM,   /* collating sequence RTRIM  */\n    d COLLATE NOCASE   /* collating sequence NOCASE */\n)",
        "CREATE TABLE t1(a TEXT, b NUMERIC, c BLOB, d)",
        // https://www.sqlite.org/lang_returning.html §1
        "CREATE TABLE t0(\n  a INTEGER PRIMARY KEY,\n  b DATE DEFAULT CURRENT_TIMESTAMP,\n  c INTEGER\n)",
        // https://www.sqlite.org/lang_upsert.html §2.1
        "CREATE TABLE vocabulary(word TEXT PRIMARY KEY, count INT DEFAULT 1)",
        "CREATE TABLE phonebook(name TEXT PRIMARY KEY, phonenumber TEXT)",
        "CREATE TABLE phonebook2(\n  name TEXT PRIMARY KEY,\n  phonenumber TEXT,\n  validDate DATE\n)",
        // https://www.sqlite.org/expridx.html §1
        "CREATE TABLE account_change(\n  chng_id INTEGER PRIMARY KEY,\n  acct_no INTEGER REFERENCES account,\n  location INTEGER REFERENCES locations,\n  amt INTEGER,  -- in cents\n  authority TEXT,\n  comment TEXT\n)",
        // https://www.sqlite.org/partialindex.html §2.1
        "CREATE TABLE person(\n  person_id       INTEGER PRIMARY KEY,\n  team_id         INTEGER REFERENCES team,\n  is_team_leader  BOOLEAN\n  -- other fields elided\n)",
        // https://www.sqlite.org/autoinc.html (the keyword as the page spells it)
        "CREATE TABLE t(id INTEGER PRIMARY KEY AUTOINCREMENT, v TEXT)",
    ]

    /// Legal statements chosen to trip a parser: every quoting style, keywords as names, every
    /// constraint named, every ON CONFLICT and foreign key clause, odd type names, nesting, comments.
    static let hostile: [String] = [
        #"CREATE TABLE "select"("from" INT, [where] TEXT, `group` BLOB, 'order' REAL, "a""b" INT, `c``d`, [e"f], 'g''h')"#,
        #"CREATE TABLE "a ""quoted"" table"("col with space" INT, "it's" TEXT, "x]y", [x`y], `x[y`)"#,
        #"CREATE TABLE "tàble 表"(naïve TEXT, "名前" TEXT NOT NULL, 🙂 INT, "a b" DEFAULT 'é', ÄÖÜ COLLATE NOCASE)"#,
        "CREATE TABLE 'strange name'(a, 'b c' INT)",
        "CREATE TABLE t(key INT, action TEXT, match BLOB, generated REAL, without, strict, rowid INT, replace, abort, temp, end, cascade, no, initially)",
        // CONSTRAINT name on every kind of constraint.
        "CREATE TABLE t(a INTEGER CONSTRAINT pk PRIMARY KEY CONSTRAINT nn NOT NULL CONSTRAINT u UNIQUE CONSTRAINT ck CHECK (a > 0) CONSTRAINT d DEFAULT 1 CONSTRAINT c COLLATE NOCASE CONSTRAINT fk REFERENCES p(id), b CONSTRAINT g GENERATED ALWAYS AS (a * 2) STORED CONSTRAINT n NULL)",
        "CREATE TABLE t(a, b, c, CONSTRAINT pk PRIMARY KEY (a, b), CONSTRAINT u UNIQUE (c), CONSTRAINT ck CHECK (a <> b), CONSTRAINT fk FOREIGN KEY (c) REFERENCES p(id))",
        #"CREATE TABLE t(a CONSTRAINT "named ""nn""" NOT NULL CONSTRAINT [d d] DEFAULT 0, CONSTRAINT 'u u' UNIQUE (a))"#,
        // ON CONFLICT on every constraint that takes it.
        "CREATE TABLE t(a INTEGER PRIMARY KEY ON CONFLICT REPLACE, b NOT NULL ON CONFLICT IGNORE, c UNIQUE ON CONFLICT FAIL, d NULL ON CONFLICT ABORT, UNIQUE (b, c) ON CONFLICT ROLLBACK)",
        "CREATE TABLE t(a, b, PRIMARY KEY (a, b) ON CONFLICT ABORT)",
        // PRIMARY KEY direction and AUTOINCREMENT.
        "CREATE TABLE t(x INTEGER PRIMARY KEY DESC ON CONFLICT FAIL, y)",
        "CREATE TABLE t(id INTEGER PRIMARY KEY ASC AUTOINCREMENT, v)",
        "CREATE TABLE t(id integer primary key on conflict ignore autoincrement not null, v)",
        "CREATE TABLE t(a TEXT, b INT, UNIQUE (a COLLATE NOCASE DESC, b ASC), PRIMARY KEY (b DESC))",
        // Type names.
        #"CREATE TABLE t(a UNSIGNED BIG INT, b DECIMAL(10, 5), c VARCHAR(255), d DOUBLE PRECISION, e, f NATIVE CHARACTER(70), g VARYING CHARACTER(255), h NVARCHAR(100), i CLOB, j DATETIME, k BOOLEAN, l INT8, m int2, n MediumInt, o TINYINT, p FLOAT, q NUMERIC, r DATE, s CHARACTER(20), t2 "my type" (10), u 'text', v int, w decimal ( +10 , -5 ), x "INTEGER", y [real], z `blob` NOT NULL)"#,
        "CREATE TABLE t(a  UNSIGNED  /* between */ BIG  INT, b VARCHAR(+5), c DECIMAL(-1, +2), d x(1), e any)",
        // Nested parentheses in CHECK, DEFAULT and generated expressions; parentheses in strings.
        #"CREATE TABLE t(a INT CHECK (((a)) > (abs(-(1))) AND a IN (1, (2), 3)), b DEFAULT ((1 + (2 * 3))), c TEXT DEFAULT (lower(upper('(x)'))), d AS (coalesce(a, (b)) + length(')')), e AS ('{"a":1}' ->> '$.a'), CHECK ((a, b) IS NOT (0, 0)))"#,
        "CREATE TABLE t(a CHECK (a != 'a,b)' AND a NOT LIKE '%--%' AND a <> '/*'), b CHECK (b IN (1, 2) OR b IS NULL))",
        // Every form of DEFAULT.
        #"CREATE TABLE t(a DEFAULT NULL, b DEFAULT TRUE, c DEFAULT false, d DEFAULT CURRENT_TIMESTAMP, e DEFAULT current_date, f DEFAULT CURRENT_TIME, g DEFAULT -1.5e3, h DEFAULT +0x10, i DEFAULT x'00ff', j DEFAULT 'it''s', k DEFAULT (datetime('now')), l DEFAULT hello, m DEFAULT "quoted", n DEFAULT - 5, o DEFAULT .5, p DEFAULT ( /* c */ 1 + 2 ))"#,
        // Comments anywhere between tokens.
        "CREATE TABLE t( -- first\n a /* name */ INT /* type */ NOT /* between */ NULL, -- after\n b TEXT /* last */ )",
        "CREATE TABLE t(a /* ) */ INT, b TEXT -- ) , c\n , c CHECK (c /* ( */ > 0))",
        "CREATE TABLE t(a INT)/* trailing comment */",
        // Every foreign key clause.
        "CREATE TABLE t(a REFERENCES p(x) ON DELETE CASCADE ON UPDATE RESTRICT, b REFERENCES p(y) ON DELETE SET NULL ON UPDATE SET DEFAULT MATCH FULL, c REFERENCES p ON DELETE NO ACTION ON UPDATE CASCADE NOT DEFERRABLE, d REFERENCES p DEFERRABLE INITIALLY IMMEDIATE, e REFERENCES p NOT DEFERRABLE INITIALLY DEFERRED, f REFERENCES p MATCH SIMPLE DEFERRABLE, FOREIGN KEY (a, b) REFERENCES p (x, y) ON UPDATE SET NULL ON DELETE RESTRICT MATCH PARTIAL DEFERRABLE INITIALLY DEFERRED)",
        #"CREATE TABLE t(a, "b c", FOREIGN KEY ("b c", a) REFERENCES "p q"("x y", [z]) ON DELETE CASCADE, FOREIGN KEY (a) REFERENCES t)"#,
        // Case of keywords.
        "create table T (A integer primary key autoincrement, B text not null default 'x' collate nocase, C Check (c > 0) references P on delete cascade)",
        // Table options.
        "CREATE TABLE t(k TEXT PRIMARY KEY, v ANY) STRICT, WITHOUT ROWID",
        "CREATE TABLE t(k TEXT PRIMARY KEY, v INT) WITHOUT ROWID, STRICT",
        "CREATE TABLE t(k PRIMARY KEY, v) without rowid",
        "CREATE TABLE t(k INT, v TEXT) strict",
        "CREATE TABLE IF NOT EXISTS main.\"t\"(a)",
        // Generated columns of every spelling.
        "CREATE TABLE t(a INT, b INT GENERATED ALWAYS AS (a + 1) VIRTUAL, c AS (a || 'x') STORED, d TEXT AS (typeof(a)) NOT NULL, e generated always as (a*2) stored UNIQUE)",
        // Legal corners of the grammar (parse.y): a constraint name with nothing after it, table
        // constraints without commas between them, DEFERRABLE as a column constraint of its own,
        // ON INSERT in a foreign key, ON CONFLICT after a table CHECK, GENERATED as a type name.
        "CREATE TABLE t(a INT CONSTRAINT foo, b CONSTRAINT x CONSTRAINT y NOT NULL)",
        "CREATE TABLE t(a, b, CONSTRAINT dangling)",
        "CREATE TABLE t(a, b, c, PRIMARY KEY(a) UNIQUE(b) CHECK(a > 0) CONSTRAINT f FOREIGN KEY (c) REFERENCES p)",
        "CREATE TABLE t(a REFERENCES p(id) NOT NULL DEFERRABLE INITIALLY DEFERRED)",
        "CREATE TABLE t(a REFERENCES p(id) ON INSERT CASCADE ON DELETE CASCADE)",
        "CREATE TABLE t(a, CHECK (a > 0) ON CONFLICT FAIL)",
        "CREATE TABLE t(a generated text, b INT)",
        // fuzzer, seed 99
        "CREATE TABLE t(a INT, generated AS (a + 1), always, b generated ALWAYS AS (generated * 2))",
        "CREATE TABLE t(a, b, UNIQUE ((a), b))",
        // SQLite reads GENERATED ALWAYS after a type name as part of the type and cuts it off
        // again, keeping the comment before it in the declared type (fuzzer, seed 20261122).
        "CREATE TABLE t(a INT, b BOOLEAN /* c */ GENERATED ALWAYS AS (a > 0), c TEXT -- note\n GENERATED ALWAYS AS ('x') STORED, d DECIMAL(10, 5) /* c */ GENERATED ALWAYS AS (1))",
    ]

    /// Tables whose stored text SQLite itself rewrote: ALTER TABLE ADD COLUMN splices the column's
    /// text in, RENAME COLUMN / RENAME TO / DROP COLUMN edit it in place.
    static let alteredBySQLite: [String] = [
        "CREATE TABLE t(a INT /* keep */, b TEXT /* last */ ); ALTER TABLE t ADD COLUMN c TEXT DEFAULT 'x' /* inner */ CHECK (c <> ''); ALTER TABLE t ADD COLUMN [d e] REFERENCES p(id) ON DELETE CASCADE",
        "CREATE TABLE t(a INT, b TEXT, c AS (a + 1), CHECK (a > 0), UNIQUE (a, b)); ALTER TABLE t RENAME COLUMN a TO \"A 2\"",
        "CREATE TABLE t(a INT, b TEXT, c REAL); ALTER TABLE t DROP COLUMN b; ALTER TABLE t RENAME TO \"new t\"",
        "CREATE TABLE t(id INTEGER PRIMARY KEY, parent REFERENCES t(id)); ALTER TABLE t RENAME COLUMN id TO key",
        "CREATE TABLE t(a INT) STRICT; ALTER TABLE t ADD COLUMN b ANY",
    ]

    @Test(arguments: alteredBySQLite)
    func textSQLiteRewroteRoundTrips(_ script: String) throws {
        let problems = try #require(DefinitionRoundTrip.check(script), "SQLite rejected the script")
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test(arguments: documentation)
    func everyDocumentationStatementRoundTrips(_ statement: String) throws {
        let problems = try #require(DefinitionRoundTrip.check(statement), "SQLite rejected the corpus statement")
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test(arguments: hostile)
    func everyHostileButLegalStatementRoundTrips(_ statement: String) throws {
        let problems = try #require(DefinitionRoundTrip.check(statement), "SQLite rejected the corpus statement")
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test func theModelKeepsEachClauseAsWritten() throws {
        let definition = try TableDefinition(
            parsing: """
                CREATE TABLE "t" (id INTEGER PRIMARY KEY AUTOINCREMENT, "Name" NVARCHAR(160) CONSTRAINT n NOT NULL COLLATE NOCASE,
                  price REAL CHECK (price >= 0) DEFAULT (0.0), owner REFERENCES person(id) ON UPDATE CASCADE,
                  total AS (price * 2) STORED, UNIQUE ("Name", owner), CHECK (length(name) > 0)) STRICT
                """)
        #expect(definition.name == "t")
        #expect(definition.columns.map(\.name) == ["id", "Name", "price", "owner", "total"])
        #expect(definition.columns.map(\.nameText) == ["id", "\"Name\"", "price", "owner", "total"])
        #expect(definition.columns.map(\.typeText) == ["INTEGER", "NVARCHAR(160)", "REAL", "", ""])
        #expect(definition.columns[1].constraints.map(\.text) == ["CONSTRAINT n NOT NULL", "COLLATE NOCASE"])
        #expect(definition.columns[1].constraints.map(\.kind) == [.notNull, .collate("NOCASE")])
        #expect(definition.columns[2].constraints.map(\.kind) == [.check, .defaultValue])
        #expect(definition.columns[3].constraints.map(\.kind) == [.references("person")])
        #expect(definition.columns[4].isGenerated)
        #expect(definition.hasAutoincrement)
        #expect(definition.constraints.map(\.kind) == [.unique, .check])
        #expect(definition.constraints[0].columns == ["name", "owner"])
        #expect(definition.strict && !definition.withoutRowid)
        #expect(definition.column(named: "NAME")?.name == "Name")
    }

    @Test(arguments: [
        "", "CREATE", "CREATE TABLE", "CREATE TABLE t", "CREATE TABLE t(", "CREATE TABLE t()", "CREATE TABLE t(a",
        "CREATE TABLE t(a,)",
        "CREATE TABLE t(a) WITHOUT", "CREATE TABLE t(a) WITHOUT NOTHING", "CREATE TABLE t(a) EXTRA",
        "CREATE INDEX i ON t(a)",
        "CREATE TABLE t(a CHECK (a > 0)", "CREATE TABLE t(a PRIMARY)", "CREATE TABLE t(a REFERENCES)",
        "CREATE TABLE t(a REFERENCES p ON DELETE)",
        "CREATE TABLE t(UNIQUE (a), b)", "CREATE TABLE t AS SELECT 1", "CREATE TABLE t(a 'x)",
        "CREATE VIEW v AS SELECT 1",
    ])
    func textThatIsNotATableDefinitionIsRefusedWithAParseError(_ statement: String) {
        #expect(throws: TableDefinition.ParseError.self) { try TableDefinition(parsing: statement) }
    }

    @Test func aTableMadeBySelectIsRefusedWithTheReason() throws {
        let error = try #require(throws: TableDefinition.ParseError.self) {
            try TableDefinition(parsing: "CREATE TABLE t AS SELECT 1 AS a")
        }
        #expect(error.message.contains("AS SELECT"))
    }
}
