import Foundation

@testable import SchemaMigrations

/// What online-change tests compare: a database's dump, and an application writing while it migrates.
enum OnlineFixture {
    /// The companion table of an online change as releases before the schema cookie made it (11
    /// columns): a change recorded in it is read, resumed or refused as in the current one.
    static let earlierStateSQL = """
        CREATE TABLE IF NOT EXISTS "_schema_migrations_online" ("id" INTEGER PRIMARY KEY CHECK ("id" = 1), \
        "plan" TEXT NOT NULL, "fromVersion" TEXT NOT NULL, "toVersion" TEXT NOT NULL, "phase" TEXT NOT NULL, \
        "tables" TEXT NOT NULL, "highWater" INTEGER, "copied" INTEGER NOT NULL, "startedAt" REAL NOT NULL, \
        "heartbeat" REAL NOT NULL, "owner" TEXT NOT NULL)
        """

    /// The database as `.dump` would show it, minus what legitimately differs (root pages, the
    /// metadata's timestamps): every schema object's type, name, table and SQL, sorted; every row
    /// of every table with its rowid; `sqlite_sequence`. Read with the collations and functions
    /// of `environment`, which a table's collation may need.
    static func dump(_ url: URL, environment: SQLEnvironment = SQLEnvironment()) throws -> [String] {
        let db = try SQLiteConnection(path: url.path, mode: .readOnly)
        try db.apply(environment)
        var lines = try db.rows(
            "SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE name NOT LIKE '_schema_migrations%' ORDER BY type, name"
        )
        .map { $0.map(\.description).joined(separator: " | ") }
        let tables = try db.rows(
            "SELECT name, sql FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_schema_migrations%' ORDER BY name"
        )
        for table in tables {
            let name = table[0].stringValue!
            let withoutRowid = table[1].stringValue!.uppercased().contains("WITHOUT ROWID")
            let quoted = SQL.quoteIdentifier(name)
            let query =
                withoutRowid ? "SELECT * FROM \(quoted) ORDER BY 1" : "SELECT rowid, * FROM \(quoted) ORDER BY rowid"
            lines += try db.rows(query).map { "\(name): " + $0.map(\.sqlLiteral).joined(separator: ", ") }
        }
        if try db.scalar("SELECT 1 FROM sqlite_schema WHERE name = 'sqlite_sequence'") != nil {
            lines += try db.rows("SELECT name, seq FROM sqlite_sequence ORDER BY name").map {
                "sequence " + $0.map(\.description).joined(separator: " ")
            }
        }
        return lines
    }

    /// A connection of the application's that writes while a migration runs, and logs every
    /// statement that succeeded, in commit order, so the same writes can be replayed elsewhere.
    final class Writer: @unchecked Sendable {
        private let lock = NSLock()
        private var stopped = false
        private var log: [String] = []
        private var thread: Thread?
        private let done = DispatchSemaphore(value: 0)
        let url: URL
        let statements: @Sendable (inout SeededGenerator) -> String

        init(url: URL, seed: UInt64, statements: @escaping @Sendable (inout SeededGenerator) -> String) {
            self.url = url
            self.statements = statements
            let thread = Thread { [unowned self] in
                var random = SeededGenerator(seed: seed)
                let db = try! SQLiteConnection(path: url.path, busyTimeout: 10)
                let began = Date()
                while true {
                    self.lock.lock()
                    // A test that failed before stopping its writer must not leave it loading the machine.
                    if self.stopped || Date().timeIntervalSince(began) > Self.longest {
                        self.lock.unlock()
                        break
                    }
                    let sql = self.statements(&random)
                    if (try? db.execute(sql)) != nil { self.log.append(sql) }
                    self.lock.unlock()
                    usleep(300)
                }
                self.done.signal()
            }
            self.thread = thread
        }

        /// No writer writes longer than this, stopped or not.
        static let longest: TimeInterval = 300

        func start() { thread?.start() }

        /// Stops before the next statement; the one in flight has committed when this returns.
        func stop() {
            lock.lock()
            stopped = true
            lock.unlock()
        }

        /// Waits for the thread, and returns the statements that succeeded.
        func finish() -> [String] {
            stop()
            done.wait()
            lock.lock()
            defer { lock.unlock() }
            return log
        }
    }
}

/// A small deterministic random generator (SplitMix64).
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
