import Foundation
import Testing

@testable import SchemaMigrations

/// Table CHECKs, UNIQUE constraints and composite foreign keys declared on a model: a new
/// install has them as SQLite's own constraints, a stage changes them, and a database created
/// at a version is the database migrated to it.
@Suite struct TableConstraintTests {
    typealias T = TripConstraints

    @Test func aNewInstallHasTheDeclaredConstraintsAndSQLiteEnforcesThem() throws {
        let db = TemporaryDatabase()
        try Migrator(plan: T.PlanV1.self).migrate(databaseAt: db.url)
        try T.fill(db)
        // The table CHECK, by its name.
        #expect {
            try db.execute("INSERT INTO Trip (name, startDay, endDay) VALUES ('back', 5, 4)")
        } throws: { "\($0)".contains("CHECK constraint failed: days_in_order") }
        // The UNIQUE table constraint: SQLite's own index (origin u), not a CREATE INDEX.
        #expect(try db.rows("SELECT origin, \"unique\" FROM pragma_index_list('Stop')") == [["'u'", "1"]])
        #expect {
            try db.execute("INSERT INTO Stop (trip_id, day, place) VALUES (1, 2, 'harbour')")
        } throws: { "\($0)".contains("UNIQUE constraint failed") }
        // The composite foreign key, every clause (SQLite parses MATCH and reports every key as NONE).
        #expect(
            try db.rows(
                "SELECT \"from\", \"to\", \"table\", on_update, on_delete, \"match\" FROM pragma_foreign_key_list('Stop') ORDER BY seq"
            ) == [
                ["'trip_id'", "'trip_id'", "'Day'", "'CASCADE'", "'NO ACTION'", "'NONE'"],
                ["'day'", "'number'", "'Day'", "'CASCADE'", "'NO ACTION'", "'NONE'"],
            ])
        let connection = try db.connect()
        try connection.execute("PRAGMA foreign_keys = ON")
        // Deferred: a stop may come before its day within one transaction.
        try connection.execute(
            "BEGIN; INSERT INTO Stop (trip_id, day, place) VALUES (2, 11, 'lake'); INSERT INTO Day (trip_id, number, title) VALUES (2, 11, 'rest'); COMMIT"
        )
        #expect(throws: SQLiteError.self) {
            try connection.execute("INSERT INTO Stop (trip_id, day, place) VALUES (2, 12, 'peak')")
        }
        // ON UPDATE CASCADE moves the stops with their day.
        try connection.execute("UPDATE Day SET number = 13 WHERE trip_id = 2 AND number = 11")
        #expect(try db.rows("SELECT day FROM Stop WHERE place = 'lake'") == [["13"]])
        #expect(try Migrator(plan: T.PlanV1.self).verify(databaseAt: db.url).isUpToDate)
    }

    @Test func createdAtV2EqualsMigratedToV2WithEveryRow() throws {
        let migrated = TemporaryDatabase()
        try Migrator(plan: T.PlanV1.self).migrate(databaseAt: migrated.url)
        try T.fill(migrated)
        let report = try Migrator(plan: T.Plan.self).plan(databaseAt: migrated.url)
        let summaries = report.stages.flatMap { $0.steps.map(\.step.summary) }
        #expect(
            summaries.contains { $0.hasPrefix("Rebuild table Trip") && $0.contains("days_in_order") }, "\(summaries)")
        #expect(summaries.contains { $0.hasPrefix("Rebuild table Stop") && $0.contains("length(location) > 0") })
        try Migrator(plan: T.Plan.self).migrate(databaseAt: migrated.url)
        let created = TemporaryDatabase()
        try Migrator(plan: T.Plan.self).migrate(databaseAt: created.url)
        let (fresh, upgraded) = (try SemanticSchema.lines(created.path), try SemanticSchema.lines(migrated.path))
        #expect(fresh == upgraded, "\(SemanticSchema.difference(fresh, upgraded))")
        #expect(
            try migrated.rows("SELECT trip_id, day, location FROM Stop ORDER BY rowid") == [
                ["1", "1", "'harbour'"], ["1", "2", "'cliffs'"], ["2", "10", "'hut'"],
            ])
        #expect(try Migrator(plan: T.Plan.self).verify(databaseAt: migrated.url).isUpToDate)
        // V2's constraints hold: ON DELETE CASCADE, and the new CHECK.
        let connection = try migrated.connect()
        try connection.execute("PRAGMA foreign_keys = ON; DELETE FROM Day WHERE trip_id = 1 AND number = 1")
        #expect(try migrated.rows("SELECT location FROM Stop ORDER BY rowid") == [["'cliffs'"], ["'hut'"]])
        #expect(throws: SQLiteError.self) {
            try connection.execute("INSERT INTO Stop (trip_id, day, location) VALUES (2, 10, '')")
        }
    }

    @Test func theDryRunShowsTheConstraintsTheRebuildWrites() throws {
        let db = TemporaryDatabase()
        try Migrator(plan: T.PlanV1.self).migrate(databaseAt: db.url)
        try T.fill(db)
        let report = try Migrator(plan: T.Plan.self).plan(databaseAt: db.url)
        let sql = report.stages.flatMap { $0.steps.flatMap(\.sql) }
        let createStop = try #require(sql.first { $0.hasPrefix(#"CREATE TABLE "_sm_new_Stop""#) })
        #expect(createStop.contains("ON DELETE CASCADE"), "\(createStop)")
        #expect(
            createStop.contains(#"CONSTRAINT "one_visit_per_place" UNIQUE ("trip_id", "location")"#), "\(createStop)")
        #expect(createStop.contains("CHECK (length(location) > 0)"), "\(createStop)")
        #expect(!createStop.contains(#""place""#), "\(createStop)")
    }

    @Test func aNewUniqueConstraintOverDuplicatesIsRefusedBeforeAnyWrite() throws {
        enum V2: VersionedSchema {
            static let versionIdentifier = Schema.Version(2, 0, 0)
            static let models: [any PersistentModel.Type] = [Trip.self, T.V1.Day.self, T.V1.Stop.self]
            final class Trip: PersistentModel {
                static let entityName = "Trip"
                static let constraints: [Schema.TableConstraint] = [
                    .check("endDay >= startDay", name: "days_in_order"), .unique(["startDay"]),
                ]
                var name = ""
                var startDay = 0
                var endDay = 0
                init() {}
            }
        }
        enum Plan: SchemaMigrationPlan {
            static let schemas: [any VersionedSchema.Type] = [T.V1.self, V2.self]
        }
        let db = TemporaryDatabase()
        try Migrator(plan: T.PlanV1.self).migrate(databaseAt: db.url)
        try T.fill(db)
        try db.execute("INSERT INTO Trip (name, startDay, endDay) VALUES ('again', 1, 2)")
        let before = try db.bytes()
        #expect {
            try Migrator(plan: Plan.self).migrate(databaseAt: db.url)
        } throws: { error in
            "\(error)".contains("Trip.startDay") || "\(error)".contains("duplicate")
        }
        #expect(try db.bytes() == before)
    }

    @Test func aConstraintTheAppAddedStaysThroughARebuild() throws {
        let db = TemporaryDatabase()
        try Migrator(plan: T.PlanV1.self).migrate(databaseAt: db.url)
        // The app's own constraint, written into the table by hand (as a hand-written migration
        // or another tool would): a rebuild writes it back.
        let connection = try db.connect()
        try connection.execute(
            """
            PRAGMA writable_schema = ON;
            UPDATE sqlite_schema SET sql = substr(sql, 1, length(sql) - 1) || ', CONSTRAINT app_own CHECK (length(name) < 100))' WHERE name = 'Trip';
            PRAGMA writable_schema = OFF;
            """)
        try T.fill(db)
        try Migrator(plan: T.Plan.self).migrate(databaseAt: db.url)
        let sql = try db.rows("SELECT sql FROM sqlite_schema WHERE name = 'Trip'")[0][0]
        #expect(sql.contains("CONSTRAINT app_own CHECK (length(name) < 100)"), "\(sql)")
        #expect(sql.contains("endDay - startDay < 366"), "\(sql)")
        #expect(!sql.contains("CHECK (endDay >= startDay)"), "\(sql)")
    }

    @Test func verificationNamesADeclaredConstraintTheFileLacks() throws {
        let db = TemporaryDatabase()
        try db.execute(
            """
            CREATE TABLE Trip (id INTEGER PRIMARY KEY, name TEXT NOT NULL DEFAULT '', startDay INTEGER NOT NULL DEFAULT 0, endDay INTEGER NOT NULL DEFAULT 0);
            CREATE TABLE Day (trip_id INTEGER NOT NULL DEFAULT 0, number INTEGER NOT NULL DEFAULT 0, title TEXT NOT NULL DEFAULT '', PRIMARY KEY (trip_id, number)) WITHOUT ROWID;
            CREATE TABLE Stop (id INTEGER PRIMARY KEY, trip_id INTEGER NOT NULL DEFAULT 0, day INTEGER NOT NULL DEFAULT 0, place TEXT NOT NULL DEFAULT '',
                FOREIGN KEY (trip_id, day) REFERENCES Day (trip_id, number) ON UPDATE CASCADE MATCH SIMPLE DEFERRABLE INITIALLY DEFERRED,
                CONSTRAINT one_visit_per_place UNIQUE (trip_id, place));
            """)
        let schema = try Schema(T.V1.self)
        let live = try LiveSchema.read(from: db.connect())
        let differences = SchemaComparison(checksDefaults: true).differences(declared: schema, live: live)
        #expect(
            differences.map(\.description) == [
                "table Trip lacks the declared constraint `CONSTRAINT \"days_in_order\" CHECK (endDay >= startDay)`"
            ])
        let stored = try #require(differences.first).encoded()
        #expect(SchemaDifference(encoded: stored) == differences.first)
        // Spelt otherwise in the file (a column's CHECK, another name's case, no quotes): the same constraint.
        try db.execute(
            """
            DROP TABLE Trip;
            CREATE TABLE Trip (id INTEGER PRIMARY KEY, name TEXT NOT NULL DEFAULT '', startDay INTEGER NOT NULL DEFAULT 0,
                endDay INTEGER NOT NULL DEFAULT 0 CONSTRAINT Days_In_Order CHECK(endDay>=startDay));
            """)
        let again = SchemaComparison(checksDefaults: true).differences(
            declared: schema, live: try LiveSchema.read(from: db.connect()))
        #expect(again.isEmpty, "\(again)")
    }

    @Test func aSnapshotKeepsEveryClauseAndTheHashOnlyTheMeaning() throws {
        let schema = try Schema(T.V1.self)
        let data = Data(try schema.snapshotJSON().utf8)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""deferrable": "DEFERRABLE INITIALLY DEFERRED""#), "\(text)")
        let strict = try #require(Snapshot(scanning: data))
        let decoded = try JSONDecoder().decode(Snapshot.self, from: data)
        #expect(strict.entities == schema.entities && decoded.entities == schema.entities)
        // Another spelling and order of the same constraints: the same hash. Another meaning: another.
        var respelt = schema
        let stop = try #require(respelt.entities.firstIndex { $0.name == "Stop" })
        respelt.entities[stop].constraints.reverse()
        #expect(respelt.versionHash == schema.versionHash)
        respelt.entities[stop].constraints[0] = .unique(["trip_id", "day"], name: "one_visit_per_place")
        #expect(respelt.versionHash != schema.versionHash)
        // A version without constraints hashes as it did before they could be declared.
        let plain = Schema(
            version: Schema.Version(1, 0, 0),
            entities: [Schema.Entity(name: "Trip", attributes: [PlanBuilder.attribute("name", .string)])])
        #expect(!HashedSchema(plain).canonicalText.contains("constraints"))
    }

    @Test(arguments: [
        (
            Schema.TableConstraint.foreignKey(["a"], references: "Nowhere"),
            "the constraint `FOREIGN KEY (\"a\") REFERENCES \"Nowhere\"` of 'Child' references 'Nowhere', which version 1.0.0 does not declare"
        ),
        (
            .foreignKey(["a", "b"], references: "Parent"),
            "the constraint `FOREIGN KEY (\"a\", \"b\") REFERENCES \"Parent\"` of 'Child' has 2 columns but references 1 of 'Parent' (id)"
        ),
        (
            .foreignKey(["a"], references: "Parent", columns: ["code"]),
            "the constraint `FOREIGN KEY (\"a\") REFERENCES \"Parent\" (\"code\")` of 'Child' references (code) of 'Parent', which is neither its primary key nor unique: SQLite would refuse every write with \"foreign key mismatch\""
        ),
        (
            .foreignKey(["a"], references: "Parent", columns: ["nope"]),
            "the constraint `FOREIGN KEY (\"a\") REFERENCES \"Parent\" (\"nope\")` of 'Child' references 'Parent.nope', which is not a column of 'Parent'"
        ),
        (
            .unique(["a", "missing"]),
            "the constraint `UNIQUE (\"a\", \"missing\")` of 'Child' names 'missing', which is not an attribute of 'Child'"
        ),
        (.unique([]), "the constraint `UNIQUE ()` of 'Child' lists no columns"),
        (.unique(["a", "A"]), "the constraint `UNIQUE (\"a\", \"A\")` of 'Child' lists a column twice"),
        (
            .check("a > 0); DROP TABLE Parent; --"),
            "the constraint `CHECK (a > 0); DROP TABLE Parent; --)` of 'Child' is not one SQL expression: a > 0); DROP TABLE Parent; --"
        ),
        (.check("a > 0", name: ""), "the constraint `CONSTRAINT \"\" CHECK (a > 0)` of 'Child' has an empty name"),
    ])
    func aWrongConstraintIsRefusedNamingIt(_ constraint: Schema.TableConstraint, _ message: String) throws {
        let parent = Schema.Entity(
            name: "Parent", attributes: [PlanBuilder.attribute("code", .string), PlanBuilder.attribute("b", .integer)])
        let child = Schema.Entity(
            name: "Child", attributes: [PlanBuilder.attribute("a", .integer), PlanBuilder.attribute("b", .integer)],
            constraints: [constraint])
        let schema = Schema(version: Schema.Version(1, 0, 0), entities: [parent, child])
        #expect {
            try schema.validate()
        } throws: { error in
            (error as? MigrationError)?.message == message && (error as? MigrationError)?.code == .invalidSchema
        }
    }

    @Test func aDuplicateOrAConstraintSQLiteRefusesIsRefusedNamingIt() throws {
        let entity = Schema.Entity(
            name: "Trip", attributes: [PlanBuilder.attribute("a", .integer)],
            constraints: [.check("a > 0"), .check("A  >  0")])
        #expect {
            try Schema(version: Schema.Version(1, 0, 0), entities: [entity]).validate()
        } throws: {
            "\($0)".contains("'Trip' declares the constraint `CHECK (A  >  0)` twice: `CHECK (a > 0)` means the same")
        }
        let misspelt = Schema.Entity(
            name: "Trip", attributes: [PlanBuilder.attribute("a", .integer)], constraints: [.check("b > 0")])
        #expect {
            try DeclaredSQLCheck.check(misspelt, version: Schema.Version(1, 0, 0))
        } throws: { error in
            let message = (error as? MigrationError)?.message ?? ""
            return message == "SQLite rejects the constraint `CHECK (b > 0)` of 'Trip': no such column: b"
        }
    }

    @Test func aTableConstraintParsesEverySpellingSQLiteTakes() throws {
        let cases: [(String, String?)] = [
            ("CONSTRAINT pos CHECK (a > 0)", #"CONSTRAINT "pos" CHECK (a > 0)"#),
            ("check(a>0)", "CHECK (a>0)"),
            ("UNIQUE (a, \"b c\")", #"UNIQUE ("a", "b c")"#),
            (
                "FOREIGN KEY(a,b) REFERENCES [P] (x, y) ON DELETE SET NULL ON UPDATE SET DEFAULT MATCH FULL NOT DEFERRABLE INITIALLY IMMEDIATE",
                #"FOREIGN KEY ("a", "b") REFERENCES "P" ("x", "y") ON DELETE SET NULL ON UPDATE SET DEFAULT MATCH "FULL" NOT DEFERRABLE INITIALLY IMMEDIATE"#
            ),
            ("FOREIGN KEY (a) REFERENCES p", #"FOREIGN KEY ("a") REFERENCES "p""#),
            ("PRIMARY KEY (a, b)", nil),
            ("UNIQUE (a COLLATE NOCASE)", nil),
            ("UNIQUE (a) on conflict replace", #"UNIQUE ("a") ON CONFLICT REPLACE"#),
            (
                "FOREIGN KEY (a) REFERENCES p ON INSERT CASCADE ON DELETE SET NULL",
                #"FOREIGN KEY ("a") REFERENCES "p" ON DELETE SET NULL"#
            ),
            ("CONSTRAINT lonely", nil),
        ]
        for (text, expected) in cases {
            #expect(Schema.TableConstraint(parsing: text)?.sql == expected, "\(text)")
        }
        let key = try #require(Schema.TableConstraint(parsing: "FOREIGN KEY (a) REFERENCES p (x) ON DELETE NO ACTION"))
        #expect(key.isSatisfied(by: .foreignKey(["A"], references: "P", columns: ["X"])))
        #expect(!key.isSatisfied(by: .foreignKey(["a"], references: "p", columns: ["x"], onDelete: .cascade)))
    }

    /// A constraint the file writes on a column (a named CHECK, a UNIQUE, a REFERENCES with its
    /// DEFERRABLE apart) is the table constraint a scaffold declares; a version that no longer
    /// declares it drops it from the column, so the migrated file is what a new install is.
    @Test func aConstraintWrittenOnAColumnGoesWhenTheNextVersionDropsIt() throws {
        let db = TemporaryDatabase()
        try db.execute(
            """
            CREATE TABLE parent (id INTEGER PRIMARY KEY, code TEXT NOT NULL);
            CREATE TABLE child (id INTEGER PRIMARY KEY,
                qty INTEGER NOT NULL CONSTRAINT positive CHECK (qty > 0),
                tag TEXT UNIQUE,
                parent INTEGER CONSTRAINT up REFERENCES parent (id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED);
            INSERT INTO parent (code) VALUES ('a');
            INSERT INTO child (qty, tag, parent) VALUES (2, 'x', 1), (3, 'y', 1);
            """)
        let v1 = try Schema(introspecting: db.url)
        let child = try #require(v1.entity(named: "child"))
        #expect(child.constraints.map(\.sql) == [#"CONSTRAINT "positive" CHECK (qty > 0)"#, #"UNIQUE ("tag")"#])
        try PlanBuilder.migrator([v1]).migrate(databaseAt: db.url)
        var v2 = v1
        v2.version = Schema.Version(2, 0, 0)
        let position = try #require(v2.entities.firstIndex { $0.name == "child" })
        v2.entities[position].constraints = []
        try PlanBuilder.migrator([v1, v2]).migrate(databaseAt: db.url)
        let sql = try db.rows("SELECT sql FROM sqlite_schema WHERE name = 'child'")[0][0]
        #expect(!sql.contains("CHECK") && !sql.contains("UNIQUE"), "\(sql)")
        #expect(sql.contains("DEFERRABLE INITIALLY DEFERRED"), "the key is the attribute's, kept: \(sql)")
        let created = TemporaryDatabase()
        try PlanBuilder.migrator([v1, v2]).migrate(databaseAt: created.url)
        let (fresh, migrated) = (try SemanticSchema.lines(created.path), try SemanticSchema.lines(db.path))
        #expect(fresh == migrated, "\(SemanticSchema.difference(fresh, migrated))")
        try db.execute("INSERT INTO child (qty, tag, parent) VALUES (0, 'x', 1)")
    }
}
