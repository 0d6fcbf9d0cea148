import Foundation
import Testing

@testable import SchemaMigrations

/// Conflict clauses declared: a UNIQUE constraint's (`.unique(…, onConflict:)`), a NOT NULL's
/// (`@Attribute(notNullOnConflict:)`) and the primary key's (`primaryKeyOnConflict`), wherever
/// the key is written. A new install writes them and SQLite acts on them; a stage that changes
/// one rebuilds the table, and the result is the database a new install of that version is.
@Suite struct ConflictClauseDeclarationTests {
    enum V1: VersionedSchema {
        static let versionIdentifier = Schema.Version(1, 0, 0)
        static let models: [any PersistentModel.Type] = [Tag.self, Pair.self, Note.self]

        final class Tag: PersistentModel {
            var name = ""
            var color = "red"
            init() {}
        }

        final class Pair: PersistentModel {
            static let primaryKey = ["a", "b"]
            var a = 0
            var b = 0
            var note = ""
            init() {}
        }

        final class Note: PersistentModel {
            @Attribute(.primaryKey, .autoincrement) var noteID = 0
            var text = ""
            init() {}
        }
    }

    /// Each table gains its clauses: the implicit `id`, a composite key and an AUTOINCREMENT
    /// key each their own; `name` a UNIQUE that ignores a duplicate; `color` a NOT NULL that
    /// turns a NULL into the default.
    enum V2: VersionedSchema {
        static let versionIdentifier = Schema.Version(2, 0, 0)
        static let models: [any PersistentModel.Type] = [Tag.self, Pair.self, Note.self]

        final class Tag: PersistentModel {
            static let primaryKeyOnConflict = Schema.ConflictResolution.replace
            static let constraints: [Schema.TableConstraint] = [.unique(["name"], onConflict: .ignore)]
            var name = ""
            @Attribute(notNullOnConflict: .replace) var color = "red"
            init() {}
        }

        final class Pair: PersistentModel {
            static let primaryKey = ["a", "b"]
            static let primaryKeyOnConflict: Schema.ConflictResolution? = .ignore
            var a = 0
            var b = 0
            var note = ""
            init() {}
        }

        final class Note: PersistentModel {
            static let primaryKeyOnConflict = Schema.ConflictResolution.replace
            @Attribute(.primaryKey, .autoincrement) var noteID = 0
            var text = ""
            init() {}
        }
    }

    /// Back to no clause on the keys; the UNIQUE replaces instead of ignoring; the NOT NULL's
    /// clause is dropped.
    enum V3: VersionedSchema {
        static let versionIdentifier = Schema.Version(3, 0, 0)
        static let models: [any PersistentModel.Type] = [Tag.self, V1.Pair.self, V1.Note.self]

        final class Tag: PersistentModel {
            static let constraints: [Schema.TableConstraint] = [.unique(["name"], onConflict: .replace)]
            var name = ""
            var color = "red"
            init() {}
        }
    }

    enum GuidePlan: SchemaMigrationPlan { static let schemas: [any VersionedSchema.Type] = [Guide.self] }
    enum PlanV1: SchemaMigrationPlan { static let schemas: [any VersionedSchema.Type] = [V1.self] }
    enum PlanV2: SchemaMigrationPlan { static let schemas: [any VersionedSchema.Type] = [V1.self, V2.self] }
    enum PlanV3: SchemaMigrationPlan { static let schemas: [any VersionedSchema.Type] = [V1.self, V2.self, V3.self] }

    static func sql(_ db: TemporaryDatabase, _ table: String) throws -> String {
        try db.rows("SELECT sql FROM sqlite_schema WHERE name = '\(table)'").first?.first ?? ""
    }

    @Test func aNewInstallWritesEachClauseAndSQLiteActsOnIt() throws {
        let db = TemporaryDatabase()
        try Migrator(plan: PlanV2.self).migrate(databaseAt: db.url)
        #expect(
            try Self.sql(db, "Tag")
                == #"'CREATE TABLE "Tag" ("id" INTEGER PRIMARY KEY ON CONFLICT REPLACE, "name" TEXT NOT NULL DEFAULT '''', "color" TEXT NOT NULL ON CONFLICT REPLACE DEFAULT ''red'', UNIQUE ("name") ON CONFLICT IGNORE)'"#
        )
        #expect(try Self.sql(db, "Pair").contains(#"PRIMARY KEY ("a", "b") ON CONFLICT IGNORE)"#))
        #expect(try Self.sql(db, "Note").contains(#""noteID" INTEGER PRIMARY KEY ON CONFLICT REPLACE AUTOINCREMENT"#))
        try db.execute(
            """
            INSERT INTO Tag (id, name, color) VALUES (1, 'a', 'blue');
            INSERT INTO Tag (id, name, color) VALUES (2, 'a', 'green');
            INSERT INTO Tag (id, name, color) VALUES (1, 'b', NULL);
            INSERT INTO Pair VALUES (1, 1, 'first'), (1, 1, 'second');
            INSERT INTO Note VALUES (5, 'old'), (5, 'new');
            """)
        // The duplicate name is skipped; id 1 is replaced, its NULL color taking the default.
        #expect(try db.rows("SELECT id, name, color FROM Tag ORDER BY id") == [["1", "'b'", "'red'"]])
        #expect(try db.rows("SELECT note FROM Pair") == [["'first'"]])
        #expect(try db.rows("SELECT noteID, text FROM Note") == [["5", "'new'"]])
        #expect(try Migrator(plan: PlanV2.self).verify(databaseAt: db.url).isUpToDate)
    }

    @Test(arguments: [false, true])
    func eachChangeOfAClauseRebuildsAndCreatedEqualsMigratedKeepingEveryRow(online: Bool) throws {
        var options = MigrationOptions()
        if online { options.online = OnlineRebuildOptions() }
        let migrated = TemporaryDatabase()
        try Migrator(plan: PlanV1.self).migrate(databaseAt: migrated.url)
        try migrated.execute(
            """
            INSERT INTO Tag (name, color) VALUES ('a', 'blue'), ('b', 'red');
            INSERT INTO Pair VALUES (1, 1, 'x'), (1, 2, 'y');
            INSERT INTO Note (text) VALUES ('one'), ('two');
            """)
        let report = try Migrator(plan: PlanV2.self).plan(databaseAt: migrated.url)
        let summaries = report.stages.flatMap { $0.steps.map(\.step.summary) }
        #expect(summaries.contains { $0.hasPrefix("Rebuild table Tag") && $0.contains("ON CONFLICT IGNORE") })
        #expect(
            summaries.contains {
                $0.hasPrefix("Rebuild table Pair")
                    && $0.contains("primary key: no conflict clause to ON CONFLICT IGNORE")
            }, "\(summaries)")
        #expect(
            summaries.contains {
                $0.hasPrefix("Rebuild table Tag")
                    && $0.contains("color: NOT NULL no conflict clause to ON CONFLICT REPLACE")
            }, "\(summaries)")
        let plans: [any SchemaMigrationPlan.Type] = [PlanV2.self, PlanV3.self]
        for versionPlan in plans {
            try Migrator(plan: versionPlan, options: options).migrate(databaseAt: migrated.url)
            let created = TemporaryDatabase()
            try Migrator(plan: versionPlan).migrate(databaseAt: created.url)
            let (fresh, upgraded) = (try SemanticSchema.lines(created.path), try SemanticSchema.lines(migrated.path))
            #expect(fresh == upgraded, "\(SemanticSchema.difference(fresh, upgraded))")
            #expect(try Migrator(plan: versionPlan).verify(databaseAt: migrated.url).isUpToDate)
            #expect(
                try migrated.rows("SELECT name, color FROM Tag ORDER BY id") == [["'a'", "'blue'"], ["'b'", "'red'"]])
            #expect(
                try migrated.rows("SELECT a, b, note FROM Pair ORDER BY b") == [["1", "1", "'x'"], ["1", "2", "'y'"]])
            #expect(
                try migrated.rows("SELECT noteID, text FROM Note ORDER BY noteID") == [
                    ["1", "'one'"], ["2", "'two'"],
                ])
        }
        // V3's clauses act: a duplicate name replaces the row; the keys abort again.
        try migrated.execute("INSERT INTO Tag (name, color) VALUES ('a', 'green')")
        #expect(
            try migrated.rows("SELECT name, color FROM Tag ORDER BY id") == [["'b'", "'red'"], ["'a'", "'green'"]])
        #expect(throws: SQLiteError.self) { try migrated.execute("INSERT INTO Pair VALUES (1, 1, 'again')") }
    }

    /// MIGRATIONS.md's example, as written there (the guide's snippet is type-checked as it
    /// stands by ``guideSnippetTypeChecks()``), creates the statements the guide says.
    enum Guide: VersionedSchema {
        static let versionIdentifier = Schema.Version(1, 0, 0)
        static let models: [any PersistentModel.Type] = [Device.self]

        final class Device: PersistentModel {
            static let primaryKeyOnConflict = Schema.ConflictResolution.replace  // the key, wherever it is
            static let constraints: [Schema.TableConstraint] = [.unique(["serial"], onConflict: .ignore)]
            var serial = ""
            @Attribute(notNullOnConflict: .replace) var status = "new"  // a NULL written takes "new"
            init() {}
        }
    }

    static var guideSnippet: String {
        get throws {
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent()
            let guide = try String(contentsOf: root.appendingPathComponent("MIGRATIONS.md"), encoding: .utf8)
            let section = try #require(guide.range(of: "### Conflict clauses"))
            let open = try #require(guide.range(of: "```swift\n", range: section.upperBound..<guide.endIndex))
            let close = try #require(guide.range(of: "```", range: open.upperBound..<guide.endIndex))
            return String(guide[open.upperBound..<close.lowerBound])
        }
    }

    @Test func theGuidesExampleCreatesWhatTheGuideSays() throws {
        let guide = try Self.guideSnippet
        #expect(guide.contains("static let primaryKeyOnConflict = Schema.ConflictResolution.replace"))
        #expect(guide.contains("@Attribute(notNullOnConflict: .replace) var status = \"new\""))
        #expect(guide.contains(".unique([\"serial\"], onConflict: .ignore)"))
        let db = TemporaryDatabase()
        try Migrator(plan: GuidePlan.self).migrate(databaseAt: db.url)
        let sql = try Self.sql(db, "Device")
        for clause in [
            #""id" INTEGER PRIMARY KEY ON CONFLICT REPLACE"#,
            #""status" TEXT NOT NULL ON CONFLICT REPLACE DEFAULT ''new''"#, #"UNIQUE ("serial") ON CONFLICT IGNORE"#,
        ] {
            #expect(sql.contains(clause), "\(sql)")
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func guideSnippetTypeChecks() throws {
        let result = try DeclarationMisspellingTests.typecheck(try Self.guideSnippet)
        #expect(result.status == 0, "\(result.output)")
    }

    @Test func aClauseTheFileLacksIsDrift() throws {
        let db = TemporaryDatabase()
        try Migrator(plan: PlanV1.self).migrate(databaseAt: db.url)
        let differences = SchemaComparison(checksDefaults: true).differences(
            declared: try Schema(V2.self), live: try LiveSchema.read(from: db.connect()))
        #expect(
            differences.map(\.description).sorted() == [
                "Note's primary key has no conflict clause, declared ON CONFLICT REPLACE",
                "Pair's primary key has no conflict clause, declared ON CONFLICT IGNORE",
                "Tag's primary key has no conflict clause, declared ON CONFLICT REPLACE",
                "column Tag.color's NOT NULL has no conflict clause, declared ON CONFLICT REPLACE",
                "table Tag lacks the declared constraint `UNIQUE (\"name\") ON CONFLICT IGNORE`",
            ])
        for difference in differences {
            #expect(SchemaDifference(encoded: try difference.encoded()) == difference)
        }
    }

    @Test func aSnapshotKeepsEveryClauseAndAbortMeansNone() throws {
        let schema = try Schema(V2.self)
        let json = try schema.snapshotJSON()
        #expect(json.contains(#""primaryKeyOnConflict": "REPLACE""#), "\(json)")
        #expect(json.contains(#""notNullOnConflict": "REPLACE""#))
        #expect(json.contains(#""onConflict": "IGNORE""#))
        let read = try Schema(snapshotJSON: Data(json.utf8))
        #expect(read == schema)
        #expect(read.versionHash == schema.versionHash)
        // ABORT is what no clause means: declaring it changes neither the hash nor the table.
        var aborting = try Schema(V1.self)
        aborting.entities[0].primaryKeyOnConflict = .abort
        aborting.entities[0].attributes[1].notNullOnConflict = .abort
        #expect(aborting.versionHash == (try Schema(V1.self)).versionHash)
        #expect(try Schema(V2.self).versionHash != (try Schema(V1.self)).versionHash)
    }

    @Test(arguments: [
        (
            "notNull", "optional 'Tag.color' has the NOT NULL conflict clause ON CONFLICT REPLACE, but no NOT NULL"
        ),
        (
            "keyless", "'Tag' declares no primary key (primaryKey = []) but the key conflict clause ON CONFLICT IGNORE"
        ),
        (
            "check",
            "the constraint `CHECK (color <> '')` of 'Tag' has the conflict clause ON CONFLICT FAIL, which only a UNIQUE constraint takes"
        ),
    ])
    func aClauseWhereSQLiteHasNothingForItIsRefusedNamingIt(_ kind: String, _ message: String) throws {
        var entity = Schema.Entity(
            name: "Tag", attributes: [PlanBuilder.attribute("name", .string), PlanBuilder.attribute("color", .string)])
        switch kind {
        case "notNull":
            entity.attributes[1].isOptional = true
            entity.attributes[1].notNullOnConflict = .replace
        case "keyless":
            entity.primaryKey = []
            entity.primaryKeyOnConflict = .ignore
        default:
            entity.constraints = [Schema.TableConstraint(.check("color <> ''"), onConflict: .fail)]
        }
        let schema = Schema(version: Schema.Version(1, 0, 0), entities: [entity])
        #expect {
            try schema.validate()
        } throws: { error in
            (error as? MigrationError)?.message == message && (error as? MigrationError)?.code == .invalidSchema
        }
    }

    @Test(arguments: [
        ("UNIQUE (a, b) ON CONFLICT REPLACE", Schema.TableConstraint.unique(["a", "b"], onConflict: .replace)),
        ("CONSTRAINT u UNIQUE (a) on conflict ignore", .unique(["a"], onConflict: .ignore, name: "u")),
        ("UNIQUE (a) ON CONFLICT ABORT", .unique(["a"], onConflict: .abort)),
        ("CHECK (a > 0) ON CONFLICT FAIL", .check("a > 0")),
    ])
    func aTableConstraintWithAConflictClauseParses(_ text: String, _ expected: Schema.TableConstraint) {
        #expect(Schema.TableConstraint(parsing: text) == expected)
        #expect(Schema.TableConstraint(parsing: text)?.meaning == expected.meaning)
    }

    @Test func aColumnsUniqueWithAClauseIsTheTableConstraintItIsToSQLite() throws {
        let definition = try TableDefinition(
            parsing: "CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT CONSTRAINT x UNIQUE ON CONFLICT REPLACE)")
        #expect(definition.declarableConstraints == [.unique(["a"], onConflict: .replace, name: "x")])
        #expect(Schema.TableConstraint(parsing: "FOREIGN KEY (a) REFERENCES t ON CONFLICT REPLACE") == nil)
        #expect(Schema.TableConstraint(parsing: "UNIQUE (a) ON CONFLICT MAYBE") == nil)
    }
}
