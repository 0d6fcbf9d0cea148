import Foundation
import SchemaMigrations

/// Builds the populated V1 fixture database: deterministic trips, every fourth one sharing a name,
/// two bucket list items per trip and an accommodation for every other trip.
public enum SampleTripsFixture {
    public static func createV1(at url: URL, trips: Int) throws {
        try Migrator(plan: TripsMigrationPlan.self, options: MigrationOptions(targetVersion: TripsSchemaV1.versionIdentifier)).migrate(databaseAt: url)
        let db = try SQLiteConnection(path: url.path)
        try db.execute(v1RowsSQL(trips: trips))
    }

    /// The SQL that fills an empty V1 database with the fixture's rows (for a database reached
    /// some other way than a local file, such as a dqlite cluster).
    public static func v1RowsSQL(trips: Int) -> String {
        """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(trips))
            INSERT INTO Trip (id, name, destination, start_date, end_date)
            SELECT i,
                   'Trip ' || (CASE WHEN i % 4 = 0 THEN i - 1 ELSE i END),
                   CASE i % 5 WHEN 0 THEN 'Paris' WHEN 1 THEN 'Kyoto' WHEN 2 THEN 'Lima' WHEN 3 THEN 'Oslo' ELSE 'Accra' END,
                   1700000000 + i * 86400,
                   1700000000 + i * 86400 + (i % 14 + 1) * 86400
            FROM n;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2 * \(trips))
            INSERT INTO BucketListItem (id, title, details, hasReservation, isInPlan, trip_id)
            SELECT i, 'Item ' || i, 'Something to do on trip ' || ((i + 1) / 2), i % 3 = 0, i % 2, (i + 1) / 2 FROM n;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(trips))
            INSERT INTO LivingAccommodation (id, address, placeName, trip_id)
            SELECT i, i || ' Main Street', 'Hotel ' || i, i FROM n WHERE i % 2 = 1;
            """
    }
}
