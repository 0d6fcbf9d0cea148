import Foundation
import Testing

@testable import SchemaMigrations

/// Values kept as SQLite stores them, and every key SQLite allows: a column holding what its type
/// text does not imply is declared by what it holds (`Data`, `SQLiteValue`), a key may hold NULL
/// where SQLite allows it, and a table may have no key at all; rebuilds keep every value, its
/// storage class and every rowid.
@Suite struct ValuesAsStoredTests {
    static let file = """
        CREATE TABLE shape (id INTEGER PRIMARY KEY, geom POINT, code integer, size NUMERIC, note TEXT);
        INSERT INTO shape (geom, code, size) VALUES (X'0101', 'A1', 1.5), (X'', 'B2', 'n/a'), (NULL, 'C3', X'00FF'), (X'02', 4, 7);
        CREATE TABLE log (at TEXT, line TEXT NOT NULL);
        INSERT INTO log VALUES ('09:00', 'start'), ('09:01', 'gone'), (NULL, 'stop');
        DELETE FROM log WHERE line = 'gone';
        INSERT INTO log VALUES ('09:02', 'again');
        CREATE TABLE pair (a TEXT, b INTEGER, v BLOB, PRIMARY KEY (a, b));
        INSERT INTO pair VALUES ('x', 1, X'01'), (NULL, 2, X'02'), ('x', NULL, NULL), (NULL, NULL, X'');
        """

    static let contents = """
        SELECT 'shape', id, quote(geom), typeof(geom), quote(code), typeof(code), quote(size), typeof(size) FROM shape
        UNION ALL SELECT 'log', rowid, quote(at), line, NULL, NULL, NULL, NULL FROM log
        UNION ALL SELECT 'pair', rowid, quote(a), quote(b), quote(v), NULL, NULL, NULL FROM pair ORDER BY 1, 2
        """

    @Test func columnsAreDeclaredByWhatTheyHoldAndEveryTableIsDeclared() throws {
        let db = TemporaryDatabase()
        try db.execute(Self.file)
        let found = try SchemaIntrospection(databaseAt: db.url)
        #expect(found.undeclarable.isEmpty)
        let shape = try #require(found.schema.entity(named: "shape"))
        func declared(_ name: String) -> String {
            shape.attribute(named: name).map { "\($0.valueType.swiftTypeName!) \($0.sqlType ?? "-")" } ?? "none"
        }
        #expect(declared("geom") == "Data POINT")  // blobs only, in a NUMERIC-affinity column
        #expect(declared("code") == "SQLiteValue INTEGER")  // text (and an integer) in an integer column
        #expect(declared("size") == "SQLiteValue NUMERIC")  // reals, text and blobs by design
        #expect(found.schema.entity(named: "log")?.primaryKey == [])
        let pair = try #require(found.schema.entity(named: "pair"))
        #expect(pair.primaryKey == ["a", "b"] && pair.attributes.filter(\.isOptional).map(\.name) == ["a", "b", "v"])
        let swift = SwiftDeclarations(schema: found.schema, name: "Stored").source
        for line in [
            #"@Attribute(sqlType: "POINT") var geom: Data? = nil"#,
            #"@Attribute(sqlType: "INTEGER") var code: SQLiteValue? = nil"#,
            #"static let primaryKey: [String]? = []"#, #"static let primaryKey: [String]? = ["a", "b"]"#,
        ] {
            #expect(swift.contains(line), "\(line)\n\(swift)")
        }
    }

    @Test func rebuildsKeepEveryValueItsStorageClassAndEveryRowid() throws {
        let db = TemporaryDatabase()
        try db.execute(Self.file)
        let v1 = try SchemaIntrospection(databaseAt: db.url).schema
        try PlanBuilder.migrator([v1]).migrate(databaseAt: db.url)  // adopted with zero differences
        let before = try db.rows(Self.contents)
        var v2 = v1
        v2.version = Schema.Version(2, 0, 0)
        for index in v2.entities.indices { v2.entities[index].hashModifier = "rebuilt" }
        let result = try PlanBuilder.migrator([v1, v2]).migrate(databaseAt: db.url)
        #expect(result.stages.first?.steps.map(\.op) == [.rebuildTable, .rebuildTable, .rebuildTable])
        #expect(try db.rows(Self.contents) == before)
        #expect(try db.rows("SELECT rowid FROM log ORDER BY rowid") == [["1"], ["3"], ["4"]])
        #expect(try db.scalar("PRAGMA integrity_check")?.stringValue == "ok")
    }

    @Test func aTypeChangedToSQLiteValueKeepsEveryValueAsStored() throws {
        let db = TemporaryDatabase()
        let v1 = PlanBuilder.schema(
            1, [Schema.Entity(name: "t", attributes: [PlanBuilder.attribute("n", .integer, optional: true)])])
        try PlanBuilder.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute("INSERT INTO t (n) VALUES (1), ('text kept'), (2.5), (X'00'), (NULL)")
        let before = try db.rows("SELECT quote(n), typeof(n) FROM t ORDER BY id")
        var v2 = v1
        v2.version = Schema.Version(2, 0, 0)
        v2.entities[0].attributes[0].valueType = .sqliteValue
        try PlanBuilder.migrator([v1, v2]).migrate(databaseAt: db.url)
        #expect(try db.rows("SELECT quote(n), typeof(n) FROM t ORDER BY id") == before)
        #expect(try db.columns("t")["n"] == "BLOB")
    }

    // MARK: - Declared in Swift

    enum StoredV1: VersionedSchema {
        static let versionIdentifier = Schema.Version(1, 0, 0)
        static let models: [any PersistentModel.Type] = [Shape.self, Log.self, Pair.self]
        final class Shape: PersistentModel {
            static let entityName = "shape"
            @Attribute(sqlType: "POINT") var geom: Data? = nil
            @Attribute(sqlType: "integer") var code: SQLiteValue? = nil
            @Attribute(sqlType: "NUMERIC") var size: SQLiteValue? = nil
            var note: String? = nil
            init() {}
        }
        final class Log: PersistentModel {
            static let entityName = "log"
            static let primaryKey: [String]? = []
            var at: String? = nil
            @Attribute var line: String
            init() {}
        }
        final class Pair: PersistentModel {
            static let entityName = "pair"
            static let primaryKey: [String]? = ["a", "b"]
            var a: String? = nil
            var b: Int? = nil
            var v: Data? = nil
            init() {}
        }
    }

    enum StoredV2: VersionedSchema {
        static let versionIdentifier = Schema.Version(2, 0, 0)
        static let models: [any PersistentModel.Type] = [Shape.self, Log.self, Pair.self]
        final class Shape: PersistentModel {
            static let entityName = "shape"
            @Attribute(sqlType: "POINT") var geom: Data? = nil
            @Attribute(sqlType: "integer") var code: SQLiteValue? = nil
            @Attribute(sqlType: "NUMERIC") var size: SQLiteValue? = nil
            var note = ""  // optional → non-optional: a rebuild
            init() {}
        }
        final class Log: PersistentModel {
            static let entityName = "log"
            static let primaryKey: [String]? = []
            var at = "?"  // a rebuild of a table keyed by its rowid
            @Attribute var line: String
            init() {}
        }
        final class Pair: PersistentModel {
            static let entityName = "pair"
            static let primaryKey: [String]? = ["a", "b"]
            static let hashModifier: String? = "2"
            var a: String? = nil
            var b: Int? = nil
            var v: Data? = nil
            init() {}
        }
    }

    enum StoredPlan: SchemaMigrationPlan {
        static let schemas: [any VersionedSchema.Type] = [StoredV1.self, StoredV2.self]
        static let stages: [MigrationStage] = [
            .custom(
                fromVersion: StoredV1.self, toVersion: StoredV2.self,
                willMigrate: { context in
                    // The data API reads and writes an SQLiteValue as it is stored.
                    for row in try context.fetch("shape") {
                        let size: SQLiteValue? = try row.value("size")
                        if case .text(let text)? = size {
                            try context.update("shape", id: row.id, values: ["note": "size " + text])
                        }
                    }
                    try context.insert(
                        "shape", values: ["code": SQLiteValue.blob([9]), "size": SQLiteValue.text("12")])
                    // A table with no key: rows by rowid.
                    try context.forEach("log") { row in
                        if (try row.value("at", as: String?.self)) == nil {
                            try context.update("log", id: row.id, values: ["line": "stopped"])
                        }
                    }
                }, didMigrate: nil)
        ]
    }

    @Test func declaredInSwiftTheFileIsAdoptedAndMigratedByACustomStageReadingValuesAsStored() throws {
        let db = TemporaryDatabase()
        try db.execute(Self.file)
        let before = try db.rows(Self.contents)
        try Migrator(plan: StoredPlan.self, options: MigrationOptions(targetVersion: Schema.Version(1, 0, 0))).migrate(
            databaseAt: db.url)
        #expect(try db.rows(Self.contents) == before, "adopted, nothing touched")
        try Migrator(plan: StoredPlan.self).migrate(databaseAt: db.url)
        // (`rows` writes each value as an SQL literal: 'text', X'blob', NULL, numbers.)
        let shapes = try db.rows("SELECT id, code, size, typeof(size), note FROM shape ORDER BY id")
        let logs = try db.rows("SELECT rowid, at, line FROM log ORDER BY rowid")
        let pairs = try db.rows("SELECT rowid, a, b, v FROM pair ORDER BY rowid")
        #expect(
            shapes == [
                ["1", "'A1'", "1.5", "'real'", "''"], ["2", "'B2'", "'n/a'", "'text'", "'size n/a'"],
                ["3", "'C3'", "X'00FF'", "'blob'", "''"],
                // the text '12' in a NUMERIC column: SQLite stores the number, for any writer
                ["4", "4", "7", "'integer'", "''"], ["5", "X'09'", "12", "'integer'", "''"],
            ], "\(shapes)")
        #expect(
            logs == [["1", "'09:00'", "'start'"], ["3", "'?'", "'stopped'"], ["4", "'09:02'", "'again'"]], "\(logs)")
        #expect(
            pairs == [
                ["1", "'x'", "1", "X'01'"], ["2", "NULL", "2", "X'02'"], ["3", "'x'", "NULL", "NULL"],
                ["4", "NULL", "NULL", "X''"],
            ], "\(pairs)")
        #expect(try Migrator(plan: StoredPlan.self).verify(databaseAt: db.url).isUpToDate)
    }

    enum StrictAny: VersionedSchema {
        static let versionIdentifier = Schema.Version(1, 0, 0)
        static let models: [any PersistentModel.Type] = [Setting.self]
        final class Setting: PersistentModel {
            static let strict = true
            var value: SQLiteValue? = nil
            init() {}
        }
    }

    @Test func anSQLiteValueInAStrictTableMustBeDeclaredAny() throws {
        let error = try #require(throws: MigrationError.self) { try Schema(StrictAny.self) }
        #expect(
            error.message
                == "'Setting.value' is an SQLiteValue in a STRICT table, whose BLOB column would refuse values of other storage classes"
        )
        #expect(
            error.remedy == #"declare it @Attribute(sqlType: "ANY"), the STRICT type that keeps every value as given"#)
    }
}
