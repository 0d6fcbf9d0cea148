import Foundation
import SchemaMigrations

/// V2 of the online plan: `Item` loses `legacy` and gains an index on `price` — both built in the
/// shadow table by an online change.
enum ReliabilityOnlineV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static let models: [any PersistentModel.Type] = [Item.self, Note.self]

    final class Item: PersistentModel {
        static let indexes: [[String]] = [["name"], ["category"], ["price"]]
        var name = ""
        var category: String? = nil
        var price = 0
        var weight: Double? = nil
        var created_at = 0.0
        var flag = false
        @Relationship(deleteRule: .cascade, inverse: "item") var notes: [Note] = []
        init() {}
    }

    final class Note: PersistentModel {
        var text = ""
        var item: Item? = nil
        init() {}
    }
}

/// The plan the online kill tests run: V1 (the reliability plan's) → V2, lightweight, under the
/// same plan name, so `populate` serves both.
enum ReliabilityOnlinePlan: SchemaMigrationPlan {
    static let name = "reliability"
    static let schemas: [any VersionedSchema.Type] = [ReliabilityV1.self, ReliabilityOnlineV2.self]
    static let stages: [MigrationStage] = [
        .lightweight(fromVersion: ReliabilityV1.self, toVersion: ReliabilityOnlineV2.self)
    ]
}

/// The application's writes during an online migration: its own connection, inserting, updating
/// and deleting items (and inserting notes) every few milliseconds, each printed once committed
/// (`write insert ID`, `write update ID PRICE`, `write delete ID`), so a test that kills the
/// process knows every write that must be in the file.
final class DriverWriteLoad: @unchecked Sendable {
    private let url: URL

    init(url: URL) { self.url = url }

    func start() {
        let url = self.url
        Thread.detachNewThread {
            guard let db = try? SQLiteConnection(path: url.path, mode: .readWrite, busyTimeout: 30),
                (try? db.execute("PRAGMA foreign_keys = ON")) != nil
            else { return }
            var n: Int64 = 0
            while true {
                n += 1
                let id = 10_000_000 + n
                let target = 1 + (n * 7919) % 40_000
                do {
                    switch n % 3 {
                    case 0:
                        try db.execute(
                            "INSERT INTO Item (id, name, price, created_at, flag) VALUES (\(id), 'app \(n)', \(n), 0, 0)"
                        )
                        try db.execute("INSERT INTO Note (text, item_id) VALUES ('app note', \(id))")
                        DriverOutput.line("write insert \(id)")
                    case 1:
                        try db.execute("UPDATE Item SET price = \(n) WHERE id = \(target)")
                        if db.changes > 0 { DriverOutput.line("write update \(target) \(n)") }
                    default:
                        try db.execute("DELETE FROM Item WHERE id = \(target + 1)")
                        if db.changes > 0 { DriverOutput.line("write delete \(target + 1)") }
                    }
                } catch {
                    DriverOutput.line("write failed \(error)")
                }
                usleep(3_000)
            }
        }
    }
}
