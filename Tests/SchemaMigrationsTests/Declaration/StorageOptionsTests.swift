import Foundation
import Testing

@testable import SchemaMigrations

/// Column names, SQL types and keys declared on the models: each read into the schema, refused
/// where SQLite would store something else, and changed by the planner like any other property.
@Suite struct StorageOptionsTests {
    enum NotesV1: VersionedSchema {
        static let versionIdentifier = Schema.Version(1, 0, 0)
        static let models: [any PersistentModel.Type] = [Note.self]
        final class Note: PersistentModel {
            static let entityName = "note"
            static let indexes: [[String]] = [["createdAt"]]
            @Attribute(column: "created_at") var createdAt = Date(timeIntervalSince1970: 0)
            @Attribute(sqlType: "VARCHAR(80)") var title = ""
            init() {}
        }
    }

    /// The column takes the property's name (a column rename), an optional column and an index
    /// are added, and `title`'s SQL type changes (a rebuild).
    enum NotesV2: VersionedSchema {
        static let versionIdentifier = Schema.Version(2, 0, 0)
        static let models: [any PersistentModel.Type] = [Note.self]
        final class Note: PersistentModel {
            static let entityName = "note"
            static let indexes: [[String]] = [["createdAt"], ["title"]]
            var createdAt = Date(timeIntervalSince1970: 0)
            @Attribute(sqlType: "VARCHAR(200)") var title = ""
            @Attribute(column: "body_text") var body: String? = nil
            init() {}
        }
    }

    enum NotesPlan: SchemaMigrationPlan {
        static let schemas: [any VersionedSchema.Type] = [NotesV1.self, NotesV2.self]
        static let stages: [MigrationStage] = [
            .custom(
                fromVersion: NotesV1.self, toVersion: NotesV2.self,
                willMigrate: { context in
                    // Before: the property name reads the snake_case column.
                    let first = try #require(try context.fetch("note", limit: 1).first)
                    #expect(try first.value("createdAt", as: Date.self) == Date(timeIntervalSince1970: 10))
                },
                didMigrate: { context in
                    try context.forEach("note") { note in
                        try context.update(
                            "note", id: note.id, values: ["body": "about " + (try note.value("title", as: String.self))]
                        )
                    }
                })
        ]
    }

    @Test func theOptionsAreReadIntoTheSchema() throws {
        let note = try #require(try Schema(NotesV1.self).entity(named: "note"))
        let createdAt = try #require(note.attribute(named: "created_at"))
        #expect(createdAt.propertyName == "createdAt")
        #expect(note.attribute(named: "title")?.sqlType == "VARCHAR(80)")
        #expect(note.indexes.map(\.columns) == [["created_at"]])
        #expect(
            EntitySQL.createTable(note)
                == #"CREATE TABLE "note" ("id" INTEGER PRIMARY KEY, "created_at" REAL NOT NULL DEFAULT 0.0, "title" VARCHAR(80) NOT NULL DEFAULT '')"#
        )
    }

    @Test func aSnakeCaseTableIsAdoptedThenItsColumnRenamedAndItsTypeChanged() throws {
        let db = TemporaryDatabase()
        try db.execute(
            """
            CREATE TABLE note (id INTEGER PRIMARY KEY, created_at REAL NOT NULL, title VARCHAR(80) NOT NULL);
            CREATE INDEX note_created ON note(created_at);
            INSERT INTO note VALUES (1, 10, 'first'), (2, 20, 'second');
            """)
        let result = try Migrator(plan: NotesPlan.self).migrate(databaseAt: db.url)
        #expect(result.adopted)
        #expect(
            try db.rows("SELECT id, createdAt, title, body_text FROM note ORDER BY id") == [
                ["1", "10.0", "'first'", "'about first'"], ["2", "20.0", "'second'", "'about second'"],
            ])
        // the hand-made table had no default: kept so
        #expect(try db.columns("note")["title"] == "VARCHAR(200) NOT NULL")
        #expect(try db.indexes("note") == ["(createdAt)", "(title)"])
        #expect(try db.rows("PRAGMA integrity_check") == [["'ok'"]])
        #expect(try Migrator(plan: NotesPlan.self).verify(databaseAt: db.url).currentVersion == Schema.Version(2, 0, 0))
    }

    enum WrongAffinity: VersionedSchema {
        static let versionIdentifier = Schema.Version(1, 0, 0)
        static let models: [any PersistentModel.Type] = [Item.self]
        final class Item: PersistentModel {
            @Attribute(sqlType: "NUMERIC(10,2)") var code = ""
            init() {}
        }
    }

    enum NotATypeName: VersionedSchema {
        static let versionIdentifier = Schema.Version(1, 0, 0)
        static let models: [any PersistentModel.Type] = [Item.self]
        final class Item: PersistentModel {
            @Attribute(sqlType: "TEXT); DROP TABLE Item; --") var code = ""
            init() {}
        }
    }

    @Test func aSQLTypeWhoseAffinityWouldChangeTheValuesIsRefused() throws {
        let error = try #require(throws: MigrationError.self) { try Schema(WrongAffinity.self) }
        #expect(error.code == .invalidSchema)
        #expect(error.entity == "Item")
        #expect(error.property == "code")
        #expect(
            error.message
                == "'Item.code' holds string values but is declared NUMERIC(10,2), whose affinity is NUMERIC: SQLite would change the values it stores"
        )
        let injection = try #require(throws: MigrationError.self) { try Schema(NotATypeName.self) }
        #expect(injection.message == "the SQL type of 'Item.code' is not a type name: TEXT); DROP TABLE Item; --")
    }

    enum KeyedV1: VersionedSchema {
        static let versionIdentifier = Schema.Version(1, 0, 0)
        static let models: [any PersistentModel.Type] = [Setting.self]
        final class Setting: PersistentModel {
            static let withoutRowID = true
            @Attribute(.primaryKey) var key: String
            var value: Data? = nil
            init() {}
        }
    }

    enum KeyedV2: VersionedSchema {
        static let versionIdentifier = Schema.Version(2, 0, 0)
        static let models: [any PersistentModel.Type] = [Setting.self]
        final class Setting: PersistentModel {
            static let withoutRowID = true
            @Attribute(.primaryKey) var key: String
            var value: Data? = nil
            var note: String? = nil
            init() {}
        }
    }

    enum KeyedV3: VersionedSchema {
        static let versionIdentifier = Schema.Version(3, 0, 0)
        static let models: [any PersistentModel.Type] = [Setting.self]
        final class Setting: PersistentModel {
            @Attribute(.primaryKey) var key: String
            var value: Data? = nil
            var note: String? = nil
            init() {}
        }
    }

    @Test func aWithoutRowIDTableTakesAnOptionalColumnAndRefusesTheByIDCalls() throws {
        let db = TemporaryDatabase()
        try db.execute(
            "CREATE TABLE Setting (key TEXT NOT NULL PRIMARY KEY, value BLOB) WITHOUT ROWID; INSERT INTO Setting VALUES ('b', X'02'), ('a', X'01');"
        )
        let migrator = try PlanBuilder.migrator(
            [Schema(KeyedV1.self), Schema(KeyedV2.self)], kind: .custom,
            didMigrate: { context in
                #expect(try context.fetch("Setting").map { try $0.value("key", as: String.self) } == ["a", "b"])
                let refused = try #require(throws: MigrationError.self) { try context.forEach("Setting") { _ in } }
                #expect(refused.message == "'Setting' is WITHOUT ROWID: its rows have no id for forEach")
                #expect(try context.delete("Setting", where: "key = 'b'") == 1)
            })
        let result = try migrator.migrate(databaseAt: db.url)
        #expect(result.adopted)
        #expect(try db.rows("SELECT key, value, note FROM Setting") == [["'a'", "X'01'", "NULL"]])
        #expect(
            try db.scalar("SELECT sql FROM sqlite_schema WHERE name = 'Setting'")?.stringValue?.hasSuffix(
                "WITHOUT ROWID") == true)
    }

    @Test func aChangedKeyIsRefusedBeforeAnythingIsWritten() throws {
        let db = TemporaryDatabase()
        try PlanBuilder.migrator([Schema(KeyedV2.self)]).migrate(databaseAt: db.url)
        try db.execute("INSERT INTO Setting (key) VALUES ('a')")
        let before = try db.bytes()
        let error = try #require(throws: MigrationError.self) {
            try PlanBuilder.migrator([Schema(KeyedV2.self), Schema(KeyedV3.self)]).migrate(databaseAt: db.url)
        }
        #expect(error.code == .unsupportedChange)
        #expect(error.entity == "Setting")
        #expect(error.message == "version 3.0.0 changes Setting's WITHOUT ROWID off, which a plan does not infer")
        #expect(try db.bytes() == before)
    }

    enum TwoKeys: VersionedSchema {
        static let versionIdentifier = Schema.Version(1, 0, 0)
        static let models: [any PersistentModel.Type] = [Link.self]
        final class Link: PersistentModel {
            static let primaryKey: [String]? = ["a"]
            @Attribute(.primaryKey) var b = 0
            var a = 0
            init() {}
        }
    }

    enum OptionalKey: VersionedSchema {
        static let versionIdentifier = Schema.Version(1, 0, 0)
        static let models: [any PersistentModel.Type] = [Link.self, Row.self]
        final class Link: PersistentModel {
            @Attribute(.primaryKey) var code: String? = nil  // SQLite allows NULL here
            init() {}
        }
        final class Row: PersistentModel {
            static let withoutRowID = true
            @Attribute(.primaryKey) var code: String? = nil  // not in a WITHOUT ROWID table
            init() {}
        }
    }

    enum OptionalRowidKey: VersionedSchema {
        static let versionIdentifier = Schema.Version(1, 0, 0)
        static let models: [any PersistentModel.Type] = [Link.self]
        final class Link: PersistentModel {
            @Attribute(.primaryKey) var number: Int? = nil  // nor in INTEGER PRIMARY KEY, the rowid
            init() {}
        }
    }

    @Test func aKeyDeclaredTwiceOrOptionalWhereSQLiteForbidsNullIsRefused() throws {
        let twice = try #require(throws: MigrationError.self) { try Schema(TwoKeys.self) }
        #expect(
            twice.message == "'Link' declares its primary key twice: primaryKey (a) and @Attribute(.primaryKey) on b")
        let optional = try #require(throws: MigrationError.self) { try Schema(OptionalKey.self) }
        #expect(
            optional.message == "'Row.code' is in the primary key but optional, which a WITHOUT ROWID table cannot hold"
        )
        let rowid = try #require(throws: MigrationError.self) { try Schema(OptionalRowidKey.self) }
        #expect(
            rowid.message
                == "'Link.number' is in the primary key but optional, which an INTEGER PRIMARY KEY (the rowid) cannot hold"
        )
    }

    @Test func newOptionsKeepOldSnapshotsAndEnterTheHashWhenDeclared() throws {
        let plain = try Schema(NotesV2.self)
        let json = try plain.snapshotJSON()
        #expect(!json.contains("primaryKey") && !json.contains("isWithoutRowID") && !json.contains("onUpdate"))
        for schema in [
            plain, try Schema(ChinookV1.self), try Schema(GRDBV2.self), try Schema(KeyedV1.self),
            try Schema(CheckAndCollationTests.V2.self),
            try Schema(StrictTableTests.Strict.self), try Schema(DateStorageTests.Stored.self),
        ] {
            let hashed = HashedSchema(schema)
            #expect(hashed.canonicalText == (try CanonicalJSON.encode(hashed)))
            #expect(try Schema(snapshotJSON: Data(schema.snapshotJSON().utf8)) == schema)
        }
        var renamed = try Schema(NotesV1.self)
        renamed.entities[0].attributes[0].propertyName = "creationDate"
        #expect(renamed.versionHash == (try Schema(NotesV1.self)).versionHash)  // a property name stores nothing
        var retyped = try Schema(NotesV1.self)
        retyped.entities[0].attributes[1].sqlType = "VARCHAR(81)"
        #expect(retyped.versionHash != (try Schema(NotesV1.self)).versionHash)
    }
}
