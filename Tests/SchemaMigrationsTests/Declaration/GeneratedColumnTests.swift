import Foundation
import Testing

@testable import SchemaMigrations

/// Generated columns declared with `@Attribute(generated:)`: created as SQLite's
/// `GENERATED ALWAYS AS (…)`, computed by SQLite after inserts and rebuilds, adopted where a
/// table has them, added cheaply when VIRTUAL, and never written by migrations or custom stages.
@Suite struct GeneratedColumnTests {
    enum V1: VersionedSchema {
        static let versionIdentifier = Schema.Version(1, 0, 0)
        static let models: [any PersistentModel.Type] = [LineItem.self]
        final class LineItem: PersistentModel {
            var sku = ""
            var price = 0.0
            var quantity = 0
            init() {}
        }
    }

    /// A VIRTUAL total: ALTER TABLE ADD COLUMN.
    enum V2: VersionedSchema {
        static let versionIdentifier = Schema.Version(2, 0, 0)
        static let models: [any PersistentModel.Type] = [LineItem.self]
        final class LineItem: PersistentModel {
            var sku = ""
            var price = 0.0
            var quantity = 0
            @Attribute(generated: .virtual("price * quantity")) var total: Double? = nil
            init() {}
        }
    }

    /// A STORED key: SQLite's ADD COLUMN refuses it, so the table is rebuilt.
    enum V3: VersionedSchema {
        static let versionIdentifier = Schema.Version(3, 0, 0)
        static let models: [any PersistentModel.Type] = [LineItem.self]
        final class LineItem: PersistentModel {
            var sku = ""
            var price = 0.0
            var quantity = 0
            @Attribute(generated: .virtual("price * quantity")) var total: Double? = nil
            @Attribute(generated: .stored("upper(sku)")) var skuKey: String? = nil
            init() {}
        }
    }

    /// The total's expression changed (a rebuild), the stored key dropped.
    enum V4: VersionedSchema {
        static let versionIdentifier = Schema.Version(4, 0, 0)
        static let models: [any PersistentModel.Type] = [LineItem.self]
        final class LineItem: PersistentModel {
            var sku = ""
            var price = 0.0
            var quantity = 0
            @Attribute(generated: .virtual("round(price * quantity * 1.2, 2)")) var total: Double? = nil
            init() {}
        }
    }

    /// V2 with a column its expression cannot find.
    enum Bad: VersionedSchema {
        static let versionIdentifier = Schema.Version(2, 0, 0)
        static let models: [any PersistentModel.Type] = [LineItem.self]
        final class LineItem: PersistentModel {
            var sku = ""
            var price = 0.0
            var quantity = 0
            @Attribute(generated: .virtual("price * qty")) var total: Double? = nil
            init() {}
        }
    }

    /// V2 with `total` an ordinary column.
    enum Ordinary: VersionedSchema {
        static let versionIdentifier = Schema.Version(3, 0, 0)
        static let models: [any PersistentModel.Type] = [LineItem.self]
        final class LineItem: PersistentModel {
            var sku = ""
            var price = 0.0
            var quantity = 0
            var total: Double? = nil
            init() {}
        }
    }

    static let rows =
        "INSERT INTO LineItem (id, sku, price, quantity) VALUES (1, 'ab-1', 2.5, 4), (2, 'cd-2', 10.0, 1), (3, 'ef-3', 0.5, 3);"

    /// Column → hidden (2 VIRTUAL, 3 STORED) as `table_xinfo` reports it.
    static func hidden(_ db: TemporaryDatabase) throws -> [[String]] {
        try db.rows("SELECT name, hidden FROM pragma_table_xinfo('LineItem') ORDER BY cid")
    }

    @Test func aDeclaredVersionCreatesTheGeneratedColumnsAndSQLiteComputesThem() throws {
        let db = TemporaryDatabase()
        #expect(try PlanBuilder.migrator([Schema(V3.self)]).migrate(databaseAt: db.url).outcome == .created)
        #expect(
            try db.scalar("SELECT sql FROM sqlite_schema WHERE name = 'LineItem'")?.stringValue
                == #"CREATE TABLE "LineItem" ("id" INTEGER PRIMARY KEY, "sku" TEXT NOT NULL DEFAULT '', "price" REAL NOT NULL DEFAULT 0.0, "quantity" INTEGER NOT NULL DEFAULT 0, "total" REAL GENERATED ALWAYS AS (price * quantity) VIRTUAL, "skuKey" TEXT GENERATED ALWAYS AS (upper(sku)) STORED)"#
        )
        let hand = TemporaryDatabase()
        try hand.execute(
            """
            CREATE TABLE LineItem (id INTEGER PRIMARY KEY, sku TEXT NOT NULL DEFAULT '', price REAL NOT NULL DEFAULT 0.0, quantity INTEGER NOT NULL DEFAULT 0,
                                   total REAL GENERATED ALWAYS AS (price * quantity) VIRTUAL, skuKey TEXT GENERATED ALWAYS AS (upper(sku)) STORED)
            """)
        #expect(try Self.hidden(db) == Self.hidden(hand))
        #expect(
            try Self.hidden(db) == [
                ["'id'", "0"], ["'sku'", "0"], ["'price'", "0"], ["'quantity'", "0"], ["'total'", "2"],
                ["'skuKey'", "3"],
            ])
        try db.execute(Self.rows)
        #expect(
            try db.rows("SELECT id, total, skuKey FROM LineItem ORDER BY id") == [
                ["1", "10.0", "'AB-1'"], ["2", "10.0", "'CD-2'"], ["3", "1.5", "'EF-3'"],
            ])
    }

    @Test func addingAVirtualColumnIsAnAlterAndAStoredOneARebuildKeepingEveryRow() throws {
        let db = TemporaryDatabase()
        try PlanBuilder.migrator([Schema(V1.self)]).migrate(databaseAt: db.url)
        try db.execute(Self.rows)
        let toV2 = try PlanBuilder.migrator([Schema(V1.self), Schema(V2.self)]).migrate(databaseAt: db.url)
        #expect(toV2.stages.flatMap(\.steps).map(\.op) == [.addColumn])
        #expect(
            toV2.stages[0].steps[0].action.plannedStatements
                == [#"ALTER TABLE "LineItem" ADD COLUMN "total" REAL GENERATED ALWAYS AS (price * quantity) VIRTUAL"#])
        #expect(
            try db.rows("SELECT id, total FROM LineItem ORDER BY id") == [
                ["1", "10.0"], ["2", "10.0"], ["3", "1.5"],
            ])

        let toV3 = try PlanBuilder.migrator([Schema(V1.self), Schema(V2.self), Schema(V3.self)]).migrate(
            databaseAt: db.url)
        #expect(toV3.stages.flatMap(\.steps).map(\.op) == [.rebuildTable])
        #expect(
            toV3.stages[0].steps[0].summary.contains(
                "add STORED generated skuKey (SQLite's ADD COLUMN cannot add a STORED column)"))
        #expect(try db.recordedVersion() == "3.0.0")
        #expect(
            try db.rows("SELECT id, sku, price, quantity, total, skuKey FROM LineItem ORDER BY id")
                == [
                    ["1", "'ab-1'", "2.5", "4", "10.0", "'AB-1'"], ["2", "'cd-2'", "10.0", "1", "10.0", "'CD-2'"],
                    ["3", "'ef-3'", "0.5", "3", "1.5", "'EF-3'"],
                ])
        #expect(try Self.hidden(db).suffix(2) == [["'total'", "2"], ["'skuKey'", "3"]])
        try db.execute("INSERT INTO LineItem (sku, price, quantity) VALUES ('gh-4', 1.0, 2)")
        #expect(try db.rows("SELECT total, skuKey FROM LineItem WHERE id = 4") == [["2.0", "'GH-4'"]])
        #expect(try db.rows("PRAGMA integrity_check") == [["'ok'"]])
    }

    @Test func aChangedExpressionIsARebuildAndADroppedColumnFollowsTheDropRules() throws {
        let db = TemporaryDatabase()
        try PlanBuilder.migrator([Schema(V3.self)]).migrate(databaseAt: db.url)
        try db.execute(Self.rows)
        let v3 = Schema.Version(3, 0, 0)
        var schemas = [try Schema(V3.self), try Schema(V4.self)]
        schemas[0].version = v3
        let result = try PlanBuilder.migrator(schemas).migrate(databaseAt: db.url)
        let steps = result.stages.flatMap(\.steps)
        #expect(steps.map(\.op) == [.rebuildTable])
        #expect(
            steps[0].summary.contains(
                "total: GENERATED ALWAYS AS (price * quantity) VIRTUAL to GENERATED ALWAYS AS (round(price * quantity * 1.2, 2)) VIRTUAL"
            ))
        #expect(steps[0].summary.contains("drop skuKey"))
        #expect(try db.recordedVersion() == "4.0.0")
        #expect(
            try db.rows("SELECT id, sku, price, quantity, total FROM LineItem ORDER BY id")
                == [
                    ["1", "'ab-1'", "2.5", "4", "12.0"], ["2", "'cd-2'", "10.0", "1", "12.0"],
                    ["3", "'ef-3'", "0.5", "3", "1.8"],
                ])
        #expect(
            try Self.hidden(db) == [
                ["'id'", "0"], ["'sku'", "0"], ["'price'", "0"], ["'quantity'", "0"], ["'total'", "2"],
            ])
        #expect(try PlanBuilder.migrator(schemas).verify(databaseAt: db.url).currentVersion == Schema.Version(4, 0, 0))
    }

    @Test func droppingOnlyAGeneratedColumnIsADropColumn() throws {
        let db = TemporaryDatabase()
        try PlanBuilder.migrator([Schema(V2.self)]).migrate(databaseAt: db.url)
        try db.execute(Self.rows)
        var v1 = try Schema(V1.self)
        v1.version = Schema.Version(3, 0, 0)
        let result = try PlanBuilder.migrator([Schema(V2.self), v1]).migrate(databaseAt: db.url)
        #expect(result.stages.flatMap(\.steps).map(\.op) == [.dropColumn])
        #expect(
            try db.rows("SELECT * FROM LineItem ORDER BY id") == [
                ["1", "'ab-1'", "2.5", "4"], ["2", "'cd-2'", "10.0", "1"], ["3", "'ef-3'", "0.5", "3"],
            ])
        #expect(try db.recordedVersion() == "3.0.0")
    }

    @Test func aGeneratedColumnMadeOrdinaryKeepsItsValuesAndOneMadeGeneratedIsComputed() throws {
        let db = TemporaryDatabase()
        try PlanBuilder.migrator([Schema(V2.self)]).migrate(databaseAt: db.url)
        try db.execute(Self.rows)
        let toOrdinary = try PlanBuilder.migrator([Schema(V2.self), Schema(Ordinary.self)]).migrate(databaseAt: db.url)
        #expect(toOrdinary.stages.flatMap(\.steps).map(\.op) == [.rebuildTable])
        #expect(
            try db.rows("SELECT id, total FROM LineItem ORDER BY id") == [
                ["1", "10.0"], ["2", "10.0"], ["3", "1.5"],
            ])
        #expect(try Self.hidden(db).last == ["'total'", "0"])
        try db.execute("UPDATE LineItem SET total = 0 WHERE id = 1")

        var generatedAgain = try Schema(V2.self)
        generatedAgain.version = Schema.Version(4, 0, 0)
        generatedAgain.entities[0].attributes[3].generated = .virtual("round(price * quantity, 2)")
        let migrator = try PlanBuilder.migrator([Schema(V2.self), Schema(Ordinary.self), generatedAgain])
        let toGenerated = try migrator.migrate(databaseAt: db.url)
        #expect(toGenerated.stages.flatMap(\.steps).map(\.op) == [.rebuildTable])
        #expect(
            try db.rows("SELECT id, total FROM LineItem ORDER BY id") == [
                ["1", "10.0"], ["2", "10.0"], ["3", "1.5"],
            ])
        #expect(try Self.hidden(db).last == ["'total'", "2"])
        #expect(try migrator.verify(databaseAt: db.url).currentVersion == Schema.Version(4, 0, 0))
    }

    @Test func aHandMadeTableIsIntrospectedAndAdoptedWithNoDifference() throws {
        let db = TemporaryDatabase()
        try db.execute(
            """
            CREATE TABLE LineItem (id INTEGER PRIMARY KEY, sku TEXT NOT NULL DEFAULT '', price REAL NOT NULL DEFAULT 0.0, quantity INTEGER NOT NULL DEFAULT 0,
                                   total REAL AS ("price"*Quantity), skuKey TEXT GENERATED ALWAYS AS (UPPER(sku)) STORED);
            """ + Self.rows)
        let found = try SchemaIntrospection(databaseAt: db.url)
        #expect(found.undeclarable.isEmpty && found.notCarried.isEmpty)
        let entity = try #require(found.schema.entity(named: "LineItem"))
        #expect(entity.attribute(named: "total")?.generated == .virtual(#""price"*Quantity"#))
        #expect(entity.attribute(named: "skuKey")?.generated == .stored("UPPER(sku)"))
        for declared in [try Schema(V3.self), found.schema] {
            #expect(
                SchemaComparison(checksDefaults: false).differences(
                    declared: declared, live: try LiveSchema.read(from: db.connect())) == [])
        }
        #expect(
            try Schema(V3.self).versionHash
                == {
                    var introspected = found.schema
                    introspected.version = Schema.Version(3, 0, 0)
                    return introspected
                }().versionHash)
        let result = try PlanBuilder.migrator([Schema(V1.self), Schema(V2.self), Schema(V3.self)]).migrate(
            databaseAt: db.url)
        #expect(result.adopted && result.stages.isEmpty)
        #expect(try db.recordedVersion() == "3.0.0")
        // Declared otherwise: the differences say how.
        #expect(
            SchemaComparison(checksDefaults: false).differences(
                declared: try Schema(V4.self), live: try LiveSchema.read(from: db.connect())
            ).map(\.description)
                == [
                    #"column LineItem.total is GENERATED ALWAYS AS ("price"*Quantity) VIRTUAL, declared GENERATED ALWAYS AS (round(price * quantity * 1.2, 2)) VIRTUAL"#
                ])
    }

    @Test func aCustomStageCannotWriteAGeneratedColumn() throws {
        let db = TemporaryDatabase()
        try PlanBuilder.migrator([Schema(V2.self)]).migrate(databaseAt: db.url)
        try db.execute(Self.rows)
        let before = try db.bytes()
        var v2b = try Schema(V2.self)
        v2b.version = Schema.Version(3, 0, 0)
        v2b.entities[0].attributes.append(PlanBuilder.attribute("note", .string, optional: true))
        let error = try #require(throws: MigrationError.self) {
            try PlanBuilder.migrator(
                [Schema(V2.self), v2b], kind: .custom,
                didMigrate: { context in
                    try context.update("LineItem", id: 1, values: ["total": 99.0])
                }
            ).migrate(databaseAt: db.url)
        }
        #expect(
            error.message.contains(
                "'LineItem.total' is generated (GENERATED ALWAYS AS (price * quantity) VIRTUAL): SQLite computes its values, and a write to it is refused"
            ))
        #expect(try db.bytes() == before)
        #expect(try db.recordedVersion() == "2.0.0")
    }

    @Test func aCustomStageReadsGeneratedValuesAndWritesTheColumnsTheyComeFrom() throws {
        let db = TemporaryDatabase()
        try PlanBuilder.migrator([Schema(V2.self)]).migrate(databaseAt: db.url)
        try db.execute(Self.rows)
        var next = try Schema(V2.self)
        next.version = Schema.Version(3, 0, 0)
        next.entities[0].attributes.append(PlanBuilder.attribute("note", .string, optional: true))
        try PlanBuilder.migrator(
            [Schema(V2.self), next], kind: .custom,
            didMigrate: { context in
                for row in try context.fetch("LineItem", orderBy: "id")
                where try row.value("total", as: Double?.self) == 10.0 {
                    try context.update("LineItem", id: row.id, values: ["quantity": 2, "note": "halved"])
                }
            }
        ).migrate(databaseAt: db.url)
        #expect(
            try db.rows("SELECT id, quantity, total, note FROM LineItem ORDER BY id")
                == [["1", "2", "5.0", "'halved'"], ["2", "2", "20.0", "'halved'"], ["3", "3", "1.5", "NULL"]])
    }

    @Test func anExpressionSQLiteRejectsIsRefusedBeforeAnythingIsWritten() throws {
        let db = TemporaryDatabase()
        try PlanBuilder.migrator([Schema(V1.self)]).migrate(databaseAt: db.url)
        try db.execute(Self.rows)
        let before = try db.bytes()
        let error = try #require(throws: MigrationError.self) {
            try PlanBuilder.migrator([Schema(V1.self), Schema(Bad.self)]).migrate(databaseAt: db.url)
        }
        #expect(error.code == .invalidSchema)
        #expect(
            error.message
                == "SQLite rejects the generated column 'LineItem.total', `GENERATED ALWAYS AS (price * qty) VIRTUAL`,: no such column: qty"
        )
        #expect(error.entity == "LineItem" && error.property == "total")
        #expect(try db.bytes() == before)
        // Creating a new database from it is refused the same way, before any table is made.
        let fresh = TemporaryDatabase()
        let creating = try #require(throws: MigrationError.self) {
            try PlanBuilder.migrator([Schema(Bad.self)]).migrate(databaseAt: fresh.url)
        }
        #expect(creating.message == error.message)
        #expect(try fresh.scalar("SELECT count(*) FROM sqlite_schema WHERE name = 'LineItem'")?.int64Value == 0)
    }

    @Test func aGeneratedKeyADefaultOrNotOneExpressionIsRefused() throws {
        var keyed = try Schema(V2.self)
        keyed.entities[0].primaryKey = ["total"]
        keyed.entities[0].attributes[3].isOptional = false
        let keyError = try #require(throws: MigrationError.self) { try keyed.validate() }
        #expect(
            keyError.message
                == "'LineItem.total' is generated, and SQLite does not allow a generated column in the primary key")
        var defaulted = try Schema(V2.self)
        defaulted.entities[0].attributes[3].defaultValue = "0.0"
        let defaultError = try #require(throws: MigrationError.self) { try defaulted.validate() }
        #expect(defaultError.message == "'LineItem.total' is generated and has a default, which SQLite does not allow")
        var injected = try Schema(V2.self)
        injected.entities[0].attributes[3].generated = .virtual("1) VIRTUAL, evil TEXT --")
        let injectedError = try #require(throws: MigrationError.self) { try injected.validate() }
        #expect(
            injectedError.message
                == "the generated expression of 'LineItem.total' is not one SQL expression: 1) VIRTUAL, evil TEXT --")
    }

    @Test func theGeneratedDefinitionIsHashedAndSnapshotted() throws {
        let v3 = try Schema(V3.self)
        let hashed = HashedSchema(v3)
        #expect(hashed.canonicalText == (try CanonicalJSON.encode(hashed)))
        #expect(try Schema(snapshotJSON: Data(v3.snapshotJSON().utf8)) == v3)
        var virtual = v3
        virtual.entities[0].attributes[4].generated?.storage = .virtual
        #expect(virtual.versionHash != v3.versionHash)
        var respaced = v3
        respaced.entities[0].attributes[3].generated?.expression = "PRICE*Quantity"
        #expect(respaced.versionHash == v3.versionHash)
        #expect(v3.entities[0].attribute(named: "total")?.defaultValue == nil, "a generated column has no default")
    }
}
