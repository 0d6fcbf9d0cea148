import Foundation
import SchemaMigrations

/// V1 with `destination` made non-optional with a default: a rebuild of `trip` with no data check.
public enum BenchTripV2Stall: VersionedSchema {
    public static let versionIdentifier = Schema.Version(2, 0, 0)
    public static let models: [any PersistentModel.Type] = [Trip.self]

    public final class Trip: PersistentModel {
        public static let entityName = "trip"
        public static let indexes: [[String]] = [["name"], ["start_date"]]
        var name = ""
        var destination = ""
        var start_date = 0.0
        var end_date = 0.0
        var budget: Int? = nil
        var legacy_code: String? = nil
        var rating: Double? = nil
        var is_public = false
        var created_at = 0.0
        public init() {}
    }
}

/// V1 with an index on `destination` added.
public enum BenchTripV2StallIndex: VersionedSchema {
    public static let versionIdentifier = Schema.Version(2, 0, 0)
    public static let models: [any PersistentModel.Type] = [Trip.self]

    public final class Trip: PersistentModel {
        public static let entityName = "trip"
        public static let indexes: [[String]] = [["name"], ["start_date"], ["destination"]]
        var name = ""
        var destination: String? = nil
        var start_date = 0.0
        var end_date = 0.0
        var budget: Int? = nil
        var legacy_code: String? = nil
        var rating: Double? = nil
        var is_public = false
        var created_at = 0.0
        public init() {}
    }
}

/// V1 with `legacy_code` dropped.
public enum BenchTripV2StallDrop: VersionedSchema {
    public static let versionIdentifier = Schema.Version(2, 0, 0)
    public static let models: [any PersistentModel.Type] = [Trip.self]

    public final class Trip: PersistentModel {
        public static let entityName = "trip"
        public static let indexes: [[String]] = [["name"], ["start_date"]]
        var name = ""
        var destination: String? = nil
        var start_date = 0.0
        var end_date = 0.0
        var budget: Int? = nil
        var rating: Double? = nil
        var is_public = false
        var created_at = 0.0
        public init() {}
    }
}

public enum BenchStallPlan: SchemaMigrationPlan {
    public static let name = "bench"
    public static let schemas: [any VersionedSchema.Type] = [BenchTripV1.self, BenchTripV2Stall.self]
}

public enum BenchStallIndexPlan: SchemaMigrationPlan {
    public static let name = "bench"
    public static let schemas: [any VersionedSchema.Type] = [BenchTripV1.self, BenchTripV2StallIndex.self]
}

public enum BenchStallDropPlan: SchemaMigrationPlan {
    public static let name = "bench"
    public static let schemas: [any VersionedSchema.Type] = [BenchTripV1.self, BenchTripV2StallDrop.self]
}

/// What an application connection saw while a migration ran: each write's latency, and whether
/// every write it made is in the database afterwards.
public struct WriterStallResult: Sendable {
    public var change: String
    public var mode: String
    public var migrationSeconds: Double
    public var writes: [Double]
    public var allWritesPresent: Bool

    var line: String {
        let sorted = writes.sorted()
        func at(_ fraction: Double) -> Double {
            sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * fraction))] * 1000
        }
        return
            "\(change), \(mode): migration \(String(format: "%.2f", migrationSeconds)) s; \(writes.count) app writes: median \(String(format: "%.1f", at(0.5))) ms, "
            + "p99 \(String(format: "%.1f", at(0.99))) ms, max \(String(format: "%.1f", at(1))) ms; every write present: \(allWritesPresent ? "yes" : "NO")"
    }
}

extension BenchmarkRunner {
    /// The application's writes while `trip` is rebuilt, offline then online, on copies of a WAL
    /// database: one connection of its own inserting, updating and deleting trips and bucket items
    /// about 200 times a second.
    mutating func writerStallCase(size: Int, template: URL, log: (String) -> Void) throws {
        let changes: [(String, any SchemaMigrationPlan.Type)] = [
            ("rebuild (destination non-optional)", BenchStallPlan.self),
            ("add an index", BenchStallIndexPlan.self), ("drop a column", BenchStallDropPlan.self),
        ]
        for (change, plan) in changes {
            for online in [false, true] {
                let url = configuration.directory.appendingPathComponent("stall-\(size).sqlite")
                try Measure.freshCopy(of: template, to: url)
                let result = try Self.stall(change: change, plan: plan, online: online, size: size, at: url)
                stallResults.append(result)
                log(result.line)
            }
        }
    }

    static func stall(change: String, plan: any SchemaMigrationPlan.Type, online: Bool, size: Int, at url: URL) throws
        -> WriterStallResult
    {
        try SQLiteConnection(path: url.path).execute("PRAGMA journal_mode = WAL")
        let writer = AppWriter(path: url.path, size: size)
        let thread = Thread { writer.run() }
        thread.start()
        Thread.sleep(forTimeInterval: 0.2)
        var options = MigrationOptions()
        if online { options.online = OnlineRebuildOptions() }
        let seconds = try Measure.seconds { try Migrator(plan: plan, options: options).migrate(databaseAt: url) }
        Thread.sleep(forTimeInterval: 0.2)
        writer.stop()
        let (latencies, present) = try writer.finish()
        return WriterStallResult(
            change: change, mode: online ? "online" : "offline", migrationSeconds: seconds, writes: latencies,
            allWritesPresent: present)
    }
}

/// The application: its own connection (busy timeout 60 s, foreign keys on), a write every 5 ms.
final class AppWriter: @unchecked Sendable {
    // Sendable: `stopped`, `done` and the logs are touched under the lock, or by the writer thread
    // alone until `done` is signalled.
    private let path: String
    private let size: Int
    private let lock = NSLock()
    private var stopped = false
    private let done = DispatchSemaphore(value: 0)
    private var latencies: [Double] = []
    private var insertedTrips = 0, insertedItems = 0
    private var updated: [Int64: Double] = [:]
    private var deletedItems: Set<Int64> = []
    private var failure: Error?

    init(path: String, size: Int) {
        self.path = path
        self.size = size
    }

    func stop() { lock.withLock { stopped = true } }

    func run() {
        defer { done.signal() }
        do {
            let db = try SQLiteConnection(path: path, busyTimeout: 60)
            try db.execute("PRAGMA foreign_keys = ON")
            var random = SystemRandomNumberGenerator()
            var operation = 0
            while !lock.withLock({ stopped }) {
                let started = Date()
                switch operation % 4 {
                case 0:
                    try db.execute(
                        "INSERT INTO trip (name, start_date, end_date, is_public, created_at) VALUES (?, 1.0, 2.0, 0, 3.0)",
                        [.text("app trip \(operation)")])
                    insertedTrips += 1
                case 1:
                    let id = Int64.random(in: 1...Int64(max(1, size / 2)), using: &random)
                    let rating = Double(operation) / 1000
                    try db.execute("UPDATE trip SET rating = ? WHERE id = ?", [.real(rating), .integer(id)])
                    updated[id] = rating
                case 2:
                    let id = Int64.random(in: Int64(size)...Int64(2 * size), using: &random)
                    // Never one of its own items: the table reuses the largest id once it is deleted.
                    try db.execute(
                        "DELETE FROM bucket_item WHERE id = ? AND title NOT LIKE 'app item %'", [.integer(id)])
                    deletedItems.insert(id)
                default:
                    let trip = Int64.random(in: 1...Int64(max(1, size / 2)), using: &random)
                    try db.execute(
                        "INSERT INTO bucket_item (trip_id, title) VALUES (?, ?)",
                        [.integer(trip), .text("app item \(operation)")])
                    insertedItems += 1
                }
                let took = Date().timeIntervalSince(started)
                latencies.append(took)
                operation += 1
                if took < 0.005 { Thread.sleep(forTimeInterval: 0.005 - took) }
            }
        } catch {
            failure = error
        }
    }

    /// Waits for the writer, then checks every write it made is there.
    func finish() throws -> ([Double], Bool) {
        done.wait()
        if let failure { throw failure }
        let db = try SQLiteConnection(path: path)
        let trips = try db.scalar("SELECT count(*) FROM trip WHERE name LIKE 'app trip %'")?.int64Value ?? -1
        let items = try db.scalar("SELECT count(*) FROM bucket_item WHERE title LIKE 'app item %'")?.int64Value ?? -1
        var present = trips == Int64(insertedTrips) && items == Int64(insertedItems)
        for (id, rating) in updated where present {
            present = try db.scalar("SELECT rating FROM trip WHERE id = ?", [.integer(id)])?.doubleValue == rating
        }
        for id in deletedItems where present {
            // The id may hold an item the application inserted after deleting the largest one.
            present =
                try db.scalar(
                    "SELECT count(*) FROM bucket_item WHERE id = ? AND title NOT LIKE 'app item %'", [.integer(id)])?
                .int64Value == 0
        }
        return (latencies, present)
    }
}
