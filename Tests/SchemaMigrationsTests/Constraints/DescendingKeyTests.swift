import Foundation
import Testing

@testable import SchemaMigrations

/// Key columns in descending order (`@Attribute(.descending)`): `INTEGER PRIMARY KEY DESC`, by
/// SQLite's old quirk no alias of the rowid (it may hold NULL, the table keeps rowids of its own),
/// a text key `DESC`, a composite `PRIMARY KEY (a DESC, b)`. A new install writes them as
/// declared, the scaffold declares them as the file has them, a stage keeps them through a
/// rebuild, and a change of the key's order is refused like any change of the key.
@Suite struct DescendingKeyTests {
    enum V1: VersionedSchema {
        static let versionIdentifier = Schema.Version(1, 0, 0)
        static let models: [any PersistentModel.Type] = [Reading.self, Code.self, Cell.self]

        /// `INTEGER PRIMARY KEY DESC`: no rowid alias, so a NULL key is a row like any other.
        final class Reading: PersistentModel {
            @Attribute(.primaryKey, .descending) var id: Int? = nil
            var value = 0.0
            init() {}
        }

        final class Code: PersistentModel {
            @Attribute(.primaryKey, .descending) var code = ""
            var label = ""
            init() {}
        }

        final class Cell: PersistentModel {
            static let primaryKey = ["row", "column"]
            static let withoutRowID = true
            @Attribute(.descending) var row = 0
            var column = 0
            var text = ""
            init() {}
        }
    }

    /// Each table rebuilt for a new column: the key stays as declared.
    enum V2: VersionedSchema {
        static let versionIdentifier = Schema.Version(2, 0, 0)
        static let models: [any PersistentModel.Type] = [Reading.self, Code.self, Cell.self]

        final class Reading: PersistentModel {
            static let hashModifier: String? = "rebuilt"
            @Attribute(.primaryKey, .descending) var id: Int? = nil
            var value = 0.0
            var unit = "C"
            init() {}
        }

        final class Code: PersistentModel {
            static let hashModifier: String? = "rebuilt"
            @Attribute(.primaryKey, .descending) var code = ""
            var label = ""
            init() {}
        }

        final class Cell: PersistentModel {
            static let primaryKey = ["row", "column"]
            static let withoutRowID = true
            static let hashModifier: String? = "rebuilt"
            @Attribute(.descending) var row = 0
            var column = 0
            var text = ""
            init() {}
        }
    }

    enum PlanV1: SchemaMigrationPlan { static let schemas: [any VersionedSchema.Type] = [V1.self] }
    enum Plan: SchemaMigrationPlan { static let schemas: [any VersionedSchema.Type] = [V1.self, V2.self] }

    static func sql(_ db: TemporaryDatabase, _ table: String) throws -> String {
        try db.rows("SELECT sql FROM sqlite_schema WHERE name = '\(table)'").first?.first ?? ""
    }

    @Test func aNewInstallWritesTheOrderAndAnIntegerKeySoWrittenHoldsNull() throws {
        let db = TemporaryDatabase()
        try Migrator(plan: PlanV1.self).migrate(databaseAt: db.url)
        #expect(try Self.sql(db, "Reading").contains(#""id" INTEGER PRIMARY KEY DESC,"#))
        #expect(try Self.sql(db, "Code").contains(#""code" TEXT PRIMARY KEY DESC NOT NULL"#))
        #expect(try Self.sql(db, "Cell").contains(#"PRIMARY KEY ("row" DESC, "column")"#))
        try db.execute("INSERT INTO Reading (id, value) VALUES (NULL, 1.5), (NULL, 2.5), (7, 3.5)")
        #expect(try db.rows("SELECT count(*) FROM Reading WHERE id IS NULL") == [["2"]])
        // Not the rowid: the table numbers its rows itself.
        #expect(
            try db.rows("SELECT rowid, id FROM Reading ORDER BY rowid") == [
                ["1", "NULL"], ["2", "NULL"], ["3", "7"],
            ])
        #expect(try Migrator(plan: PlanV1.self).verify(databaseAt: db.url).isUpToDate)
    }

    @Test(arguments: [false, true])
    func aRebuildKeepsTheOrderTheRowsAndTheirRowidsAndCreatedEqualsMigrated(online: Bool) throws {
        let migrated = TemporaryDatabase()
        try Migrator(plan: PlanV1.self).migrate(databaseAt: migrated.url)
        var options = MigrationOptions()
        if online { options.online = OnlineRebuildOptions() }
        try migrated.execute(
            """
            INSERT INTO Reading (rowid, id, value) VALUES (10, NULL, 1.5), (20, 5, 2.5);
            INSERT INTO Code VALUES ('b', 'bee'), ('a', 'ay');
            INSERT INTO Cell VALUES (1, 1, 'x'), (2, 1, 'y');
            """)
        let result = try Migrator(plan: Plan.self, options: options).migrate(databaseAt: migrated.url)
        #expect(result.toVersion == Schema.Version(2, 0, 0))
        #expect(
            try migrated.rows("SELECT rowid, id, unit FROM Reading ORDER BY rowid") == [
                ["10", "NULL", "'C'"], ["20", "5", "'C'"],
            ])
        #expect(try migrated.rows("SELECT code FROM Code ORDER BY code") == [["'a'"], ["'b'"]])
        let created = TemporaryDatabase()
        try Migrator(plan: Plan.self).migrate(databaseAt: created.url)
        let (fresh, upgraded) = (try SemanticSchema.lines(created.path), try SemanticSchema.lines(migrated.path))
        #expect(fresh == upgraded, "\(SemanticSchema.difference(fresh, upgraded))")
        #expect(
            fresh.contains(
                "table reading column id: type INTEGER, not null 0, default none, collate BINARY, key 1, hidden 0"))
        #expect(try Migrator(plan: Plan.self).verify(databaseAt: migrated.url).isUpToDate)
    }

    @Test func aFileWithDescendingKeysIsScaffoldedAsItIsAndANewInstallIsTheFile() throws {
        let original = TemporaryDatabase()
        try original.execute(
            """
            CREATE TABLE d (id INTEGER PRIMARY KEY DESC, x TEXT);
            CREATE TABLE e (id INTEGER PRIMARY KEY DESC NOT NULL, x TEXT);
            CREATE TABLE f (a INTEGER NOT NULL, b TEXT NOT NULL, PRIMARY KEY (a DESC, b)) WITHOUT ROWID;
            CREATE TABLE g (a INTEGER, b TEXT, PRIMARY KEY (a, b DESC));
            INSERT INTO d VALUES (NULL, 'none'), (3, 'three');
            INSERT INTO f VALUES (1, 'one');
            """)
        let found = try SchemaIntrospection(databaseAt: original.url)
        #expect(found.undeclarable.isEmpty, "\(found.undeclarable)")
        #expect(found.notCarried.isEmpty, "\(found.notCarried)")
        let declared = try #require(found.schema.entity(named: "d")?.attribute(named: "id"))
        #expect(declared.isDescending && declared.isOptional)
        #expect(found.schema.entity(named: "g")?.attributes.filter(\.isDescending).map(\.name) == ["b"])
        let swift = SwiftDeclarations(schema: found.schema, name: "Desc").source
        #expect(swift.contains("@Attribute(.primaryKey, .descending) var id: Int? = nil"), "\(swift)")
        let created = TemporaryDatabase()
        try PlanBuilder.migrator([found.schema]).migrate(databaseAt: created.url)
        let (file, fresh) = (try SemanticSchema.lines(original.path), try SemanticSchema.lines(created.path))
        #expect(file == fresh, "\(SemanticSchema.difference(file, fresh))")
        let result = try PlanBuilder.migrator([found.schema]).migrate(databaseAt: original.url)
        #expect(result.adopted)
        #expect(try original.rows("SELECT id, x FROM d ORDER BY rowid") == [["NULL", "'none'"], ["3", "'three'"]])
    }

    @Test func aDeclaredOrderTheFileLacksIsDriftAndAChangeOfOrderIsRefused() throws {
        let db = TemporaryDatabase()
        try db.execute("CREATE TABLE Code (code TEXT PRIMARY KEY NOT NULL DEFAULT '', label TEXT NOT NULL DEFAULT '')")
        let declared = try Schema(V1.self)
        let differences = SchemaComparison(checksDefaults: true).differences(
            declared: declared, live: try LiveSchema.read(from: db.connect())
        ).filter { $0.table == "Code" }
        #expect(differences.map(\.description) == ["Code's primary key is (code), declared (code DESC)"])

        var v2 = declared
        v2.version = Schema.Version(2, 0, 0)
        let code = try #require(v2.entities.firstIndex { $0.name == "Code" })
        v2.entities[code].attributes[0].options = []
        let fresh = TemporaryDatabase()
        try PlanBuilder.migrator([declared]).migrate(databaseAt: fresh.url)
        try fresh.execute("INSERT INTO Code VALUES ('b', 'bee'), ('a', 'ay')")
        let before = try fresh.bytes()
        let error = try #require(throws: MigrationError.self) {
            try PlanBuilder.migrator([declared, v2]).migrate(databaseAt: fresh.url)
        }
        #expect(error.code == .unsupportedChange)
        #expect(
            error.message
                == "version 2.0.0 changes Code's primary key order from (code DESC) to (code), which a plan does not infer"
        )
        #expect(try fresh.bytes() == before)
    }

    @Test(arguments: [
        ("notKey", "'Code.label' is .descending but not in the primary key: only a key column has an order of its own"),
        (
            "autoincrement",
            "'Code.code' is .descending and AUTOINCREMENT, which SQLite allows only on an INTEGER PRIMARY KEY in ascending order"
        ),
    ])
    func anOrderWhereSQLiteHasNoneIsRefusedNamingIt(_ kind: String, _ message: String) throws {
        var entity = Schema.Entity(
            name: "Code",
            attributes: [PlanBuilder.attribute("code", .integer), PlanBuilder.attribute("label", .string)],
            primaryKey: ["code"])
        if kind == "notKey" {
            entity.attributes[1].options = ["descending"]
        } else {
            entity.attributes[0].options = ["descending"]
            entity.isAutoincrement = true
        }
        let schema = Schema(version: Schema.Version(1, 0, 0), entities: [entity])
        #expect {
            try schema.validate()
        } throws: { error in
            (error as? MigrationError)?.message == message && (error as? MigrationError)?.code == .invalidSchema
        }
    }

    @Test func theHashCountsTheOrderOnlyWhereDeclared() throws {
        var ascending = try Schema(V1.self)
        for entity in ascending.entities.indices {
            for attribute in ascending.entities[entity].attributes.indices {
                ascending.entities[entity].attributes[attribute].options = []
            }
        }
        #expect(ascending.versionHash != (try Schema(V1.self)).versionHash)
        let read = try Schema(snapshotJSON: Data(try Schema(V1.self).snapshotJSON().utf8))
        #expect(read == (try Schema(V1.self)))
    }
}
