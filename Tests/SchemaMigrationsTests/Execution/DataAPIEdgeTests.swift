import Foundation
import Testing

@testable import SchemaMigrations

/// The data API addresses rows by their real key and keeps values whole, whatever the model's
/// property names and the values' contents.
@Suite struct DataAPIEdgeTests {
    typealias A = PlanBuilder

    /// `Shipment` whose `rowid` / `oid` / `_rowid_` property holds other rows' ids, with children
    /// that cascade; V2 adds a column, and `body` is its didMigrate.
    static func shipments(shadowing name: String, _ body: @escaping @Sendable (MigrationContext) throws -> Void) throws
        -> TemporaryDatabase
    {
        let db = TemporaryDatabase()
        let shipment = Schema.Entity(
            name: "Shipment",
            attributes: [A.attribute(name, .integer, default: "0"), A.attribute("label", .string, default: "''")],
            relationships: [
                Schema.Relationship(name: "parcels", destination: "Parcel", isToMany: true, deleteRule: .cascade)
            ])
        let parcel = Schema.Entity(
            name: "Parcel", attributes: [A.attribute("weight", .integer, default: "0")],
            relationships: [Schema.Relationship(name: "shipment", destination: "Shipment", isToMany: false)])
        var shipment2 = shipment
        shipment2.attributes.append(A.attribute("note", .string, optional: true))
        let v1 = A.schema(1, [shipment, parcel])
        let v2 = A.schema(2, [shipment2, parcel])
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute(
            """
            INSERT INTO Shipment (id, "\(name)", label) VALUES (1, 2, 'one'), (2, 3, 'two'), (3, 1, 'three');
            INSERT INTO Parcel (id, weight, shipment_id) VALUES (1, 10, 1), (2, 20, 2), (3, 30, 3);
            """)
        try A.migrator([v1, v2], kind: .custom, didMigrate: body).migrate(databaseAt: db.url)
        return db
    }

    @Test(arguments: ["rowid", "oid", "_rowid_"])
    func deletingByIdDeletesThatRowWhenAPropertyIsNamedLikeTheRowid(name: String) throws {
        let db = try Self.shipments(shadowing: name) { context in
            try context.delete("Shipment", id: 2)
        }
        #expect(try db.rows("SELECT id, label FROM Shipment ORDER BY id") == [["1", "'one'"], ["3", "'three'"]])
        #expect(try db.rows("SELECT id FROM Parcel ORDER BY id") == [["1"], ["3"]])
    }

    @Test func textHoldingANULIsStoredWhole() throws {
        let db = try Self.shipments(shadowing: "rowid") { context in
            let id = try context.insert("Shipment", values: ["label": "before\u{0}after"])
            try context.update("Shipment", id: 1, values: ["label": "a\u{0}b", "note": "x\u{0}"])
            try context.update("Shipment", id: 2, values: ["note": ""])
            #expect(
                try context.fetch("Shipment", where: "id = ?", arguments: [.integer(id)])[0].value("label")
                    == "before\u{0}after")
        }
        #expect(
            try db.rows("SELECT length(CAST(label AS BLOB)), hex(note), note IS NULL FROM Shipment ORDER BY id") == [
                ["3", "'7800'", "0"], ["3", "''", "0"], ["5", "''", "1"], ["12", "''", "1"],
            ])
    }

    @Test func forEachVisitsARowWhoseIdIsInt64Min() throws {
        let db = TemporaryDatabase()
        let v1 = A.schema(1, [MigrationContextTests.item])
        var target = MigrationContextTests.item
        target.attributes.append(A.attribute("extra", .string, optional: true))
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute(
            "INSERT INTO Item (id, title) VALUES (\(Int64.min), 'lowest'), (-1, 'minus one'), (0, 'zero'), (\(Int64.max), 'highest')"
        )
        let visited = Visits()
        try A.migrator(
            [v1, A.schema(2, [target])], kind: .custom,
            didMigrate: { context in
                try context.forEach("Item", batchSize: 1) { visited.ids.append($0.id) }
                try context.forEach("Item", where: "title LIKE ?", arguments: [.text("%e%")], batchSize: 2) {
                    visited.filtered.append($0.id)
                }
            }
        ).migrate(databaseAt: db.url)
        #expect(visited.ids == [Int64.min, -1, 0, Int64.max])
        #expect(visited.filtered == [Int64.min, -1, 0, Int64.max])
    }

    /// Items 1 to 4 at V1; `body` is the didMigrate of a stage adding `extra`.
    static func fourItems(_ body: @escaping @Sendable (MigrationContext) throws -> Void) throws -> TemporaryDatabase {
        let db = TemporaryDatabase()
        let v1 = A.schema(1, [MigrationContextTests.item])
        var target = MigrationContextTests.item
        target.attributes.append(A.attribute("extra", .string, optional: true))
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute("INSERT INTO Item (id, title) VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd')")
        try A.migrator([v1, A.schema(2, [target])], kind: .custom, didMigrate: body).migrate(databaseAt: db.url)
        return db
    }

    /// A body inserting one row per row it visits used to visit its own rows, and never end.
    @Test(arguments: [1, 3, 1000])
    func forEachVisitsTheRowsThatExistedWhenItStartedNotThoseItsBodyInserts(batchSize: Int) throws {
        let visited = Visits()
        let db = try Self.fourItems { context in
            try context.forEach("Item", properties: ["title"], batchSize: batchSize) { row in
                visited.ids.append(row.id)
                // the old behaviour: stop it rather than loop forever
                if visited.ids.count > 8 { throw CancellationError() }
                try context.insert("Item", values: ["title": try row.value("title", as: String.self) + " copy"])
            }
            visited.filtered = try context.fetch("Item").map(\.id)
        }
        #expect(visited.ids == [1, 2, 3, 4])
        #expect(
            try db.rows("SELECT id, title FROM Item ORDER BY id") == [
                ["1", "'a'"], ["2", "'b'"], ["3", "'c'"], ["4", "'d'"], ["5", "'a copy'"], ["6", "'b copy'"],
                ["7", "'c copy'"], ["8", "'d copy'"],
            ])
    }

    /// The documented guarantee: rows not reached yet are read as they are when their batch is
    /// read (updated values seen, deleted rows skipped), each id at most once, and nothing above
    /// the greatest id at the start, whatever the filter now matches.
    @Test func forEachSeesChangesToRowsNotYetReachedAndNothingAboveTheStartsGreatestId() throws {
        let visited = Visits()
        let db = try Self.fourItems { context in
            try context.forEach("Item", where: "title <> 'skip'", batchSize: 1) { row in
                visited.ids.append(row.id)
                visited.titles.append(try row.value("title"))
                guard row.id == 1 else { return }
                try context.update("Item", id: 2, values: ["title": "B"])
                try context.delete("Item", id: 3)
                try context.update("Item", id: 4, values: ["title": "skip"])
                try context.insert("Item", values: ["id": 100, "title": "late"])
            }
        }
        #expect(visited.ids == [1, 2])
        #expect(visited.titles == ["a", "B"])
        #expect(
            try db.rows("SELECT id, title FROM Item ORDER BY id") == [
                ["1", "'a'"], ["2", "'B'"], ["4", "'skip'"], ["100", "'late'"],
            ])
    }

    /// Property `a` is stored in column `b`, property `b` in column `c`: a loop setting one, then
    /// the other, writes each in its own column (the repeated update is recognised by the name
    /// as given, not by the column it resolved to).
    @Test func updatesByPropertyNamesThatAreOtherPropertiesColumnNamesWriteTheirOwnColumns() throws {
        let db = TemporaryDatabase()
        let v1 = A.schema(1, [Schema.Entity(name: "Pair", attributes: [A.attribute("title", .string, default: "''")])])
        let v2 = A.schema(
            2,
            [
                Schema.Entity(
                    name: "Pair",
                    attributes: [
                        A.attribute("title", .string, default: "''"),
                        Schema.Attribute(name: "b", valueType: .integer, isOptional: true, propertyName: "a"),
                        Schema.Attribute(name: "c", valueType: .integer, isOptional: true, propertyName: "b"),
                    ])
            ])
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute("INSERT INTO Pair (id, title) VALUES (1, 'x'), (2, 'y')")
        try A.migrator(
            [v1, v2], kind: .custom,
            didMigrate: { context in
                for id: Int64 in [1, 2] {
                    try context.update("Pair", id: id, values: ["a": 10 * id])
                    try context.update("Pair", id: id, values: ["b": 20 * id])
                }
            }
        ).migrate(databaseAt: db.url)
        #expect(try db.rows("SELECT id, b, c FROM Pair ORDER BY id") == [["1", "10", "20"], ["2", "20", "40"]])
    }

    /// Rows share their batch's values while the body keeps none: once it keeps one beyond its
    /// call, later rows get values of their own, so a row kept holds its own values (and at most
    /// the one batch read before), and every row kept reads back as it was read.
    @Test func rowsTheBodyKeepsKeepTheirValuesAndOnlyTheirs() throws {
        let kept = KeptRows()
        _ = try Self.fourItems { context in
            try context.forEach("Item", batchSize: 2) { row in
                if row.id != 2 { kept.rows.append(row) }
            }
        }
        #expect(kept.rows.map(\.id) == [1, 3, 4])
        #expect(try kept.rows.map { try $0.value("title", as: String.self) } == ["a", "c", "d"])
        #expect(kept.rows.map { $0.values["title"] } == [.text("a"), .text("c"), .text("d")])
        #expect(kept.rows.map { $0["extra"] } == [.null, .null, .null])
        let ownValues = kept.rows.map { row in
            if case .own = row.storage { return true } else { return false }
        }
        #expect(ownValues == [false, true, true])
    }

    /// `execute(_:arguments:)` keeps its statements prepared for the next call, but not one per
    /// row for a loop that builds new SQL on every call: their number stays bounded.
    @Test func aLoopOfEverNewSQLKeepsABoundedNumberOfStatements() throws {
        let counts = Counts()
        let db = try Self.fourItems { context in
            for round in 0..<500 {
                try context.execute("UPDATE Item SET extra = 'round \(round)' WHERE id = 1", arguments: [])
                counts.values.append(context.cachedStatementCount)
            }
            try context.execute("UPDATE Item SET extra = ? WHERE id = ?", arguments: [.text("last"), .integer(2)])
        }
        #expect(counts.values.max() == MigrationContext.statementCacheLimit)
        #expect(
            try db.rows("SELECT id, extra FROM Item WHERE extra IS NOT NULL ORDER BY id") == [
                ["1", "'round 499'"], ["2", "'last'"],
            ])
    }

    /// NULL reads as nil as any optional, and not as a non-optional; a property the rows were not
    /// read with still throws, whatever the type asked for.
    @Test func nullReadsAsNilForEveryOptionalAndAPropertyNotReadStillThrows() throws {
        let read = Reads()
        _ = try Self.fourItems { context in
            try context.forEach("Item", where: "id = 1") { row in
                read.values.append(try row.value("extra", as: String?.self) as Any)
                read.values.append(try row.value("extra", as: Int?.self) as Any)
                read.values.append(try row.value("extra", as: Double?.self) as Any)
                read.values.append(try row.value("extra", as: Date?.self) as Any)
                read.errors.append(Self.failure { try row.value("extra", as: Int.self) })
            }
            try context.forEach("Item", where: "id = 1", properties: ["title"]) { row in
                read.errors.append(Self.failure { try row.value("extra", as: Int?.self) })
            }
        }
        #expect(read.values.map { "\($0)" } == ["nil", "nil", "nil", "nil"])
        #expect(read.errors.map { ($0 as? MigrationError)?.code } == [.typeMismatch, .invalidSchema])
        #expect((read.errors.last as? MigrationError)?.message.hasSuffix("not among the properties read") == true)
    }

    static func failure<T>(_ body: () throws -> T) -> (any Error)? {
        do {
            _ = try body()
            return nil
        } catch {
            return error
        }
    }

    final class Reads: @unchecked Sendable {
        var values: [Any] = []
        var errors: [(any Error)?] = []
    }

    final class Counts: @unchecked Sendable {
        var values: [Int] = []
    }

    final class KeptRows: @unchecked Sendable {
        var rows: [MigrationRow] = []
    }

    final class Visits: @unchecked Sendable {
        var ids: [Int64] = []
        var filtered: [Int64] = []
        var titles: [String] = []
    }
}
