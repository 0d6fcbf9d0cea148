import Foundation
import Testing

@testable import SchemaMigrations

/// A database shaped the way GRDB's `create(table:)` writes tables: `id TEXT PRIMARY KEY` UUID
/// strings, `BOOLEAN` flags, `DATETIME` columns holding `'YYYY-MM-DD HH:MM:SS.SSS'` text,
/// snake_case columns, a child table keyed onto the text key.
enum GRDBShape {
    static let sql = """
        CREATE TABLE "player" ("id" TEXT PRIMARY KEY NOT NULL, "name" TEXT NOT NULL, "is_active" BOOLEAN NOT NULL DEFAULT 1, "score" INTEGER NOT NULL, "created_at" DATETIME NOT NULL);
        CREATE TABLE "award" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "player_id" TEXT NOT NULL REFERENCES "player"("id") ON DELETE CASCADE, "title" TEXT NOT NULL);
        CREATE INDEX "award_on_player_id" ON "award"("player_id");
        INSERT INTO player VALUES ('0F1E2D3C-0000-4000-8000-000000000001', 'Arthur', 1, 100, '2024-02-29 13:45:07.250'),
            ('0F1E2D3C-0000-4000-8000-000000000002', 'Barbara', 0, 1000, '1999-12-31 23:59:59.999'), ('0F1E2D3C-0000-4000-8000-000000000003', 'Craig', 1, 10, '2025-01-01 00:00:00.000');
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
        @Attribute(column: "created_at", sqlType: "DATETIME", dateStorage: .iso8601Text) var createdAt: Date
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
        @Attribute(column: "created_at", sqlType: "DATETIME", dateStorage: .iso8601Text) var createdAt: Date
        @Attribute(column: "first_anniversary", sqlType: "DATETIME", dateStorage: .iso8601Text) var firstAnniversary:
            Date? = nil
        @Attribute(column: "joined_day", dateStorage: .julianDay) var joinedDay: Date? = nil
        init() {}
    }

    final class Award: PersistentModel {
        static let entityName = "award"
        static let indexes: [[String]] = [["playerID"]]
        @Attribute(.autoincrement) var id: Int
        @Attribute(column: "player_id", references: .to(Player.self, onDelete: .cascade, deferred: true)) var playerID:
            UUID
        @Attribute var title: String
        init() {}
    }
}

enum GRDBPlan: SchemaMigrationPlan {
    static let schemas: [any VersionedSchema.Type] = [GRDBV1.self, GRDBV2.self]
    static let stages: [MigrationStage] = [
        .custom(
            fromVersion: GRDBV1.self, toVersion: GRDBV2.self, willMigrate: nil,
            didMigrate: { context in
                // Rows of a table keyed by text are addressed by the id the data API hands out.
                try context.forEach("player") { player in
                    let name = try player.value("name", as: String.self)
                    let created = try player.value("createdAt", as: Date.self)
                    try context.update(
                        "player", id: player.id,
                        values: [
                            "nickname": String(name.prefix(3)).lowercased(),
                            "firstAnniversary": created.addingTimeInterval(366 * 86_400),
                            "joinedDay": created,
                        ])
                }
                // Deleting a player applies the declared cascade onto the text key.
                let inactive = try context.fetch("player", where: "is_active = 0")
                for player in inactive { try context.delete("player", id: player.id) }
            })
    ]
}

@Suite struct GRDBShapedTests {
    @Test func aGRDBShapedDatabaseIsDeclaredWithNoDifference() throws {
        let db = TemporaryDatabase()
        try db.execute(GRDBShape.sql)
        let declared = try StorageLayout.expand(Schema(GRDBV1.self))
        #expect(
            SchemaComparison(checksDefaults: true).differences(
                declared: declared, live: try LiveSchema.read(from: db.connect())) == [])
    }

    @Test func itIsAdoptedAndMigratedKeepingTextKeysAndTheirReferences() throws {
        let db = TemporaryDatabase()
        try db.execute(GRDBShape.sql)
        let result = try Migrator(plan: GRDBPlan.self).migrate(databaseAt: db.url)
        #expect(result.adopted)
        #expect(result.toVersion == Schema.Version(2, 0, 0))
        #expect(
            try db.rows("SELECT id, name, is_active, points, nickname FROM player ORDER BY name") == [
                ["'0F1E2D3C-0000-4000-8000-000000000001'", "'Arthur'", "1", "100", "'art'"],
                ["'0F1E2D3C-0000-4000-8000-000000000003'", "'Craig'", "1", "10", "'cra'"],
            ])
        // Dates read from GRDB's text and written back in it, and as Julian days SQLite's own functions agree with.
        #expect(
            try db.rows("SELECT created_at, first_anniversary, datetime(joined_day) FROM player ORDER BY name") == [
                ["'2024-02-29 13:45:07.250'", "'2025-03-01 13:45:07.250'", "'2024-02-29 13:45:07'"],
                ["'2025-01-01 00:00:00.000'", "'2026-01-02 00:00:00.000'", "'2025-01-01 00:00:00'"],
            ])
        // Barbara's two awards went with her, by the cascade declared onto the text key.
        #expect(
            try db.rows("SELECT id, player_id, title FROM award ORDER BY id") == [
                ["1", "'0F1E2D3C-0000-4000-8000-000000000001'", "'Gold'"]
            ])
        #expect(
            try db.scalar("SELECT sql FROM sqlite_schema WHERE name = 'award'")?.stringValue?.contains(
                "DEFERRABLE INITIALLY DEFERRED") == true)
        #expect(try db.scalar("SELECT seq FROM sqlite_sequence WHERE name = 'award'")?.int64Value == 3)
        #expect(try db.indexes("player").contains("(nickname)"))
        #expect(try db.indexes("award").contains("(player_id)"))
        #expect(try db.rows("PRAGMA foreign_key_check") == [])
        #expect(try db.rows("PRAGMA integrity_check") == [["'ok'"]])
        #expect(try Migrator(plan: GRDBPlan.self).verify(databaseAt: db.url).currentVersion == Schema.Version(2, 0, 0))
    }

    @Test func aDeclaredOptionTheTableLacksIsADifference() throws {
        let db = TemporaryDatabase()
        try db.execute(
            GRDBShape.sql.replacingOccurrences(
                of: "\"id\" INTEGER PRIMARY KEY AUTOINCREMENT", with: "\"id\" INTEGER PRIMARY KEY"))
        let declared = try StorageLayout.expand(Schema(GRDBV2.self))
        let differences = SchemaComparison(checksDefaults: false).differences(
            declared: declared, live: try LiveSchema.read(from: db.connect())
        ).map(\.description)
        #expect(differences.contains("award's key is not AUTOINCREMENT, declared AUTOINCREMENT"))
        #expect(
            differences.contains(
                "column award.player_id's foreign key is not DEFERRABLE INITIALLY DEFERRED, declared deferred"))
    }
}

@Suite struct DateStorageTests {
    @Test(arguments: [
        ("2024-02-29 13:45:07.250", 1_709_214_307.25), ("1999-12-31 23:59:59.999", 946_684_799.999),
        ("1969-12-31 23:59:59.500", -0.5),
        ("0001-01-01 00:00:00.000", -62_135_596_800.0),
    ])
    func textDatesReadAndWriteAsGRDBAndSQLiteDo(text: String, seconds: Double) throws {
        let date = Date(timeIntervalSince1970: seconds)
        #expect(DateText.format(date) == text)
        let parsed = try #require(DateText.parse(text))
        #expect(abs(parsed.timeIntervalSince1970 - seconds) < 0.000_5)
        // SQLite agrees.
        let db = TemporaryDatabase()
        #expect(try db.scalar("SELECT strftime('%Y-%m-%d %H:%M:%f', \(seconds), 'unixepoch')")?.stringValue == text)
    }

    @Test func otherSpellingsOfADateAreReadAndNonsenseIsNot() {
        #expect(DateText.parse("2024-02-29")?.timeIntervalSince1970 == 1_709_164_800)
        #expect(DateText.parse("2024-02-29T13:45:07Z")?.timeIntervalSince1970 == 1_709_214_307)
        #expect(DateText.parse("2024-02-29 13:45")?.timeIntervalSince1970 == 1_709_214_300)
        for text in ["2024-13-01", "2024-02-29 25:00", "yesterday", "2024-02-29 13:45:07.", "2024-02-29 13:45:07.2x"] {
            #expect(DateText.parse(text) == nil, "\(text)")
        }
    }

    enum Stored: VersionedSchema {
        static let versionIdentifier = Schema.Version(1, 0, 0)
        static let models: [any PersistentModel.Type] = [Event.self]
        final class Event: PersistentModel {
            @Attribute(dateStorage: .iso8601Text) var at = Date(timeIntervalSince1970: 0)
            @Attribute(dateStorage: .julianDay) var day = Date(timeIntervalSince1970: 0)
            var seconds = Date(timeIntervalSince1970: 0)
            init() {}
        }
    }

    enum WrongType: VersionedSchema {
        static let versionIdentifier = Schema.Version(1, 0, 0)
        static let models: [any PersistentModel.Type] = [Event.self]
        final class Event: PersistentModel {
            @Attribute(dateStorage: .iso8601Text) var at = 0.0
            init() {}
        }
    }

    @Test func theStorageDecidesTheColumnTypeAndTheDefault() throws {
        let event = try #require(try Schema(Stored.self).entity(named: "Event"))
        #expect(
            EntitySQL.createTable(event)
                == #"CREATE TABLE "Event" ("id" INTEGER PRIMARY KEY, "at" TEXT NOT NULL DEFAULT '1970-01-01 00:00:00.000', "day" REAL NOT NULL DEFAULT 2440587.5, "seconds" REAL NOT NULL DEFAULT 0.0)"#
        )
        let error = try #require(throws: MigrationError.self) { try Schema(WrongType.self) }
        #expect(error.message == "'Event.at' holds double values, but declares the date storage iso8601Text")
    }

    enum Restored: VersionedSchema {
        static let versionIdentifier = Schema.Version(2, 0, 0)
        static let models: [any PersistentModel.Type] = [Event.self]
        final class Event: PersistentModel {
            var at = Date(timeIntervalSince1970: 0)
            @Attribute(dateStorage: .julianDay) var day = Date(timeIntervalSince1970: 0)
            var seconds = Date(timeIntervalSince1970: 0)
            init() {}
        }
    }

    @Test func aChangedDateStorageIsRefusedBeforeAnythingIsWritten() throws {
        let db = TemporaryDatabase()
        try PlanBuilder.migrator([Schema(Stored.self)]).migrate(databaseAt: db.url)
        try db.execute("INSERT INTO Event DEFAULT VALUES")
        let before = try db.bytes()
        let error = try #require(throws: MigrationError.self) {
            try PlanBuilder.migrator([Schema(Stored.self), Schema(Restored.self)]).migrate(databaseAt: db.url)
        }
        #expect(error.code == .unsupportedChange)
        #expect(
            error.message
                == "a lightweight stage cannot change 'Event.at' from a date stored as iso8601Text to a date stored as secondsSince1970"
        )
        #expect(try db.bytes() == before)
    }
}
