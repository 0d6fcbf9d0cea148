import Foundation
import Testing

@testable import SchemaMigrations

/// Databases other software made (`Fixtures/`: Chinook's script, Django's admin tables, a Fossil
/// repository, an Optuna study, a calibre library, an Anki collection, a GeoPackage; xonsh's and
/// sqlite-utils' files have no NOT NULL column), each adopted as introspected, then given,
/// online, an index over NOT NULL columns of every table: the indexes the key-order build can
/// keep exact are built that way while another connection inserts and updates rows of those
/// tables, and the file ends as the same writes and the same plan leave it offline.
@Suite struct ForeignKeyOrderBuildTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let corpus = [
        "Chinook/Chinook_Sqlite.sql", "Django/admin.sqlite", "Fossil/repo.fossil", "Optuna/study.db",
        "Calibre/metadata.db", "Anki/collection.anki2", "GeoPackage/places.gpkg",
    ]

    /// What each file's own software gives its connections: Anki's case-folding collation,
    /// calibre's functions its triggers call (a fresh `uuid4` counter on each connection, so the
    /// same writes give the same values on both files).
    static func environment(for fixture: String) -> SQLEnvironment {
        switch fixture {
        case "Anki/collection.anki2":
            return SQLEnvironment(collations: [
                SQLCollation("unicase") {
                    $0.lowercased() < $1.lowercased()
                        ? .orderedAscending : $0.lowercased() == $1.lowercased() ? .orderedSame : .orderedDescending
                }
            ])
        case "Calibre/metadata.db":
            let counter = UUIDCounter()
            return SQLEnvironment(functions: [
                SQLFunction("title_sort", argumentCount: 1) { $0[0] },
                SQLFunction("uuid4", argumentCount: 0, deterministic: false) { _ in .text("uuid-\(counter.next())") },
            ])
        default: return SQLEnvironment()
        }
    }

    static func make(_ fixture: String, at url: URL) throws {
        let source = root.appendingPathComponent("Fixtures").appendingPathComponent(fixture)
        if fixture.hasSuffix(".sql") {
            try SQLiteConnection(path: url.path, mode: .readWriteCreate).execute(
                String(contentsOf: source, encoding: .utf8))
        } else {
            try? FileManager.default.removeItem(at: url)
            try FileManager.default.copyItem(at: source, to: url)
        }
        try SQLiteConnection(path: url.path).execute("PRAGMA journal_mode = WAL")
    }

    /// V2: every rowid entity with NOT NULL columns outside its key gains an index over the
    /// first two (or the one), the first descending and compared without case.
    static func withIndexes(_ v1: Schema) -> Schema {
        var v2 = v1
        v2.version = Schema.Version(2, 0, 0)
        v2.entities = v1.entities.map { entity in
            var entity = entity
            // A WITHOUT ROWID table's rebuild runs offline, and its whole stage with it.
            guard !entity.isWithoutRowID else { return entity }
            let key = Set(entity.primaryKey ?? [])
            let columns = entity.attributes.filter { !$0.isOptional && !key.contains($0.name) }.map(\.name)
            guard let first = columns.first else { return entity }
            entity.indexes.append(
                Schema.Index(
                    elements: [.column(first, collation: "NOCASE", descending: true)]
                        + columns.dropFirst().prefix(1).map { .column($0) },
                    name: "\(entity.name)_by_" + columns.prefix(2).joined(separator: "_")))
            return entity
        }
        return v2
    }

    /// What another connection writes into `table` while its index is built: a copy of its first
    /// row under a new key, and three rows given the last row's value of the indexed columns.
    static func writes(into table: String, columns: [String], key: [String], all: [String]) -> [String] {
        let t = SQL.quoteIdentifier(table)
        let copied = all.filter { !key.contains($0) }.map(SQL.quoteIdentifier).joined(separator: ", ")
        let assignments = columns.map(SQL.quoteIdentifier).map {
            "\($0) = (SELECT \($0) FROM \(t) ORDER BY rowid DESC LIMIT 1)"
        }
        return [
            "INSERT INTO \(t) (\(copied)) SELECT \(copied) FROM \(t) ORDER BY rowid LIMIT 1",
            "UPDATE \(t) SET \(assignments.joined(separator: ", ")) WHERE rowid IN (SELECT rowid FROM \(t) ORDER BY rowid LIMIT 3)",
        ]
    }

    /// The tables whose new index each file's key lets the build keep exact: a rowid alias (in
    /// Chinook and Optuna a `PRIMARY KEY (id)` table constraint), no other unique constraint.
    /// Chinook's own indexes move to the new tables as they are.
    static let builtInKeyOrder: [String: [String: [String]]] = [
        "Chinook/Chinook_Sqlite.sql": [
            "Album": ["Album_by_Title_ArtistId"], "Customer": ["Customer_by_FirstName_LastName"],
            "Employee": ["Employee_by_LastName_FirstName"], "Invoice": ["Invoice_by_CustomerId_InvoiceDate"],
            "InvoiceLine": ["InvoiceLine_by_InvoiceId_TrackId"], "Track": ["Track_by_Name_MediaTypeId"],
        ],
        "Django/admin.sqlite": ["django_admin_log": ["django_admin_log_by_object_repr_action_flag"]],
        "Fossil/repo.fossil": ["delta": ["delta_by_srcid"]],
        "Optuna/study.db": ["trials": ["trials_by_state"]],
        "Calibre/metadata.db": ["books": ["books_by_title_series_index"]],
        "Anki/collection.anki2": [
            "cards": ["cards_by_nid_did"], "col": ["col_by_crt_mod"], "deck_config": ["deck_config_by_name_mtime_secs"],
            "notes": ["notes_by_guid_mid"], "revlog": ["revlog_by_cid_usn"],
        ],
        "GeoPackage/places.gpkg": ["gpkg_spatial_ref_sys": ["gpkg_spatial_ref_sys_by_srs_name_organization"]],
    ]

    /// The file as a user would compare two results: every row (``OnlineFixture/dump(_:)``) and
    /// every schema object but a table's own text, and what each table means (``SemanticSchema``:
    /// its columns, keys, foreign keys, CHECKs, indexes). A table an added index rebuilt online
    /// has the rebuild's text (MIGRATIONS.md, "Online rebuilds"), where offline `CREATE INDEX`
    /// leaves it as written.
    static func shape(_ url: URL, environment: SQLEnvironment) throws -> [String] {
        try OnlineFixture.dump(url, environment: environment).filter { !$0.hasPrefix("table | ") }
            + SemanticSchema.lines(url.path)
    }

    @Test(arguments: corpus)
    func anIndexAddedOnlineToAFileOtherSoftwareMadeIsTheOfflineOne(fixture: String) throws {
        let online = TemporaryDatabase()
        let offline = TemporaryDatabase()
        try Self.make(fixture, at: online.url)
        try Self.make(fixture, at: offline.url)
        let v1 = try SchemaIntrospection(
            databaseAt: online.url, version: Schema.Version(1, 0, 0), environment: Self.environment(for: fixture)
        ).schema
        let v2 = Self.withIndexes(v1)
        var options = MigrationOptions(sqlEnvironment: Self.environment(for: fixture))
        options.online = OnlineRebuildOptions(chunkTargetMilliseconds: 1)
        let plan = try PlanBuilder.migrator([v1, v2], options: options).plan(databaseAt: online.url)
        let keyOrder = plan.online?.stages.last?.indexesInKeyOrder ?? [:]
        #expect(keyOrder == Self.builtInKeyOrder[fixture], "the tables whose index is built in key order")

        // Writes from the application's connection at each table's first chunk of its build.
        let app = try SQLiteConnection(path: online.url.path)
        try app.apply(Self.environment(for: fixture))
        let populated = try v1.entities.map(\.name).filter {
            try app.rows("SELECT 1 FROM \(SQL.quoteIdentifier($0)) LIMIT 1").count == 1
        }
        let log = WriteLog(app)
        options.progress = { event in
            guard
                let entity = v2.entities.first(where: { entity in
                    entity.indexes.last?.name.map {
                        event.summary == "Build the index \($0) of \(entity.name) in key order"
                    }
                        ?? false
                }), let index = entity.indexes.last, log.firstTime(entity.name)
            else { return }
            let key = entity.primaryKey ?? []
            for sql in Self.writes(
                into: entity.name, columns: index.columns, key: key, all: key + entity.attributes.map(\.name))
            {
                log.run(sql)
            }
        }
        let result = try PlanBuilder.migrator([v1, v2], options: options).migrate(databaseAt: online.url)
        #expect(result.toVersion == v2.version)
        // A build of an empty table writes no chunk, and the application has no row to copy.
        #expect(Set(log.tables) == Set(keyOrder.keys.filter { populated.contains($0) }))

        #expect(log.tables.isEmpty || !log.statements.isEmpty, "the application wrote during a build")
        let db = try offline.connect()
        try db.apply(Self.environment(for: fixture))
        for sql in log.statements { try db.execute(sql) }
        try PlanBuilder.migrator([v1, v2], options: MigrationOptions(sqlEnvironment: Self.environment(for: fixture)))
            .migrate(databaseAt: offline.url)
        #expect(
            try Self.shape(online.url, environment: Self.environment(for: fixture))
                == Self.shape(offline.url, environment: Self.environment(for: fixture)))
        #expect(try app.rows("PRAGMA integrity_check").map { $0.first?.stringValue } == ["ok"])
        #expect(try app.rows("SELECT name FROM sqlite_schema WHERE name LIKE '\\_sm\\_%' ESCAPE '\\'").isEmpty)
    }
}

/// The application's connection, the statements it ran, and the tables it wrote into.
private final class WriteLog: @unchecked Sendable {
    private let db: SQLiteConnection
    private let lock = NSLock()
    private var seen: [String] = []
    private var sql: [String] = []
    func firstTime(_ table: String) -> Bool {
        lock.withLock {
            guard !seen.contains(table) else { return false }
            seen.append(table)
            return true
        }
    }
    init(_ db: SQLiteConnection) { self.db = db }
    /// Runs `statement`, and logs it when it succeeded (a trigger of the file's own may refuse it).
    func run(_ statement: String) {
        lock.withLock { if (try? db.execute(statement)) != nil { sql.append(statement) } }
    }
    var statements: [String] { lock.withLock { sql } }
    var tables: [String] { lock.withLock { seen } }
}

/// A counter shared by one connection's function.
private final class UUIDCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func next() -> Int {
        lock.withLock {
            value += 1
            return value
        }
    }
}
