import Foundation
import SchemaMigrations
import Testing

/// Swift written by `SwiftDeclarations` (and by `migrate scaffold`) compiles under Swift 6 without
/// a warning, and reads back as exactly the schema it was written from.
@Suite(.serialized) struct ScaffoldRoundTripTests {
    /// The built package, or the test fails with the build's log.
    static func package(sourceLocation: SourceLocation = #_sourceLocation) throws -> ScaffoldPackage {
        let package = try ScaffoldPackage.shared.get()
        try #require(
            package.buildStatus == 0, "the scaffolded package does not build:\n\(package.buildLog.suffix(6_000))",
            sourceLocation: sourceLocation)
        return package
    }

    /// What the generated declarations cannot carry and no hash covers: the Swift type's name
    /// (`Int32` is rendered `Int`, a `RawRepresentable` its raw type) and the property name (chosen
    /// from the column name); indexes in a canonical order (a declaration lists unique attributes first).
    static func comparable(_ schema: Schema) -> Schema {
        var schema = schema
        for entity in schema.entities.indices {
            for attribute in schema.entities[entity].attributes.indices {
                schema.entities[entity].attributes[attribute].swiftType = nil
                schema.entities[entity].attributes[attribute].propertyName = nil
            }
            schema.entities[entity].indexes.sort {
                ($0.isUnique ? 1 : 0, $0.columns.joined(separator: "\u{1}")) < (
                    $1.isUnique ? 1 : 0, $1.columns.joined(separator: "\u{1}")
                )
            }
        }
        return schema
    }

    @Test(.timeLimit(.minutes(10)))
    func theGeneratedPackageBuildsWithoutAWarning() throws {
        let package = try Self.package()
        #expect(!package.buildLog.contains("warning:"), "\(package.buildLog)")
    }

    @Test(.timeLimit(.minutes(10)))
    func everyDeclarationOptionReadsBackAsTheSchemaItWasWrittenFrom() throws {
        let package = try Self.package()
        let result = try package.run(["schemas"])
        try #require(result.status == 0, "\(result)")
        let snapshots = try #require(try result.json() as? [String: String])
        #expect(
            Set(snapshots.keys)
                == Set(ScaffoldCases.versions.map(\.name) + ["Shop"] + ScaffoldSchemaCases.cases.map(\.name)))
        // The declared cases, and the shop database as introspection reads it.
        let scratch = Scratch()
        let shop = scratch.directory.appendingPathComponent("shop.sqlite")
        try ShopDatabase.create(at: shop, customers: 1)
        let inputs =
            try ScaffoldCases.versions.map { ($0.name, try Schema($0.version)) } + [
                ("Shop", try SchemaIntrospection(databaseAt: shop).schema)
            ]
            + ScaffoldSchemaCases.cases.map { ($0.name, $0.schema) }
        for (name, declared) in inputs {
            let generated = try Schema(snapshotJSON: Data(try #require(snapshots[name]).utf8))
            #expect(
                generated.versionHash == declared.versionHash,
                "\(name): the generated declarations hash otherwise\n\(package.caseSources[name] ?? package.shopSource)"
            )
            let (read, written) = (Self.comparable(generated), Self.comparable(declared))
            #expect(read.entityNames == written.entityNames, "\(name)")
            for (entity, expected) in zip(read.entities, written.entities) {
                #expect(entity.attributes == expected.attributes, "\(name).\(expected.name): attributes")
                #expect(entity == expected, "\(name).\(expected.name)")
            }
            #expect(generated.version == declared.version)
        }
    }

    /// A table named `NamedIndex` used to give a file that does not compile. Every type the file
    /// mentions, keywords and the file's own types, as table names: the package builds (above)
    /// and each is declared under another type name, with its table named.
    @Test(.timeLimit(.minutes(10)))
    func tablesNamedLikeTheTypesTheFileUsesGetOtherTypeNamesAndCompile() throws {
        let package = try Self.package()
        let source = try #require(package.caseSources["Reserved"])
        for type in ScaffoldSchemaCases.typeNamesTheFileUses + ["ReservedSchemaV1", "ReservedMigrationPlan"] {
            #expect(!source.contains("public final class \(type): PersistentModel"), "\(type)")
            #expect(source.contains("public static let entityName = \"\(type)\"\n"), "\(type)")
        }
        #expect(source.contains("public static let namedIndexes: [NamedIndex] = ["))
        let strict = try #require(package.caseSources["Strict"])
        #expect(
            strict.contains(
                "enum StrictPlanNameMigrationPlan: SchemaMigrationPlan {\n    public static let name = \"Strict \\\"plan\\\" \\\\ name\"\n"
            ), "\(strict)")
    }

    @Test(.timeLimit(.minutes(10)))
    func generatedNamesAreIdiomaticWhereTheColumnAllowsIt() throws {
        let package = try Self.package()
        let names = try #require(package.caseSources["Names"])
        for line in [
            "public final class DateTable: PersistentModel {", "public static let entityName = \"Date\"",
            "public final class OrderLines: PersistentModel {", "public static let entityName = \"order lines\"",
            "@Attribute(column: \"first name\") var firstName = \"\"",
            "@Attribute(column: \"created_at\") var createdAt = 0",
            "var createdAt2 = 0",
            "@Attribute(column: \"createdAt\") var createdAt3 = 0",
            "@Attribute(column: \"2fa\") var _2fa = false",
            "var café = \"\"",
            "public final class Class: PersistentModel {", "public static let entityName = \"class\"",
            "var `default` = 1", "var `in` = \"\"",
            "@Attribute(column: \"self\") var selfColumn = \"\"", "@Attribute(column: \"Type\") var type = \"\"",
            "@Attribute(column: \"___\") var column7 = 1",
            "public static let uniqueness: [[String]] = [[\"default\", \"in\"]]",
        ] {
            #expect(
                names.contains("\n        " + line + "\n") || names.contains("\n    " + line + "\n"),
                "missing: \(line)\n\(names)")
        }
        let shop = package.shopSource
        for line in [
            "@Attribute(column: \"first_name\") var firstName: String",
            "@Attribute(column: \"customer_id\", references: .to(Customer.self, onDelete: .cascade)) var customerID: Int",
            "public final class Order: PersistentModel {", "public static let entityName = \"order\"",
        ] {
            #expect(shop.contains(line), "missing: \(line)\n\(shop)")
        }
    }

    @Test(.timeLimit(.minutes(10)))
    func generatedColumnsAndNamedIndexesAreWrittenAsDeclarations() throws {
        let package = try Self.package()
        let computed = try #require(package.caseSources["Computed"])
        for line in [
            #"public static let namedIndexes: [NamedIndex] = [.unique("customer_live_email", [.expression("lower(email)")], where: "deleted_at IS NULL"), "#
                + #".index("customer_recent", ["fullName", .column("createdAt", descending: true)]), "#
                + #".index("customer_name_nocase", [.column("fullName", collation: "NOCASE")]), "#
                + #".index("customer_kind", [.expression("json_extract(data, '$.kind')")])]"#,
            #"@Attribute(generated: .virtual("unit_price * quantity")) var total: Double? = nil"#,
            #"@Attribute(generated: .stored("quantity > 10")) var bulk: Bool? = nil"#,
        ] {
            #expect(computed.contains("\n        " + line + "\n"), "missing: \(line)\n\(computed)")
        }
    }

    /// Chinook, a GRDB-shaped file and one with every declarable SQLite feature: scaffolded with
    /// nothing left out, compiled, and adopted by the generated plan with zero differences and
    /// no row touched.
    @Test(.timeLimit(.minutes(10)), arguments: ScaffoldCorpus.databases.map(\.name))
    func everyCorpusDatabaseIsScaffoldedWholeAndAdoptedWithZeroDifferences(_ name: String) throws {
        let package = try Self.package()
        let scaffold = try #require(package.corpusScaffolds[name])
        #expect(scaffold.status == 0, "\(scaffold)")
        #expect(scaffold.stderr.isEmpty, "nothing left out: \(scaffold)")

        let scratch = Scratch()
        let url = scratch.directory.appendingPathComponent("\(name).sqlite")
        try ScaffoldCorpus.databases.first { $0.name == name }!.create(url)
        let before = try ScaffoldCorpus.contents(of: url)
        // Some applications write with foreign keys off (Fossil's file has rows pointing at
        // missing parents): adopting adds no violation.
        let violationsBefore = try scratch.rows(url.path, "PRAGMA foreign_key_check")
        let dependents = "SELECT type, name, sql FROM sqlite_schema WHERE type IN ('view', 'trigger') ORDER BY name"
        let dependentsBefore = try scratch.rows(url.path, dependents)
        if name == "Features" { #expect(dependentsBefore.count == 2) }
        let adopt = try package.run(["adopt", url.path, name])
        #expect(adopt.status == 0, "\(adopt)")
        #expect(
            adopt.stdout == """
                verify: version 1.0.0 recorded false upToDate false
                migrate: migrated adopted true 1.0.0
                verify: version 1.0.0 recorded true upToDate true

                """, "\(adopt)")
        #expect(try ScaffoldCorpus.contents(of: url) == before, "adopting touched no row")
        #expect(try scratch.rows(url.path, "PRAGMA integrity_check") == [["'ok'"]])
        #expect(try scratch.rows(url.path, "PRAGMA foreign_key_check") == violationsBefore)
        if name != "Fossil" { #expect(violationsBefore.isEmpty) }
        // What no declaration speaks of (views, triggers) is there as it was.
        #expect(try scratch.rows(url.path, dependents) == dependentsBefore, "\(name)")
    }

    /// A GIS-style file: values of other storage classes than their columns' types imply, a
    /// table with no key, a composite key over nullable columns. Scaffolded as they are stored
    /// (`Data` for the geometry blobs, `SQLiteValue` for text in an integer column and a mix),
    /// adopted (above), then every table rebuilt by a hand-written V2 whose custom stage reads the
    /// mixed column: every value byte-identical with its storage class, every rowid kept.
    @Test(.timeLimit(.minutes(10)))
    func aFileWithValuesAsStoredAndKeylessTablesIsRebuiltByAHandWrittenV2KeepingEveryValueAndRowid() throws {
        let package = try Self.package()
        let source =
            try #require(package.corpusScaffolds["Geo"]).stdout
            + (try String(
                contentsOf: package.root.appendingPathComponent("Package/Sources/ScaffoldCheck/GeoScaffoldV1.swift"),
                encoding: .utf8))
        for line in [
            #"@Attribute(sqlType: "POINT") var geom: Data? = nil"#,
            #"@Attribute(sqlType: "INTEGER") var code: SQLiteValue? = nil"#,
            #"@Attribute(sqlType: "NUMERIC") var size: SQLiteValue? = nil"#,
            #"public static let primaryKey: [String]? = []"#,
            #"public static let primaryKey: [String]? = ["layer", "zoom"]"#, "var layer: String? = nil",
            "var zoom: Int? = nil",
        ] {
            #expect(source.contains(line), "missing: \(line)\n\(source)")
        }
        let scratch = Scratch()
        let url = scratch.directory.appendingPathComponent("geo.sqlite")
        try GeoDatabase.create(at: url)
        let before = try scratch.rows(url.path, GeoDatabase.contents)
        let adopt = try package.run(["adopt", url.path, "Geo"])
        #expect(adopt.status == 0, "\(adopt)")
        let upgrade = try package.run(["upgrade", url.path, "Geo"])
        #expect(upgrade.status == 0, "\(upgrade)")
        #expect(
            upgrade.stdout == """
                migrate: migrated 1.0.0 -> 2.0.0
                verify: version 2.0.0 recorded true upToDate true

                """, "\(upgrade)")
        // Every row, rowid, value and storage class as it was; the custom stage read `size` as stored.
        let after = try scratch.rows(url.path, GeoDatabase.contents)
        #expect(
            after.map { $0[0] == "'extension_registry'" ? Array($0.prefix(4)) : $0 }
                == before.map { $0[0] == "'extension_registry'" ? Array($0.prefix(4)) : $0 })
        #expect(
            try scratch.rows(url.path, "SELECT rowid, definition FROM extension_registry ORDER BY rowid") == [
                ["2", "'none'"], ["3", "'GeoPackage 1.0'"],
            ])
        let labels = try scratch.rows(url.path, "SELECT label FROM feature ORDER BY fid")
        #expect(labels == [["'A12:12.5'"], ["'7:n/a'"], ["'B7:<2 bytes>'"], ["'C:3'"]], "\(labels)")
        #expect(
            try scratch.rows(url.path, "SELECT sql FROM sqlite_schema WHERE name = 'tile_link'") == [
                [
                    #"'CREATE TABLE "tile_link" ("layer" TEXT, "zoom" INTEGER, "tile" BLOB, PRIMARY KEY ("layer", "zoom"))'"#
                ]
            ])
        #expect(try scratch.rows(url.path, "PRAGMA integrity_check") == [["'ok'"]])
    }

    @Test(.timeLimit(.minutes(10)))
    func aScaffoldedDatabaseIsAdoptedWithZeroDifferencesThenMigratedByAHandWrittenV2() throws {
        let package = try Self.package()
        #expect(package.scaffold.status == 0, "\(package.scaffold)")
        #expect(
            package.scaffold.stdout.contains("ShopSchemaV1 (3 models) and ShopMigrationPlan"), "\(package.scaffold)")
        #expect(package.scaffold.stderr.isEmpty, "\(package.scaffold)")

        let scratch = Scratch()
        let url = scratch.directory.appendingPathComponent("shop.sqlite")
        try ShopDatabase.create(at: url)
        let tables = ["Customer", "\"order\"", "order_line"]
        func rows(_ table: String) throws -> [[String]] {
            try scratch.rows(url.path, "SELECT * FROM \(table) ORDER BY id")
        }
        let before = try tables.map(rows)

        let adopt = try package.run(["adopt", url.path])
        #expect(adopt.status == 0, "\(adopt)")
        #expect(
            adopt.stdout == """
                verify: version 1.0.0 recorded false upToDate false
                migrate: migrated adopted true 1.0.0
                verify: version 1.0.0 recorded true upToDate true

                """, "\(adopt)")
        #expect(try tables.map(rows) == before, "adopting touched no row")

        let upgrade = try package.run(["upgrade", url.path])
        #expect(upgrade.status == 0, "\(upgrade)")
        #expect(
            upgrade.stdout == """
                migrate: migrated 1.0.0 -> 2.0.0
                verify: version 2.0.0 recorded true upToDate true

                """, "\(upgrade)")
        // Every row, key and value kept; the renamed column holds the old one's values; the new one is empty.
        let customers = try scratch.rows(
            url.path, "SELECT id, given_name, last_name, email, created_at, vip, phone FROM Customer ORDER BY id")
        #expect(customers == before[0].map { $0 + ["NULL"] })
        #expect(try rows("\"order\"") == before[1])
        #expect(try rows("order_line") == before[2])
        #expect(try scratch.rows(url.path, "PRAGMA integrity_check") == [["'ok'"]])
        #expect(try scratch.rows(url.path, "PRAGMA foreign_key_check").isEmpty)
        let indexes = try scratch.rows(
            url.path, "SELECT name FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL ORDER BY name"
        ).map { $0[0] }
        #expect(indexes == ["'Customer_email_unique'", "'Customer_last_name_given_name'", "'order_by_customer'"])
        let keys = try scratch.rows(
            url.path, "SELECT \"table\", \"from\", \"to\", on_delete FROM pragma_foreign_key_list('order_line')")
        #expect(keys == [["'order'", "'order_id'", "'id'", "'CASCADE'"]])
    }
}
