import DqliteClient
import DqliteTestCluster
import Foundation
import Testing

@Suite("SQL over the dqlite protocol", .serialized, .enabled(if: DqliteBinaries.available, DqliteBinaries.skipReason))
struct SQLTests {
    @Test("Each type a parameter can carry comes back as the same type from a SELECT")
    func valuesRoundTrip() throws {
        do {
            let cluster = try DqliteCluster.shared()
            let client = try DqliteClient(nodes: cluster.addresses, database: "values")
            try client.exec("CREATE TABLE sample(i INTEGER, r REAL, t TEXT, b BLOB, n)")
            let values: [DqliteValue] = [
                .integer(-9_007_199_254_740_993), .real(2.5), .text("Zoë ✈︎ 東京"), .blob([0, 1, 0xFE, 0xFF, 7]), .null,
            ]
            let inserted = try client.exec("INSERT INTO sample VALUES (?, ?, ?, ?, ?)", values)
            #expect(inserted == DqliteResult(lastInsertedRowID: 1, changes: 1))

            let statement = try client.prepare("INSERT INTO sample VALUES (?, ?, ?, ?, ?)")
            #expect(statement.parameterCount == 5)
            try client.exec(statement, [.integer(0), .real(-0.125), .text(""), .blob([]), .null])
            try client.finalize(statement)

            let rows = try client.query(
                "SELECT i, r, t, b, n, typeof(b) FROM sample WHERE i = ? OR t = ? ORDER BY rowid",
                [.integer(-9_007_199_254_740_993), .text("")])
            #expect(rows.columns == ["i", "r", "t", "b", "n", "typeof(b)"])
            #expect(
                rows.rows == [
                    values + [.text("blob")], [.integer(0), .real(-0.125), .text(""), .blob([]), .null, .text("blob")],
                ])
        }
    }

    @Test(
        "A 12-step table rebuild in one transaction across requests: every node ends with the same content, child rows kept"
    )
    func rebuildReplicated() throws {
        do {
            let cluster = try DqliteCluster.shared()
            let client = try DqliteClient(nodes: cluster.addresses.reversed(), database: "trips")
            try client.exec(
                """
                PRAGMA foreign_keys=ON;
                CREATE TABLE trip(id INTEGER PRIMARY KEY, name TEXT NOT NULL, cost REAL);
                CREATE TABLE stop(id INTEGER PRIMARY KEY, trip_id INTEGER NOT NULL REFERENCES trip(id) ON DELETE CASCADE, place TEXT);
                CREATE INDEX trip_name ON trip(name);
                CREATE VIEW trip_cost AS SELECT name, cost FROM trip;
                """)
            for id in 1...20 {
                try client.exec(
                    "INSERT INTO trip VALUES (?, ?, ?)",
                    [.integer(Int64(id)), .text("trip \(id)"), .real(Double(id) * 1.5)])
                try client.exec(
                    "INSERT INTO stop(trip_id, place) VALUES (?, ?)", [.integer(Int64(id)), .text("place \(id)")])
            }

            // SQLite's generalized ALTER TABLE procedure: trip.cost REAL → trip.price INTEGER NOT NULL.
            try client.exec("PRAGMA foreign_keys=OFF")
            #expect(try client.query("PRAGMA foreign_keys").scalar == .integer(0))
            try client.exec("BEGIN IMMEDIATE")
            _ = try client.query("PRAGMA schema_version")
            try client.exec("DROP VIEW trip_cost")
            try client.exec(
                "CREATE TABLE new_trip(id INTEGER PRIMARY KEY, name TEXT NOT NULL, price INTEGER NOT NULL DEFAULT 0)")
            try client.exec(
                "INSERT INTO new_trip(id, name, price) SELECT id, name, CAST(round(coalesce(cost, 0)) AS INTEGER) FROM trip"
            )
            try client.exec("DROP TABLE trip")
            try client.exec("ALTER TABLE new_trip RENAME TO trip")
            try client.exec("CREATE INDEX trip_name ON trip(name)")
            try client.exec("CREATE VIEW trip_cost AS SELECT name, price FROM trip")
            #expect(try client.query("PRAGMA foreign_key_check").rows.isEmpty)
            #expect(try client.query("PRAGMA quick_check").scalar == .text("ok"))
            try client.exec("COMMIT")
            try client.exec("PRAGMA foreign_keys=ON")

            #expect(try client.query("SELECT count(*) FROM stop").scalar == .integer(20))
            #expect(try client.query("SELECT price FROM trip WHERE id = 3").scalar == .integer(5))  // round(4.5)
            #expect(
                try client.query("PRAGMA table_xinfo(trip)").column("name") == [
                    .text("id"), .text("name"), .text("price"),
                ])

            let contents = try cluster.contents(of: "trips")
            #expect(contents.count == 3)
            #expect(Set(contents).count == 1, "the nodes disagree:\n\(contents.joined(separator: "\n====\n"))")
            #expect(contents[0].contains("|i:3|t:'trip 3'|i:5|"))
            #expect(contents[0].contains("CREATE VIEW trip_cost AS SELECT name, price FROM trip"))
        }
    }

    @Test("A prepared SELECT runs again and again with new parameters, each time returning its own rows")
    func preparedQuery() throws {
        let client = try DqliteClient(nodes: try DqliteCluster.shared().addresses, database: "prepared")
        try client.exec("CREATE TABLE city(name TEXT, country TEXT)")
        try client.exec("INSERT INTO city VALUES ('Lisbon', 'PT'), ('Porto', 'PT'), ('Lyon', 'FR')")
        let byCountry = try client.prepare("SELECT name FROM city WHERE country = ? ORDER BY name")
        #expect(try client.query(byCountry, ["PT"]).column("name") == ["Lisbon", "Porto"])
        #expect(try client.query(byCountry, ["FR"]).column("name") == ["Lyon"])
        #expect(try client.query(byCountry, ["ES"]).rows.isEmpty)
        try client.finalize(byCountry)
        let gone = try #require(throws: DqliteError.self) { try client.query(byCountry, ["PT"]) }
        #expect(gone.code == .sqlite)
    }

    @Test("A few thousand rows inserted in one transaction come back, counted and in full, over several batches")
    func thousandsOfRows() throws {
        let cluster = try DqliteCluster.shared()
        let client = try DqliteClient(nodes: cluster.addresses, database: "rows")
        try client.exec("CREATE TABLE reading(id INTEGER PRIMARY KEY, sensor TEXT NOT NULL, value REAL)")
        let insert = try client.prepare("INSERT INTO reading(sensor, value) VALUES (?, ?)")
        try client.exec("BEGIN IMMEDIATE")
        for index in 0..<5_000 {
            try client.exec(insert, [.text("sensor-\(index % 7)"), index % 10 == 0 ? .null : .real(Double(index) / 4)])
        }
        try client.exec("COMMIT")
        try client.finalize(insert)

        #expect(try client.query("SELECT count(*) FROM reading").scalar == .integer(5_000))
        #expect(try client.query("SELECT count(*) FROM reading WHERE value IS NULL").scalar == .integer(500))
        let all = try client.query("SELECT id, sensor, value FROM reading ORDER BY id")
        #expect(all.rows.count == 5_000)
        #expect(all.rows.last == [.integer(5_000), .text("sensor-\(4_999 % 7)"), .real(4_999.0 / 4)])
        #expect(all.column("id") == (1...5_000).map { .integer(Int64($0)) })
    }
}

@Suite(
    "Transactions larger than SQLite's page cache", .serialized,
    .enabled(if: DqliteBinaries.available, DqliteBinaries.skipReason))
struct LargeTransactionTests {
    /// Fills a 100,000-row indexed table, then rebuilds it with its index in one transaction: more dirty
    /// pages than SQLite's default page cache holds.
    private func rebuildLargeTable(_ client: DqliteClient) throws {
        try client.exec("CREATE TABLE trip(id INTEGER PRIMARY KEY, name TEXT NOT NULL, cost REAL, notes TEXT)")
        try client.exec("CREATE INDEX trip_name ON trip(name)")
        try client.exec(
            """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000)
            INSERT INTO trip SELECT i, 'trip ' || i, i * 1.25, CASE WHEN i % 3 = 0 THEN NULL ELSE 'note ' || i END FROM n
            """)
        try client.exec("BEGIN IMMEDIATE")
        try client.exec(
            "CREATE TABLE new_trip(id INTEGER PRIMARY KEY, name TEXT NOT NULL, price INTEGER NOT NULL, notes TEXT)")
        try client.exec("INSERT INTO new_trip SELECT id, name, CAST(round(cost) AS INTEGER), notes FROM trip")
        try client.exec("DROP TABLE trip")
        try client.exec("ALTER TABLE new_trip RENAME TO trip")
        try client.exec("CREATE INDEX trip_name ON trip(name)")
        try client.exec("COMMIT")
    }

    @Test("By default a transaction that outgrows the page cache commits (cache spill is off)")
    func commitsByDefault() throws {
        let client = try DqliteClient(nodes: try DqliteCluster.shared().addresses, database: "large")
        try rebuildLargeTable(client)
        #expect(
            try client.query("SELECT count(*), sum(price = CAST(round(id * 1.25) AS INTEGER)) FROM trip").rows == [
                [.integer(100_000), .integer(100_000)]
            ])
        #expect(try client.query("PRAGMA index_list(trip)").column("name") == [.text("trip_name")])
    }

    @Test(
        "With cache spill allowed, dqlite fails the same transaction with 'disk I/O error' and the table is left as it was"
    )
    func spillFails() throws {
        let options = DqliteClient.Options(cacheSpill: true)
        let client = try DqliteClient(nodes: try DqliteCluster.shared().addresses, database: "spill", options: options)
        let error = try #require(throws: DqliteError.self) { try rebuildLargeTable(client) }
        #expect(error.sqliteCode == 522)  // SQLITE_IOERR_SHORT_READ
        _ = try? client.exec("ROLLBACK")
        #expect(
            try client.query("SELECT name FROM pragma_table_info('trip')").column("name") == [
                "id", "name", "cost", "notes",
            ])
    }
}
