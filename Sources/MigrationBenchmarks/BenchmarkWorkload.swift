import Foundation
import SchemaMigrations

/// Builds the workload's databases and holds the hand-written SQL an expert would run.
public enum BenchmarkWorkload {
    /// The V1 tables exactly as the shared harness creates them (`sql/v1-schema.sql`).
    static let v1Schema = """
        CREATE TABLE trip(id INTEGER PRIMARY KEY, name TEXT NOT NULL, destination TEXT, start_date REAL NOT NULL,
          end_date REAL NOT NULL, budget INTEGER, legacy_code TEXT, rating REAL, is_public INTEGER NOT NULL DEFAULT 0,
          created_at REAL NOT NULL);
        CREATE TABLE bucket_item(id INTEGER PRIMARY KEY, trip_id INTEGER REFERENCES trip(id) ON DELETE CASCADE,
          title TEXT NOT NULL, done INTEGER NOT NULL DEFAULT 0);
        """

    /// Creates a V1 database with `trips` trips and twice as many bucket items, the same content
    /// as the shared harness's `gen-v1.sh` for the same size, recorded as V1 of ``BenchPlan``.
    public static func createV1(at url: URL, trips: Int) throws {
        try? FileManager.default.removeItem(at: url)
        let db = try SQLiteConnection(path: url.path)
        try db.execute(v1Schema)
        try db.execute(
            """
            BEGIN;
            WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < \(trips)),
            hh AS (SELECT i, (i * 2654435761) % 4294967296 AS h, (i * 2246822519 + 374761393) % 4294967296 AS g FROM c),
            base AS (SELECT i, h, g, 1600000000.0 + (h % 157680000) + (g % 1000) / 1000.0 AS sd FROM hh)
            INSERT INTO trip(id, name, destination, start_date, end_date, budget, legacy_code, rating, is_public, created_at)
            SELECT i, 'Trip ' || (h % 250000),
                   CASE WHEN h % 5 = 0 THEN NULL ELSE 'City ' || (g % 10000) END,
                   sd, sd + 86400 * (1 + (g >> 8) % 30),
                   CASE WHEN (g >> 4) % 10 = 0 THEN NULL ELSE ((h >> 8) % 20000) * 10 END,
                   CASE WHEN (h >> 3) % 2 = 0 THEN NULL ELSE 'LC-' || ((h >> 12) % 1000000) END,
                   CASE WHEN (g >> 12) % 4 = 0 THEN NULL ELSE ((g >> 16) % 51) / 10.0 END,
                   (h >> 20) % 2, 1500000000.0 + i * 37.5
            FROM base;
            WITH RECURSIVE c(j) AS (SELECT 1 UNION ALL SELECT j + 1 FROM c WHERE j < 2 * \(trips))
            INSERT INTO bucket_item(id, trip_id, title, done)
            SELECT j, (j + 1) / 2, 'Item ' || (2 - j % 2) || ' of trip ' || ((j + 1) / 2), (j % 3 = 0) FROM c;
            CREATE INDEX trip_name ON trip(name);
            CREATE INDEX trip_start ON trip(start_date);
            CREATE INDEX bucket_item_trip ON bucket_item(trip_id);
            COMMIT;
            """)
        // Adopt the hand-made database as V1, so timed runs start from a recorded version.
        try Migrator(plan: BenchPlan.self, options: MigrationOptions(targetVersion: BenchTripV1.versionIdentifier))
            .migrate(databaseAt: url)
    }

    /// The V1 → V2 migration written by hand, SQLite's 12-step procedure, producing the same
    /// tables, columns, defaults and indexes as the planner's rebuild: the columns the plan does
    /// not change keep the hand-made V1 table's definitions (no defaults where it had none).
    static let handWrittenV2 = """
        CREATE TABLE "new_trip" ("id" INTEGER PRIMARY KEY, "name" TEXT NOT NULL, "destination" TEXT NOT NULL DEFAULT '',
          "startDate" REAL NOT NULL, "endDate" REAL NOT NULL, "budget" INTEGER, "rating" REAL,
          "is_public" INTEGER NOT NULL DEFAULT 0, "created_at" REAL NOT NULL, "notes" TEXT);
        INSERT INTO "new_trip" ("id", "name", "destination", "startDate", "endDate", "budget", "rating", "is_public", "created_at")
          SELECT "id", "name", IFNULL("destination", ''), "start_date", "end_date", "budget", "rating", "is_public", "created_at" FROM "trip";
        DROP TABLE "trip";
        ALTER TABLE "new_trip" RENAME TO "trip";
        CREATE INDEX "trip_name" ON "trip" ("name");
        CREATE INDEX "trip_startDate" ON "trip" ("startDate");
        CREATE INDEX "trip_name_startDate_endDate" ON "trip" ("name", "startDate", "endDate");
        """

    /// The no-rebuild workload (``BenchTripV2Alter``) written as the 12-step recipe an expert
    /// would reach for without knowing which changes `ALTER TABLE` can make in place. The columns
    /// keep the hand-made V1 table's definitions (no defaults where it had none), as in place.
    static let handWrittenAlterRecipe = """
        CREATE TABLE "new_trip" ("id" INTEGER PRIMARY KEY, "name" TEXT NOT NULL, "destination" TEXT,
          "startDate" REAL NOT NULL, "endDate" REAL NOT NULL, "budget" INTEGER, "rating" REAL,
          "is_public" INTEGER NOT NULL DEFAULT 0, "created_at" REAL NOT NULL, "notes" TEXT);
        INSERT INTO "new_trip" ("id", "name", "destination", "startDate", "endDate", "budget", "rating", "is_public", "created_at")
          SELECT "id", "name", "destination", "start_date", "end_date", "budget", "rating", "is_public", "created_at" FROM "trip";
        DROP TABLE "trip";
        ALTER TABLE "new_trip" RENAME TO "trip";
        CREATE INDEX "trip_name" ON "trip" ("name");
        CREATE INDEX "trip_startDate" ON "trip" ("startDate");
        CREATE INDEX "trip_name_startDate_endDate" ON "trip" ("name", "startDate", "endDate");
        """

    /// Runs the hand-written migration the way an expert would: foreign keys off outside the
    /// transaction, `BEGIN IMMEDIATE`, the rebuild, a fatal `foreign_key_check`, commit.
    public static func runHandWrittenV2(at url: URL) throws {
        try runHandWritten(handWrittenV2, at: url)
    }

    /// The no-rebuild workload run as the 12-step recipe, the same way as ``runHandWrittenV2(at:)``.
    public static func runHandWrittenAlterRecipe(at url: URL) throws {
        try runHandWritten(handWrittenAlterRecipe, at: url)
    }

    private static func runHandWritten(_ sql: String, at url: URL) throws {
        let db = try SQLiteConnection(path: url.path, mode: .readWrite)
        try db.execute("PRAGMA foreign_keys = OFF")
        try db.execute("BEGIN IMMEDIATE")
        try db.execute(sql)
        if try db.scalar("SELECT count(*) FROM pragma_foreign_key_check")?.int64Value != 0 {
            try db.execute("ROLLBACK")
            throw MigrationError(.dataViolation, "foreign key violations")
        }
        try db.execute("COMMIT")
        try db.execute("PRAGMA foreign_keys = ON")
    }

    /// The custom stage's work written by hand: add the column, then a prepared-statement loop
    /// reading each trip and writing the new value, in one transaction.
    public static func runHandWrittenFill(at url: URL) throws {
        let db = try SQLiteConnection(path: url.path, mode: .readWrite)
        try db.execute("BEGIN IMMEDIATE; ALTER TABLE trip ADD COLUMN extra TEXT;")
        let select = try db.prepare("SELECT id, name, budget FROM trip ORDER BY id")
        let update = try db.prepare("UPDATE trip SET extra = ? WHERE id = ?")
        while try select.step() {
            let id = select.column(0)
            let name = select.column(1).stringValue ?? ""
            let budget = select.column(2).int64Value ?? 0
            update.reset()
            try update.bind([.text("\(name) / \(budget)"), id])
            try update.step()
        }
        try db.execute("COMMIT")
    }

    /// The same loop reading every column of each trip, as the custom stage that names no
    /// properties does: the same work as that stage, where ``runHandWrittenFill(at:)`` is what an
    /// expert reading only what is used writes.
    public static func runHandWrittenFillReadingEveryColumn(at url: URL) throws {
        let db = try SQLiteConnection(path: url.path, mode: .readWrite)
        try db.execute("BEGIN IMMEDIATE; ALTER TABLE trip ADD COLUMN extra TEXT;")
        let select = try db.prepare("SELECT * FROM trip ORDER BY id")
        let update = try db.prepare("UPDATE trip SET extra = ? WHERE id = ?")
        let columns = (0..<select.columnCount).map(select.columnName)
        guard let id = columns.firstIndex(of: "id"), let name = columns.firstIndex(of: "name"),
            let budget = columns.firstIndex(of: "budget")
        else { throw MigrationError(.invalidSchema, "trip lacks id, name or budget") }
        var row: [SQLiteValue] = []
        row.reserveCapacity(columns.count)
        while try select.step() {
            row.removeAll(keepingCapacity: true)
            for column in columns.indices { row.append(select.column(column)) }
            update.reset()
            try update.bind([.text("\(row[name].stringValue ?? "") / \(row[budget].int64Value ?? 0)"), row[id]])
            try update.step()
        }
        try db.execute("COMMIT")
    }

    /// Hand-written V2 → V3: one `ADD COLUMN`.
    public static func runHandWrittenV3(at url: URL) throws {
        let db = try SQLiteConnection(path: url.path, mode: .readWrite)
        try db.execute("BEGIN IMMEDIATE; ALTER TABLE trip ADD COLUMN extra TEXT; COMMIT;")
    }
}
