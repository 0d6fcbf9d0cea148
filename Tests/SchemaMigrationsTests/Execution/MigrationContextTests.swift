import Foundation
import Testing

@testable import SchemaMigrations

/// The custom stage's data API: typed rows by property name, writes, delete rules, batches.
@Suite struct MigrationContextTests {
    typealias A = PlanBuilder

    static let item = Schema.Entity(
        name: "Item",
        attributes: [
            A.attribute("title", .string, default: "''"),
            A.attribute("price", .decimal, optional: true),
            A.attribute("mood", .string, optional: true),
            A.attribute("address", .json, optional: true),
            A.attribute("seen", .date, optional: true),
            A.attribute("count", .integer, default: "0"),
            A.attribute("flag", .bool, default: "0"),
            A.attribute("uuid", .uuid, optional: true),
            A.attribute("blob", .data, optional: true),
        ])

    /// Runs `body` as the didMigrate of a stage that adds `extra` to Item, on a database with `rows`.
    static func inStage(rows: String = "", _ body: @escaping @Sendable (MigrationContext) throws -> Void) throws
        -> TemporaryDatabase
    {
        let db = TemporaryDatabase()
        var target = item
        target.attributes.append(A.attribute("extra", .string, optional: true))
        let v1 = A.schema(1, [item])
        let v2 = A.schema(2, [target])
        try A.migrator([v1]).migrate(databaseAt: db.url)
        if !rows.isEmpty { try db.execute(rows) }
        try A.migrator([v1, v2], kind: .custom, didMigrate: body).migrate(databaseAt: db.url)
        return db
    }

    @Test func insertsAndReadsEveryTypeByPropertyName() throws {
        let db = try Self.inStage { context in
            let id = try context.insert(
                "Item",
                values: [
                    "title": "Lamp", "price": Decimal(string: "19.99")!, "mood": Mood.happy,
                    "address": Address(street: "Main", zip: "1"),
                    "seen": Date(timeIntervalSince1970: 100), "count": 3, "flag": true,
                    "uuid": UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!, "blob": Data([1, 2]),
                    "extra": nil,
                ])
            let row = try #require(try context.fetch("Item", where: "id = ?", arguments: [.integer(id)]).first)
            #expect(try row.value("title") == "Lamp")
            #expect(try row.value("price") == Decimal(string: "19.99")!)
            #expect(try row.value("mood") == Mood.happy)
            #expect(try row.value("address") == Address(street: "Main", zip: "1"))
            #expect(try row.value("seen") == Date(timeIntervalSince1970: 100))
            #expect(try row.value("count") == 3)
            #expect(try row.value("count", as: Int8.self) == 3)
            #expect(try row.value("flag") == true)
            #expect(try row.value("uuid") == UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!)
            #expect(try row.value("blob") == Data([1, 2]))
            #expect(try row.value("extra", as: String?.self) == nil)
            #expect(try row.value("mood", as: Mood?.self) == .happy)
        }
        #expect(
            try db.rows("SELECT title, price, mood, address, seen, count, flag FROM Item") == [
                ["'Lamp'", "'19.99'", "'happy'", #"'{"street":"Main","zip":"1"}'"#, "100.0", "3", "1"]
            ])
    }

    @Test func aTypeMismatchNamesTheEntityPropertyAndType() throws {
        let db = TemporaryDatabase()
        let v1 = A.schema(1, [Self.item])
        var target = Self.item
        target.hashModifier = "x"
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute("INSERT INTO Item (id, title) VALUES (7, 'Lamp')")
        let error = try #require(throws: MigrationError.self) {
            try A.migrator(
                [v1, A.schema(2, [target])], kind: .custom,
                willMigrate: { context in
                    let row = try context.fetch("Item").first!
                    _ = try row.value("title", as: Int.self)
                }
            ).migrate(databaseAt: db.url)
        }
        #expect(error.code == .typeMismatch)
        #expect(error.message == "'Item.title' of row 7 holds text 'Lamp', which cannot be read as Int")
        #expect(error.entity == "Item" && error.property == "title")
    }

    @Test func fetchFiltersSortsAndLimitsAndCountCounts() throws {
        _ = try Self.inStage(rows: "INSERT INTO Item (title, count) VALUES ('a', 5), ('b', 1), ('c', 9), ('d', 7);") {
            context in
            let rows = try context.fetch(
                "Item", where: "count > ?", arguments: [.integer(2)], orderBy: "count DESC", limit: 2)
            #expect(try rows.map { try $0.value("title", as: String.self) } == ["c", "d"])
            #expect(try context.count("Item") == 4)
            #expect(try context.count("Item", where: "count < 6") == 2)
            #expect(throws: MigrationError.self) { try context.fetch("Nope") }
        }
    }

    @Test func propertiesReadsOnlyThoseAndNamesWhatWasLeftOut() throws {
        let db = try Self.inStage(
            rows: "INSERT INTO Item (id, title, count, mood) VALUES (1, 'a', 5, 'calm'), (2, 'b', 1, NULL);"
        ) { context in
            var seen: [[String: SQLiteValue]] = []
            try context.forEach("Item", properties: ["count", "title"]) { row in
                seen.append(row.values)
                try context.update(
                    "Item", id: row.id,
                    values: [
                        "extra": "\(try row.value("title", as: String.self))\(try row.value("count", as: Int.self))"
                    ])
            }
            #expect(
                seen == [
                    ["id": .integer(1), "count": .integer(5), "title": .text("a")],
                    ["id": .integer(2), "count": .integer(1), "title": .text("b")],
                ])
            let row = try #require(try context.fetch("Item", properties: ["title"]).first)
            #expect(row["mood"] == nil)
            let missing = try #require(throws: MigrationError.self) { try row.value("mood", as: String?.self) }
            #expect(
                missing.message
                    == "'Item' has no property 'mood' at this version, or it was not among the properties read")
            #expect(missing.remedy == "add 'mood' to the properties: the rows are read with (id, title)")
            let unknown = try #require(throws: MigrationError.self) {
                try context.forEach("Item", properties: ["nope"]) { _ in Issue.record("no row expected") }
            }
            #expect(unknown.code == .invalidSchema)
            #expect(unknown.message == "'Item' has no property 'nope' at version 2.0.0")
        }
        #expect(try db.rows("SELECT id, extra FROM Item ORDER BY id") == [["1", "'a5'"], ["2", "'b1'"]])
    }

    @Test func updateAndDeleteWriteThroughTheStage() throws {
        let db = try Self.inStage(
            rows: "INSERT INTO Item (id, title, count) VALUES (1, 'a', 1), (2, 'b', 2), (3, 'c', 3);"
        ) { context in
            try context.update("Item", id: 1, values: ["title": "A", "extra": "x"])
            try context.delete("Item", id: 2)
            #expect(try context.delete("Item", where: "count > ?", arguments: [.integer(2)]) == 1)
        }
        #expect(try db.rows("SELECT id, title, extra FROM Item") == [["1", "'A'", "'x'"]])
    }

    @Test func forEachWalksEveryRowInBatchesAndReportsProgress() throws {
        let db = TemporaryDatabase()
        let v1 = A.schema(1, [Self.item])
        var target = Self.item
        target.attributes.append(A.attribute("extra", .string, optional: true))
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2500) INSERT INTO Item (id, title, count) SELECT i, 't' || i, i FROM n;"
        )
        let reports = Reports()
        try A.migrator(
            [v1, A.schema(2, [target])], kind: .custom,
            didMigrate: { context in
                try context.forEach("Item", where: "count % 2 = 0", batchSize: 100) { row in
                    try context.update(
                        "Item", id: row.id, values: ["extra": "even \(try row.value("count", as: Int.self))"])
                }
            }, options: MigrationOptions(progress: { reports.append($0) })
        ).migrate(databaseAt: db.url)
        #expect(
            try db.rows("SELECT count(*), min(extra), max(id) FROM Item WHERE extra IS NOT NULL") == [
                ["1250", "'even 10'", "2500"]
            ])
        let rowReports = reports.all.filter { $0.rowsDone != nil }
        #expect(rowReports.count == 13)
        #expect(rowReports.last?.rowsDone == 1250)
        #expect(rowReports.last?.rowsTotal == 1250)
    }

    @Test func aClosureThrowingHalfWayThroughAHundredThousandRowUpdateLeavesNothing() throws {
        struct Stop: Error {}
        let db = TemporaryDatabase()
        let v1 = A.schema(1, [Self.item])
        var target = Self.item
        target.attributes.append(A.attribute("extra", .string, optional: true))
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000) INSERT INTO Item (id, title, count) SELECT i, 't' || i, i FROM n;"
        )
        let before = try db.bytes()
        let error = try #require(throws: MigrationError.self) {
            try A.migrator(
                [v1, A.schema(2, [target])], kind: .custom,
                didMigrate: { context in
                    try context.forEach("Item", batchSize: 5000) { row in
                        if row.id == 50_000 { throw Stop() }
                        try context.execute(
                            "UPDATE Item SET title = 'changed', count = -1 WHERE id = ?", arguments: [.integer(row.id)])
                    }
                }
            ).migrate(databaseAt: db.url)
        }
        #expect(error.code == .customStageFailed)
        #expect(try db.bytes() == before)
        #expect(try db.recordedVersion() == "1.0.0")
        #expect(try db.rows("SELECT count(*) FROM Item WHERE title = 'changed'") == [["0"]])
    }

    @Test func deletingThroughTheContextAppliesTheDeleteRules() throws {
        let db = TemporaryDatabase()
        let entities = [
            Schema.Entity(
                name: "Trip", attributes: [A.attribute("name", .string, default: "''")],
                relationships: [
                    Schema.Relationship(
                        name: "items", destination: "Stop", isToMany: true, deleteRule: .cascade, inverse: "trip"),
                    Schema.Relationship(
                        name: "notes", destination: "Note", isToMany: true, deleteRule: .nullify, inverse: "trip"),
                    Schema.Relationship(
                        name: "tickets", destination: "Ticket", isToMany: true, deleteRule: .deny, inverse: "trip"),
                ]),
            Schema.Entity(
                name: "Stop", attributes: [A.attribute("place", .string, default: "''")],
                relationships: [Schema.Relationship(name: "trip", destination: "Trip", isToMany: false)]),
            Schema.Entity(
                name: "Note", attributes: [A.attribute("text", .string, default: "''")],
                relationships: [Schema.Relationship(name: "trip", destination: "Trip", isToMany: false)]),
            Schema.Entity(
                name: "Ticket", attributes: [A.attribute("code", .string, default: "''")],
                relationships: [Schema.Relationship(name: "trip", destination: "Trip", isToMany: false)]),
        ]
        var target = entities
        target[0].attributes.append(A.attribute("extra", .string, optional: true))
        let v1 = A.schema(1, entities)
        let v2 = A.schema(2, target)
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute(
            """
            INSERT INTO Trip (id, name) VALUES (1, 'Paris'), (2, 'Rome');
            INSERT INTO Stop (id, place, trip_id) VALUES (1, 'Louvre', 1), (2, 'Orsay', 1), (3, 'Forum', 2);
            INSERT INTO Note (id, text, trip_id) VALUES (1, 'bring umbrella', 1);
            INSERT INTO Ticket (id, code, trip_id) VALUES (1, 'RM-1', 2);
            """)
        let before = try db.bytes()
        let denied = try #require(throws: MigrationError.self) {
            try A.migrator([v1, v2], kind: .custom, willMigrate: { context in try context.delete("Trip", id: 2) })
                .migrate(databaseAt: db.url)
        }
        #expect(
            denied.message
                == "cannot delete from 'Trip': rows of 'Ticket' still refer to it through 'trip_id' (delete rule deny)")
        #expect(denied.details == ["Ticket rows: 1"])
        #expect(try db.bytes() == before)

        try A.migrator([v1, v2], kind: .custom, willMigrate: { context in try context.delete("Trip", id: 1) }).migrate(
            databaseAt: db.url)
        #expect(try db.rows("SELECT id FROM Trip") == [["2"]])
        #expect(try db.rows("SELECT id FROM Stop") == [["3"]])
        #expect(try db.rows("SELECT id, trip_id FROM Note") == [["1", "NULL"]])
    }

    @Test func aHashModifierInACustomStageHandsDidMigrateTheOldValues() throws {
        let db = TemporaryDatabase()
        let v1 = A.schema(1, [Schema.Entity(name: "Event", attributes: [A.attribute("when", .string, default: "''")])])
        let v2 = A.schema(
            2,
            [
                Schema.Entity(
                    name: "Event",
                    attributes: [A.attribute("when", .date, default: "0.0", hashModifier: "epoch-seconds")])
            ])
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute(
            "INSERT INTO Event (id, \"when\") VALUES (1, '1970-01-02T00:00:00Z'), (2, '1970-01-01T00:01:00Z')")
        try A.migrator(
            [v1, v2], kind: .custom,
            didMigrate: { context in
                let parser = ISO8601DateFormatter()
                try context.forEach("Event") { event in
                    let text = try event.value("when", as: String.self)
                    try context.update("Event", id: event.id, values: ["when": parser.date(from: text)!])
                }
            }
        ).migrate(databaseAt: db.url)
        #expect(
            try db.rows("SELECT id, \"when\", typeof(\"when\") FROM Event ORDER BY id") == [
                ["1", "86400.0", "'real'"], ["2", "60.0", "'real'"],
            ])
        #expect(try db.columns("Event")["when"] == "REAL NOT NULL DEFAULT 0.0")
    }
}

/// Collects progress reports from a @Sendable callback.
final class Reports: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [MigrationProgress] = []
    func append(_ item: MigrationProgress) {
        lock.lock()
        items.append(item)
        lock.unlock()
    }
    var all: [MigrationProgress] {
        lock.lock()
        defer { lock.unlock() }
        return items
    }
}
