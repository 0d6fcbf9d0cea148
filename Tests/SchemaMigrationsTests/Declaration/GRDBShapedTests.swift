import Foundation
import Testing
@testable import SchemaMigrations

/// A database shaped the way GRDB's `create(table:)` writes tables: `id TEXT PRIMARY KEY` UUID
/// strings, `BOOLEAN` flags, snake_case columns, a child table keyed onto the text key.
enum GRDBShape {
    static let sql = """
        CREATE TABLE "player" ("id" TEXT PRIMARY KEY NOT NULL, "name" TEXT NOT NULL, "is_active" BOOLEAN NOT NULL DEFAULT 1, "score" INTEGER NOT NULL);
        CREATE TABLE "award" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "player_id" TEXT NOT NULL REFERENCES "player"("id") ON DELETE CASCADE, "title" TEXT NOT NULL);
        CREATE INDEX "award_on_player_id" ON "award"("player_id");
        INSERT INTO player VALUES ('0F1E2D3C-0000-4000-8000-000000000001', 'Arthur', 1, 100), ('0F1E2D3C-0000-4000-8000-000000000002', 'Barbara', 0, 1000),
            ('0F1E2D3C-0000-4000-8000-000000000003', 'Craig', 1, 10);
        INSERT INTO award (player_id, title) VALUES ('0F1E2D3C-0000-4000-8000-000000000001', 'Gold'), ('0F1E2D3C-0000-4000-8000-000000000002', 'Silver'),
            ('0F1E2D3C-0000-4000-8000-000000000002', 'Bronze');
        """
}

enum GRDBV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static let models: [any PersistentModel.Type] = [Player.self, Award.self]

    final class Player: PersistentModel {
        static let entityName = "player"
        @Attribute(.primaryKey) var id: UUID
        @Attribute var name: String
        @Attribute(column: "is_active", sqlType: "BOOLEAN") var isActive = true
        @Attribute var score: Int
        init() {}
    }

    final class Award: PersistentModel {
        static let entityName = "award"
        static let indexes: [[String]] = [["playerID"]]
        @Attribute(.autoincrement) var id: Int
        @Attribute(column: "player_id", references: .to(Player.self, onDelete: .cascade)) var playerID: UUID
        @Attribute var title: String
        init() {}
    }
}

/// Renames `score` to `points`, adds an optional `nickname` and an index on it, and makes the
/// awards' key deferred.
enum GRDBV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static let models: [any PersistentModel.Type] = [Player.self, Award.self]

    final class Player: PersistentModel {
        static let entityName = "player"
        static let indexes: [[String]] = [["nickname"]]
        @Attribute(.primaryKey) var id: UUID
        @Attribute var name: String
        @Attribute(column: "is_active", sqlType: "BOOLEAN") var isActive = true
        @Attribute(originalName: "score") var points: Int
        var nickname: String? = nil
        init() {}
    }

    final class Award: PersistentModel {
        static let entityName = "award"
        static let indexes: [[String]] = [["playerID"]]
        @Attribute(.autoincrement) var id: Int
        @Attribute(column: "player_id", references: .to(Player.self, onDelete: .cascade, deferred: true)) var playerID: UUID
        @Attribute var title: String
        init() {}
    }
}

enum GRDBPlan: SchemaMigrationPlan {
    static let schemas: [any VersionedSchema.Type] = [GRDBV1.self, GRDBV2.self]
    static let stages: [MigrationStage] = [
        .custom(fromVersion: GRDBV1.self, toVersion: GRDBV2.self, willMigrate: nil, didMigrate: { context in
            // Rows of a table keyed by text are addressed by the id the data API hands out.
            try context.forEach("player") { player in
                let name = try player.value("name", as: String.self)
                try context.update("player", id: player.id, values: ["nickname": String(name.prefix(3)).lowercased()])
            }
            // Deleting a player applies the declared cascade onto the text key.
            let inactive = try context.fetch("player", where: "is_active = 0")
            for player in inactive { try context.delete("player", id: player.id) }
        }),
    ]
}

@Suite struct GRDBShapedTests {
    @Test func aGRDBShapedDatabaseIsDeclaredWithNoDifference() throws {
        let db = TemporaryDatabase()
        try db.execute(GRDBShape.sql)
        let declared = try StorageLayout.expand(Schema(GRDBV1.self))
        #expect(SchemaComparison(checksDefaults: true).differences(declared: declared, live: try LiveSchema.read(from: db.connect())) == [])
    }

    @Test func itIsAdoptedAndMigratedKeepingTextKeysAndTheirReferences() throws {
        let db = TemporaryDatabase()
        try db.execute(GRDBShape.sql)
        let result = try Migrator(plan: GRDBPlan.self).migrate(databaseAt: db.url)
        #expect(result.adopted)
        #expect(result.toVersion == Schema.Version(2, 0, 0))
        #expect(try db.rows("SELECT id, name, is_active, points, nickname FROM player ORDER BY name") == [
            ["'0F1E2D3C-0000-4000-8000-000000000001'", "'Arthur'", "1", "100", "'art'"],
            ["'0F1E2D3C-0000-4000-8000-000000000003'", "'Craig'", "1", "10", "'cra'"],
        ])
        // Barbara's two awards went with her, by the cascade declared onto the text key.
        #expect(try db.rows("SELECT id, player_id, title FROM award ORDER BY id") == [["1", "'0F1E2D3C-0000-4000-8000-000000000001'", "'Gold'"]])
        #expect(try db.scalar("SELECT sql FROM sqlite_schema WHERE name = 'award'")?.stringValue?.contains("DEFERRABLE INITIALLY DEFERRED") == true)
        #expect(try db.scalar("SELECT seq FROM sqlite_sequence WHERE name = 'award'")?.int64Value == 3)
        #expect(try db.indexes("player").contains("(nickname)"))
        #expect(try db.indexes("award").contains("(player_id)"))
        #expect(try db.rows("PRAGMA foreign_key_check") == [])
        #expect(try db.rows("PRAGMA integrity_check") == [["'ok'"]])
        #expect(try Migrator(plan: GRDBPlan.self).verify(databaseAt: db.url).currentVersion == Schema.Version(2, 0, 0))
    }

    @Test func aDeclaredOptionTheTableLacksIsADifference() throws {
        let db = TemporaryDatabase()
        try db.execute(GRDBShape.sql.replacingOccurrences(of: "\"id\" INTEGER PRIMARY KEY AUTOINCREMENT", with: "\"id\" INTEGER PRIMARY KEY"))
        let declared = try StorageLayout.expand(Schema(GRDBV2.self))
        let differences = SchemaComparison(checksDefaults: false).differences(declared: declared, live: try LiveSchema.read(from: db.connect()))
        #expect(differences.contains("award's key is not AUTOINCREMENT, declared AUTOINCREMENT"))
        #expect(differences.contains("column award.player_id's foreign key is not DEFERRABLE INITIALLY DEFERRED, declared deferred"))
    }
}
