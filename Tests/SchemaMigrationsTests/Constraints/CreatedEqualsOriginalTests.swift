import Foundation
import Testing

@testable import SchemaMigrations

/// Files made by other software, read as a first version: a new install of that version is the
/// same database as the file (``SemanticSchema``: columns, keys, foreign keys with every clause,
/// indexes by origin, CHECKs with their names, table options, views, triggers, virtual tables),
/// for every table the file declares, and the file adopts it with zero differences.
@Suite struct CreatedEqualsOriginalTests {
    static var fixtures: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")
    }

    /// A blog written by hand the way long-lived apps' schemas end up: table CHECKs (named and
    /// not, several on one column), a composite key referenced by a composite foreign key with
    /// every clause, UNIQUE constraints on a column and on the table beside a unique index over
    /// the same columns, two indexes over one column, untyped columns (one holding a mix of values, one nothing yet), a view, a trigger.
    static let handMade = """
        CREATE TABLE author (id INTEGER PRIMARY KEY, handle TEXT NOT NULL UNIQUE, joined INTEGER NOT NULL, notes, avatar,
            left INTEGER CHECK (left IS NULL OR left > 0) CHECK (left < 4102444800),
            CONSTRAINT stays_a_while CHECK (left IS NULL OR left >= joined));
        CREATE TABLE issue (volume INTEGER NOT NULL, number INTEGER NOT NULL, title TEXT NOT NULL DEFAULT '',
            PRIMARY KEY (volume, number)) WITHOUT ROWID;
        CREATE TABLE article (id INTEGER PRIMARY KEY AUTOINCREMENT, volume INTEGER, number INTEGER, author INTEGER NOT NULL REFERENCES author (id) ON DELETE CASCADE,
            page INTEGER NOT NULL CONSTRAINT positive_page CHECK (page > 0), slug TEXT NOT NULL COLLATE NOCASE,
            FOREIGN KEY (volume, number) REFERENCES issue (volume, number) ON DELETE SET NULL ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED,
            CONSTRAINT one_slug_per_issue UNIQUE (volume, number, slug),
            CHECK ((volume IS NULL) = (number IS NULL)));
        CREATE UNIQUE INDEX article_slug_in_issue ON article (volume, number, slug);
        CREATE INDEX article_by_author ON article (author, page DESC);
        CREATE INDEX article_author ON article (author);
        CREATE INDEX article_author_again ON article (author);
        CREATE VIEW article_count AS SELECT author, count(*) AS n FROM article GROUP BY author;
        CREATE TRIGGER article_page AFTER UPDATE OF page ON article BEGIN UPDATE author SET joined = joined WHERE id = NEW.author; END;
        INSERT INTO author (handle, joined, notes) VALUES ('ada', 1000, 'likes tea'), ('bob', 2000, 42);
        INSERT INTO issue VALUES (1, 1, 'first'), (1, 2, 'second');
        INSERT INTO article (volume, number, author, page, slug) VALUES (1, 1, 1, 3, 'hello'), (1, 2, 2, 5, 'again'), (NULL, NULL, 1, 1, 'draft');
        """

    /// Conflict clauses in every place SQLite takes one: the default `id`'s key, a column's own
    /// key with AUTOINCREMENT, a composite key, a column's and a table's UNIQUE, NOT NULL, and a
    /// CHECK's (which SQLite parses and ignores); and keys in descending order, among them an
    /// `INTEGER PRIMARY KEY DESC` (no rowid alias) holding a NULL key; foreign keys written with
    /// `ON INSERT`, which SQLite parses and ignores.
    static let conflicts = """
        CREATE TABLE tag (id INTEGER PRIMARY KEY ON CONFLICT REPLACE, name TEXT NOT NULL ON CONFLICT IGNORE DEFAULT '',
            code TEXT CONSTRAINT one_code UNIQUE ON CONFLICT REPLACE, color TEXT NOT NULL ON CONFLICT REPLACE DEFAULT 'red',
            CHECK (length(name) < 100) ON CONFLICT FAIL, UNIQUE (name, color) ON CONFLICT IGNORE);
        CREATE TABLE note (note_id INTEGER PRIMARY KEY ON CONFLICT FAIL AUTOINCREMENT, body TEXT NOT NULL ON CONFLICT ABORT);
        CREATE TABLE pair (a INTEGER NOT NULL, b TEXT NOT NULL, PRIMARY KEY (a, b) ON CONFLICT ROLLBACK) WITHOUT ROWID;
        CREATE TABLE reading (id INTEGER PRIMARY KEY DESC ON CONFLICT REPLACE, value REAL);
        CREATE TABLE grid (r INTEGER, c TEXT COLLATE NOCASE, PRIMARY KEY (r DESC, c));
        CREATE TABLE mark (id INTEGER PRIMARY KEY, tag INTEGER REFERENCES tag (id) ON INSERT CASCADE ON DELETE CASCADE,
            r INTEGER, c TEXT, FOREIGN KEY (r, c) REFERENCES grid (r, c) ON INSERT SET NULL);
        INSERT INTO tag (name, code) VALUES ('a', 'x'), ('b', 'y');
        INSERT INTO note (body) VALUES ('hello');
        INSERT INTO pair VALUES (1, 'one');
        INSERT INTO reading VALUES (NULL, 1.5), (4, 2.5);
        """

    static let files: [(name: String, make: @Sendable (URL) throws -> Void)] = [
        ("hand-made blog", { try SQLiteConnection(path: $0.path, mode: .readWriteCreate).execute(handMade) }),
        (
            "conflict clauses and key orders",
            { try SQLiteConnection(path: $0.path, mode: .readWriteCreate).execute(conflicts) }
        ),
        (
            "Django 5.1 admin",
            { try FileManager.default.copyItem(at: fixtures.appendingPathComponent("Django/admin.sqlite"), to: $0) }
        ),
        (
            "sqlite-utils blog",
            { try FileManager.default.copyItem(at: fixtures.appendingPathComponent("SQLiteUtils/blog.sqlite"), to: $0) }
        ),
        (
            "Fossil 2.21 repository",
            { try FileManager.default.copyItem(at: fixtures.appendingPathComponent("Fossil/repo.fossil"), to: $0) }
        ),
        (
            "Anki 25.02 collection",
            { try FileManager.default.copyItem(at: fixtures.appendingPathComponent("Anki/collection.anki2"), to: $0) }
        ),
        (
            "GDAL 3.6 GeoPackage",
            { try FileManager.default.copyItem(at: fixtures.appendingPathComponent("GeoPackage/places.gpkg"), to: $0) }
        ),
        (
            "Optuna 5.0 study",
            { try FileManager.default.copyItem(at: fixtures.appendingPathComponent("Optuna/study.db"), to: $0) }
        ),
        (
            "calibre 6.13 library",
            { try FileManager.default.copyItem(at: fixtures.appendingPathComponent("Calibre/metadata.db"), to: $0) }
        ),
        (
            "xonsh 0.25 history",
            { try FileManager.default.copyItem(at: fixtures.appendingPathComponent("Xonsh/history.sqlite"), to: $0) }
        ),
        (
            "Chinook",
            {
                try SQLiteConnection(path: $0.path, mode: .readWriteCreate).execute(
                    try String(
                        contentsOf: fixtures.appendingPathComponent("Chinook/Chinook_Sqlite.sql"), encoding: .utf8))
            }
        ),
    ]

    /// The applications' SQL environment: Anki's collation (Unicode, case folded), which its
    /// tables name, as an app embedding the collection registers it; and stand-ins for the
    /// functions and aggregates calibre registers, which its triggers and views call: with them a
    /// rebuild checks those triggers and views as calibre's own connection would read them, where
    /// without them it keeps them as they are, warning.
    static let options = MigrationOptions(
        sqlEnvironment: SQLEnvironment(
            collations: [SQLCollation("unicase") { $0.compare($1, options: .caseInsensitive) }],
            functions: [
                SQLFunction("title_sort", argumentCount: 1) { $0[0] },
                SQLFunction("uuid4", argumentCount: 0, deterministic: false) { _ in
                    .text(UUID().uuidString.lowercased())
                },
                SQLFunction("books_list_filter", argumentCount: 1) { _ in .integer(1) },
            ],
            // calibre's aggregates, which its `meta` view calls: the values in the order of their
            // positions, and the values joined.
            aggregates: [
                SQLAggregate("sortconcat", argumentCount: 2) { rows in
                    .text(
                        rows.sorted { ($0[0].int64Value ?? 0) < ($1[0].int64Value ?? 0) }.compactMap(\.[1].stringValue)
                            .joined(separator: "&"))
                },
                SQLAggregate("concat", argumentCount: 1) { rows in
                    .text(rows.compactMap(\.[0].stringValue).joined(separator: ","))
                },
            ]))

    @Test(arguments: files.map(\.name))
    func aNewInstallOfTheScaffoldedVersionIsTheFile(_ name: String) throws {
        let original = TemporaryDatabase()
        try Self.files.first { $0.name == name }!.make(original.url)
        let found = try SchemaIntrospection(databaseAt: original.url)
        #expect(found.undeclarable.isEmpty, "\(found.undeclarable)")
        let kept = found.notCarried.flatMap(\.notes)
        // The schema round-trips through its snapshot, as a plan directory keeps it.
        let schema = try Schema(snapshotJSON: Data(try found.schema.snapshotJSON().utf8))
        let created = TemporaryDatabase()
        try PlanBuilder.migrator([schema], options: Self.options).migrate(databaseAt: created.url)
        let bookkeeping = Set(found.bookkeepingTables.map { $0.lowercased() })
        let originalLines = try SemanticSchema.lines(original.path).filter { line in
            !bookkeeping.contains { line.hasPrefix("table \($0):") || line.hasPrefix("table \($0) ") }
        }
        let createdLines = try SemanticSchema.lines(created.path)
        #expect(
            originalLines == createdLines, "\(SemanticSchema.difference(originalLines, createdLines)); kept: \(kept)")
        // And the file adopts it, untouched.
        let migrator = try PlanBuilder.migrator([schema], options: Self.options)
        let result = try migrator.migrate(databaseAt: original.url)
        #expect(result.adopted)
        #expect(try migrator.verify(databaseAt: original.url).isUpToDate)
    }

    /// The hand-made file adopted as its scaffolded V1, then a V2 written against it: the view
    /// and the trigger change, and `article` is rebuilt for a new column, a tightened table
    /// CHECK and a composite foreign key that now cascades. Migrated, it is the database a new
    /// install of V2 is, every row kept.
    @Test func aHandWrittenV2OfTheScaffoldedFileIsTheSameCreatedOrMigrated() throws {
        let original = TemporaryDatabase()
        try Self.files[0].make(original.url)
        let v1 = try Schema(
            snapshotJSON: Data(try SchemaIntrospection(databaseAt: original.url).schema.snapshotJSON().utf8))
        var v2 = v1
        v2.version = Schema.Version(2, 0, 0)
        let article = try #require(v2.entities.firstIndex { $0.name == "article" })
        v2.entities[article].attributes.append(PlanBuilder.attribute("words", .integer, default: "0"))
        v2.entities[article].constraints = v2.entities[article].constraints.map { constraint in
            switch constraint.kind {
            case .check(let expression) where constraint.name == nil:
                return .check("(\(expression)) AND words >= 0")
            case .foreignKey(var key):
                key.onDelete = .cascade
                return Schema.TableConstraint(.foreignKey(key), name: constraint.name)
            default:
                return constraint
            }
        }
        v2.sqlObjects = v2.sqlObjects.map { object in
            switch object.kind {
            case .view:
                return .view(
                    "CREATE VIEW article_count AS SELECT author, count(*) AS n, sum(page) AS pages FROM article GROUP BY author"
                )
            case .trigger:
                return .trigger(
                    "CREATE TRIGGER article_page AFTER UPDATE OF page, words ON article BEGIN UPDATE author SET joined = joined WHERE id = NEW.author; END"
                )
            case .virtualTable: return object
            }
        }
        try PlanBuilder.migrator([v1]).migrate(databaseAt: original.url)
        let rowsBefore = try original.rows("SELECT id, volume, number, author, page, slug FROM article ORDER BY id")
        let report = try PlanBuilder.migrator([v1, v2]).plan(databaseAt: original.url)
        #expect(
            report.stages.flatMap { $0.steps.map(\.step.summary) }.contains { $0.hasPrefix("Rebuild table article") })
        try PlanBuilder.migrator([v1, v2]).migrate(databaseAt: original.url)
        let created = TemporaryDatabase()
        try PlanBuilder.migrator([v1, v2]).migrate(databaseAt: created.url)
        let (fresh, migrated) = (try SemanticSchema.lines(created.path), try SemanticSchema.lines(original.path))
        #expect(fresh == migrated, "\(SemanticSchema.difference(fresh, migrated))")
        #expect(
            try original.rows("SELECT id, volume, number, author, page, slug FROM article ORDER BY id") == rowsBefore)
        #expect(try original.rows("PRAGMA foreign_key_check").isEmpty)
        #expect(try PlanBuilder.migrator([v1, v2]).verify(databaseAt: original.url).isUpToDate)
    }

    /// Every corpus file adopted as its scaffolded V1, then a V2 that rebuilds every declared
    /// table (a new column and a new named table CHECK on each): migrated, the real file is the
    /// database a new install of V2 is, every table keeping its rows and the foreign keys no
    /// worse than the application left them.
    @Test(arguments: files.map(\.name))
    func aV2RebuildingEveryTableIsTheSameCreatedOrMigrated(_ name: String) throws {
        let original = TemporaryDatabase()
        try Self.files.first { $0.name == name }!.make(original.url)
        let found = try SchemaIntrospection(databaseAt: original.url)
        let v1 = try Schema(snapshotJSON: Data(try found.schema.snapshotJSON().utf8))
        var v2 = v1
        v2.version = Schema.Version(2, 0, 0)
        for index in v2.entities.indices {
            v2.entities[index].attributes.append(
                Schema.Attribute(name: "sm_note", valueType: .string, isOptional: true))
            v2.entities[index].constraints.append(
                .check("sm_note IS NULL OR length(sm_note) < 100", name: "sm_note_short"))
        }
        // Read with the application's collation: SQLite may count through an index under it.
        func counts(_ db: TemporaryDatabase) throws -> [String: SQLiteValue?] {
            let connection = try SQLiteConnection(path: db.url.path, environment: Self.options.sqlEnvironment)
            return Dictionary(
                uniqueKeysWithValues: try v1.entities.map {
                    ($0.name, try connection.scalar("SELECT count(*) FROM \(SQL.quoteIdentifier($0.name))"))
                })
        }
        let rowsBefore = try counts(original)
        let violationsBefore = try original.rows("PRAGMA foreign_key_check")
        let migrator = try PlanBuilder.migrator([v1, v2], options: Self.options)
        let report = try migrator.plan(databaseAt: original.url)
        #expect(report.refusals.isEmpty, "\(report.refusals)")
        let rebuilt = report.stages.flatMap { $0.steps.map(\.step.summary) }.filter { $0.hasPrefix("Rebuild table") }
        #expect(rebuilt.count == v1.entities.count, "\(rebuilt)")
        try migrator.migrate(databaseAt: original.url)
        let created = TemporaryDatabase()
        try migrator.migrate(databaseAt: created.url)
        let bookkeeping = Set(found.bookkeepingTables.map { $0.lowercased() })
        let migrated = try SemanticSchema.lines(original.path).filter { line in
            !bookkeeping.contains { line.hasPrefix("table \($0):") || line.hasPrefix("table \($0) ") }
        }
        let fresh = try SemanticSchema.lines(created.path)
        #expect(migrated == fresh, "\(SemanticSchema.difference(migrated, fresh))")
        #expect(try counts(original) == rowsBefore)
        #expect(try original.rows("PRAGMA foreign_key_check") == violationsBefore)
        #expect(try migrator.verify(databaseAt: original.url).isUpToDate)
    }
}
