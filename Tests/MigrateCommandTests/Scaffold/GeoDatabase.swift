import Foundation
import SchemaMigrations

/// A GIS-style file, as a geospatial format writes it: geometry blobs in a column declared
/// `POINT` (NUMERIC affinity), codes that are text in a column declared `integer` (but '007',
/// which SQLite stored as the integer 7), a NUMERIC
/// column mixing reals, text and blobs by design, an extension registry with no primary key
/// (rows keyed by the rowid, one deleted), and a composite key over columns that hold NULL.
enum GeoDatabase {
    static let sql = """
        CREATE TABLE "feature" ("fid" INTEGER PRIMARY KEY, "name" TEXT NOT NULL, "geom" POINT, "code" integer, "size" NUMERIC, "note" TEXT);
        INSERT INTO "feature" VALUES (1, 'well', X'0101000000000000000000F03F0000000000000040', 'A12', 12.5, NULL),
          (2, 'gate', X'01010000000000000000000840', '007', 'n/a', 'north'), (3, 'tree', NULL, 'B7', X'00FF', NULL), (4, 'rock', X'', 'C', 3, NULL);
        CREATE TABLE "extension_registry" ("table_name" TEXT, "extension_name" TEXT NOT NULL, "definition" TEXT);
        INSERT INTO "extension_registry" VALUES ('feature', 'gpkg_rtree_index', 'http://www.geopackage.org/spec/#extension_rtree'), (NULL, 'gpkg_crs_wkt', NULL);
        DELETE FROM "extension_registry" WHERE rowid = 1;
        INSERT INTO "extension_registry" VALUES ('feature', 'gpkg_geom_POINT', 'GeoPackage 1.0');
        CREATE TABLE "tile_link" ("layer" TEXT, "zoom" INTEGER, "tile" BLOB, PRIMARY KEY ("layer", "zoom"));
        INSERT INTO "tile_link" VALUES ('base', 1, X'89504E47'), (NULL, 2, X'00'), ('base', NULL, NULL);
        """

    static func create(at url: URL) throws {
        try SQLiteConnection(path: url.path, mode: .readWriteCreate).execute(sql)
    }

    /// Every table's rows with their rowids and each value's storage class: what a rebuild must keep.
    static let contents = """
        SELECT 'feature', fid, name, quote(geom), typeof(geom), quote(code), typeof(code), quote(size), typeof(size), quote(note) FROM "feature"
        UNION ALL SELECT 'extension_registry', rowid, quote(table_name), extension_name, quote(definition), NULL, NULL, NULL, NULL, NULL FROM "extension_registry"
        UNION ALL SELECT 'tile_link', rowid, quote(layer), quote(zoom), quote(tile), NULL, NULL, NULL, NULL, NULL FROM "tile_link"
        ORDER BY 1, 2
        """

    /// Written by hand after the scaffolded V1 (the same declarations, as a user copies them):
    /// every table rebuilt (a hash modifier), a label added to features, and a custom stage that
    /// reads the mixed `size` column as stored and writes a label from it.
    static let versionTwo = """
        import Foundation
        import SchemaMigrations

        enum GeoSchemaV2: VersionedSchema {
            static let versionIdentifier = Schema.Version(2, 0, 0)
            static let models: [any PersistentModel.Type] = [Feature.self, ExtensionRegistry.self, TileLink.self]

            final class Feature: PersistentModel {
                static let entityName = "feature"
                static let hashModifier: String? = "rebuilt in 2.0.0"

                @Attribute(.primaryKey) var fid: Int
                @Attribute var name: String
                @Attribute(sqlType: "POINT") var geom: Data? = nil
                @Attribute(sqlType: "INTEGER") var code: SQLiteValue? = nil
                @Attribute(sqlType: "NUMERIC") var size: SQLiteValue? = nil
                var note: String? = nil
                var label: String? = nil

                init() {}
            }

            final class ExtensionRegistry: PersistentModel {
                static let entityName = "extension_registry"
                static let primaryKey: [String]? = []
                static let hashModifier: String? = "rebuilt in 2.0.0"

                @Attribute(column: "table_name") var tableName: String? = nil
                @Attribute(column: "extension_name") var extensionName: String
                var definition: String? = nil

                init() {}
            }

            final class TileLink: PersistentModel {
                static let entityName = "tile_link"
                static let primaryKey: [String]? = ["layer", "zoom"]
                static let hashModifier: String? = "rebuilt in 2.0.0"

                var layer: String? = nil
                var zoom: Int? = nil
                var tile: Data? = nil

                init() {}
            }
        }

        enum GeoMigrationPlanV2: SchemaMigrationPlan {
            static let name = "Geo"
            static let schemas: [any VersionedSchema.Type] = [GeoSchemaV1.self, GeoSchemaV2.self]
            static let stages: [MigrationStage] = [
                .custom(fromVersion: GeoSchemaV1.self, toVersion: GeoSchemaV2.self, willMigrate: nil, didMigrate: { context in
                    try context.forEach("feature", properties: ["size", "code"]) { row in
                        let size: SQLiteValue? = try row.value("size")
                        let code: SQLiteValue? = try row.value("code")
                        try context.update("feature", id: row.id, values: ["label": "\\(code?.description ?? "-"):\\(size.map { "\\($0)" } ?? "-")"])
                    }
                    // A table with no key: its rows by rowid, as the data API numbers them.
                    for row in try context.fetch("extension_registry") where (try row.value("definition", as: String?.self)) == nil {
                        try context.update("extension_registry", id: row.id, values: ["definition": "none"])
                    }
                }),
            ]
        }
        """
}
